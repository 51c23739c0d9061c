/**
 * `npm run eval:notes`: runs the consultation dialogues of tests/fixtures/dialogues (written for this project, in
 * pt, en, de and es; `held-out/` written without reading the structurer) through the configured document engine (the same settings as the server; the offline
 * structurer when no model is configured) and scores each note:
 *  - facts kept: reference facts (any of their spellings) found in the note;
 *  - facts placed: kept facts found under the section the reference puts them in (Subjective, Objective,
 *    Assessment, Plan, in the note's language);
 *  - invented: numbers and drug-like words in the note found nowhere in the transcript or the inputs (must stay 0);
 *  - linked: the share of the note's sentences that rest on the transcript or the inputs (most of their words are
 *    in one sentence of them), the rest being the document's own frame (headings, labels, blanks).
 * A measurement, not a test: it always exits 0.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Language } from '../contract/constants.js';
import { createTextGenerator } from '../server/src/ai/engines.js';
import { BLANK, COMPOSER_LABEL, NO_KNOWN_ALLERGIES } from '../server/src/ai/offline-composer.js';
import { fold } from '../server/src/ai/structurer/facts.js';
import { numbersAsNoted } from '../server/src/ai/structurer/spoken-numbers.js';
import type { DocumentRequest } from '../server/src/ai/text-generator.js';
import { loadConfig } from '../server/src/config.js';

type Section = 'subjective' | 'objective' | 'assessment' | 'plan';
type Fact = { any: string[]; section: Section };
type Dialogue = { language: Language; document: string; transcript: string; data: Record<string, string>; facts: Fact[] };

const DIR = 'tests/fixtures/dialogues';
const generator = await createTextGenerator(loadConfig({ ...process.env, DATA_DIR: process.env.DATA_DIR ?? '.tmp/eval' }));

/** The heading words of each section, in the four languages (and the usual variants a model writes). */
const HEADINGS: Record<Section, string[]> = {
  subjective: ['subjective', 'subjetivo', 'subjektiv', 'history', 'anamnese', 'anamnesis'],
  objective: ['objective', 'objetivo', 'objektiv', 'examination', 'exame', 'befund', 'exploracion'],
  assessment: ['assessment', 'avaliacao', 'beurteilung', 'evaluacion', 'diagnosis', 'diagnostico', 'diagnose'],
  plan: ['plan', 'plano'],
};

/** The note cut into its sections by their headings; text before the first heading belongs to none. */
function sectionsOf(note: string): Partial<Record<Section, string>> {
  const out: Partial<Record<Section, string>> = {};
  let current: Section | undefined;
  for (const line of note.split('\n')) {
    const heading = line.match(/^#{1,4}\s+(.+)$/) ?? line.match(/^\*\*([^*]+)\*\*:?\s*$/);
    if (heading) {
      const words = fold(heading[1]!);
      current = (Object.keys(HEADINGS) as Section[]).find((s) => HEADINGS[s].some((h) => words.includes(h)));
      continue;
    }
    if (current) out[current] = `${out[current] ?? ''}\n${line}`;
  }
  return out;
}

/** Numbers (with decimals or slashes) and long words ending like drug names, as they appear in a note. */
function checkableTokens(text: string): string[] {
  const numbers = text.match(/\b\d+(?:[.,/]\d+)*\b/g) ?? [];
  const drugs = text.match(/\b[a-záéíóúâêôãõçäöüß]{5,}(?:pril|olol|statin|statina|formin|formina|cillin|cilina|profen|profeno|azole|azol|sartan|mab|pine|pina|tide)\b/gi) ?? [];
  return [...new Set([...numbers, ...drugs].map(fold))];
}

const NUMBER_WORDS = /\b\d+(?:[.,]\d+)?\b/g;
// Units a note adds to a value said without them are not words to find.
const contentWords = (s: string) => (fold(s).match(/[\p{L}\d]{4,}/gu) ?? []).filter((w) => !/^\d+$/.test(w) && !['mmhg'].includes(w));

/** Whether a sentence of the note rests on one sentence of the sources: most of its content words are there. */
function linked(sentence: string, sources: string[]): boolean {
  const words = contentWords(sentence);
  if (words.length === 0) return true;
  return sources.some((source) => {
    const have = new Set(contentWords(source));
    return words.filter((w) => have.has(w)).length / words.length >= 0.6;
  });
}

/** Writes a note for every dialogue of a folder and prints its figures. */
async function report(title: string, dir: string): Promise<void> {
  console.log(`\n${title}: notes evaluation with ${generator.info.engine}${generator.info.model ? ` (${generator.info.model})` : ''}`);
  console.log('  dialogue                 facts kept   in the right section   invented   sentences linked');
  let kept = 0;
  let placed = 0;
  let total = 0;
  let invented = 0;
  let sentences = 0;
  let linkedSentences = 0;
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json')).sort()) {
    const d = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as Dialogue;
    const request: DocumentRequest = { documentKind: d.document, language: d.language, transcript: d.transcript, data: d.data, clinician: { name: 'Dr. Eval' }, date: new Date('2026-01-15T10:00:00Z') };
    let note = '';
    for await (const delta of generator.write(request)) note += delta;
    const haystack = fold(note);
    const bySection = sectionsOf(note);
    const found = d.facts.filter((f) => f.any.some((s) => haystack.includes(fold(s))));
    const right = found.filter((f) => f.any.some((s) => fold(bySection[f.section] ?? '').includes(fold(s))));
    if (process.argv.includes('--verbose')) {
      for (const f of d.facts.filter((x) => !found.includes(x))) console.log(`    missing: ${f.any[0]} (${f.section})`);
      for (const f of found.filter((x) => !right.includes(x))) console.log(`    elsewhere: ${f.any[0]} (expected in ${f.section})`);
    }
    // Spoken numbers are written as digits in a note: the transcript's numbers count in either form.
    const source = fold(`${d.transcript} ${Object.values(d.data).join(' ')} 2026-01-15 15 january 2026 15 de janeiro de 2026 15. januar 2026 15 de enero de 2026`);
    // '150 over 95' is written 150/95 in a note.
    const digits = numbersAsNoted(d.transcript, d.language);
    const madeUp = checkableTokens(note).filter((token) => !source.includes(token) && !fold(digits).includes(token));
    // The note's own sentences, without its frame: headings, the no-AI label, labels, blanks, the date line.
    const frame = [COMPOSER_LABEL[d.language], BLANK[d.language], NO_KNOWN_ALLERGIES[d.language], 'Dr. Eval', '2026'].map(fold);
    const noteSentences = note
      .split('\n')
      .map((l) => l.replace(/^[-*]\s+/, '').replace(/^\*\*[^*]+:\*\*\s*/, '').replace(/^[^:]{2,30}:\s+/, '').trim())
      .filter((l) => l && !l.startsWith('#') && !frame.some((f) => fold(l).includes(f)) && contentWords(l).length > 0);
    // A question and its answer are one source sentence too ('Any allergies? Penicillin.').
    const said = `${digits} ${d.transcript}`.split(/(?<=[.?!])\s+/);
    const sourceSentences = [...said, ...said.slice(1).map((s, i) => `${said[i]} ${s}`), ...Object.values(d.data)];
    const unlinked = noteSentences.filter((s) => !linked(s.replace(NUMBER_WORDS, ' '), sourceSentences));
    const linkedHere = noteSentences.length - unlinked.length;
    if (process.argv.includes('--verbose')) for (const s of unlinked) console.log(`    not linked: ${s}`);
    kept += found.length;
    placed += right.length;
    total += d.facts.length;
    invented += madeUp.length;
    sentences += noteSentences.length;
    linkedSentences += linkedHere;
    console.log(
      `  ${file.replace('.json', '').padEnd(24)} ${`${found.length}/${d.facts.length}`.padStart(10)}   ${`${right.length}/${d.facts.length}`.padStart(20)}   ${String(madeUp.length).padStart(8)}   ${`${linkedHere}/${noteSentences.length}`.padStart(16)}${madeUp.length ? `  (${madeUp.join(', ')})` : ''}`,
    );
  }
  const pct = (n: number, d: number) => `${((n / d) * 100).toFixed(0)} %`;
  console.log(`  ${'all'.padEnd(24)} ${pct(kept, total).padStart(10)}   ${pct(placed, total).padStart(20)}   ${String(invented).padStart(8)}   ${pct(linkedSentences, sentences).padStart(16)}`);
}

await report('Development dialogues (the structurer was written against them)', DIR);
await report('First held-out dialogues (written without reading the structurer, scored blind; their misses then guided general rules)', path.join(DIR, 'held-out'));
await report('Second held-out dialogues (written without reading the structurer; never tuned against)', path.join(DIR, 'held-out-2'));
process.exitCode = 0;
