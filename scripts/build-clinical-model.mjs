#!/usr/bin/env node
/**
 * Builds the local speech engine's clinical model into server/speech/build/: a 3-gram language model from the
 * project's clinical sentences (server/speech/clinical-corpus.mjs, with Debian's irstlm) converted for
 * pocketsphinx (sphinxbase-utils), and a pronunciation dictionary from CMUdict plus the drug names of
 * server/speech/drug-pronunciations.dict. Run by `npm start` and `npm test` when missing; safe to run again.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { clinicalSentences } from '../server/speech/clinical-corpus.mjs';

export const MODEL_DIR = path.resolve('server/speech/build');
export const CLINICAL_LM = path.join(MODEL_DIR, 'clinical.lm.bin');
export const CLINICAL_DICT = path.join(MODEL_DIR, 'clinical.dict');
const IRSTLM = '/usr/lib/irstlm';
const CMUDICT = '/usr/share/pocketsphinx/model/en-us/cmudict-en-us.dict';
const SOURCES = ['server/speech/clinical-corpus.mjs', 'server/speech/drug-pronunciations.dict', 'scripts/build-clinical-model.mjs'];

export const canBuildClinicalModel = () => existsSync(`${IRSTLM}/bin/build-lm.sh`) && existsSync('/usr/bin/sphinx_lm_convert') && existsSync(CMUDICT);

export function clinicalModelIsCurrent() {
  if (!existsSync(CLINICAL_LM) || !existsSync(CLINICAL_DICT)) return false;
  const built = statSync(CLINICAL_LM).mtimeMs;
  return SOURCES.every((s) => statSync(s).mtimeMs < built);
}

function pronunciations(file) {
  const map = new Map();
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const m = line.match(/^(\S+?)(\(\d+\))?\s+(.+)$/);
    if (!m) continue;
    const word = m[1];
    map.set(word, [...(map.get(word) ?? []), m[3].trim()]);
  }
  return map;
}

export function buildClinicalModel() {
  const sentences = clinicalSentences();
  const vocabulary = [...new Set(sentences.flatMap((s) => s.split(/\s+/)))].sort();
  const cmu = pronunciations(CMUDICT);
  const drugs = pronunciations('server/speech/drug-pronunciations.dict');
  const missing = vocabulary.filter((w) => !cmu.has(w) && !drugs.has(w));
  if (missing.length) throw new Error(`No pronunciation for: ${missing.join(', ')} (add them to server/speech/drug-pronunciations.dict)`);

  rmSync(MODEL_DIR, { recursive: true, force: true });
  mkdirSync(MODEL_DIR, { recursive: true });
  const work = path.join(MODEL_DIR, 'work');
  mkdirSync(work);
  const corpus = path.join(work, 'corpus.txt');
  writeFileSync(corpus, sentences.map((s) => `<s> ${s} </s>`).join('\n') + '\n');
  const env = { ...process.env, IRSTLM };
  execFileSync(
    `${IRSTLM}/bin/build-lm.sh`,
    ['-i', corpus, '-n', '3', '-o', path.join(work, 'lm.ilm.gz'), '-k', '1', '-s', 'improved-kneser-ney', '-t', path.join(work, 'tmp')],
    { env, stdio: 'pipe' },
  );
  execFileSync(`${IRSTLM}/bin/compile-lm`, ['--text=yes', path.join(work, 'lm.ilm.gz'), path.join(work, 'lm.arpa')], { env, stdio: 'pipe' });
  execFileSync('sphinx_lm_convert', ['-i', path.join(work, 'lm.arpa'), '-o', CLINICAL_LM], { stdio: 'pipe' });
  const lines = [];
  for (const word of vocabulary) {
    const prons = drugs.get(word) ?? cmu.get(word);
    prons.forEach((p, i) => lines.push(i === 0 ? `${word} ${p}` : `${word}(${i + 1}) ${p}`));
  }
  writeFileSync(CLINICAL_DICT, lines.join('\n') + '\n');
  rmSync(work, { recursive: true, force: true });
  return { sentences: sentences.length, words: vocabulary.length };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { sentences, words } = buildClinicalModel();
  console.log(`Clinical speech model: ${sentences} sentences, ${words} words → ${path.relative(process.cwd(), MODEL_DIR)}`);
}
