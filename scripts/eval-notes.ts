/**
 * `npm run eval:notes`: writes consultation notes through the configured document engine (the same settings as the
 * server; the offline composer when no model is configured) and measures them.
 *
 * First report: the project's own dialogues (tests/fixtures/dialogues), scored against the facts each lists.
 * Then the public development sets, which nobody on the team wrote, from EVAL_DATA_DIR: ACI-Bench train and
 * valid (full notes) and MTS-Dialog train and valid (one note section each), each dialogue in the transcript forms
 * the product receives (labelled, punctuated, asr; for ACI valid also the real speech-engine output), scored by
 * scripts/eval/ against the clinicians' reference notes. The test sets are held out and never read.
 *
 *   --set own,aci-train,aci-valid,mts-train,mts-valid   (default: all)
 *   --form labelled,punctuated,asr,real-asr             (default: all)
 *   --limit N            at most N dialogues of each set
 *   --all-mts-train      every MTS-Dialog training dialogue (default: a sample of 100, every k-th)
 *   --verbose            each dialogue's misses
 *
 * A measurement, not a test: it always exits 0.
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { createTextGenerator } from '../server/src/ai/engines.js';
import type { DocumentRequest } from '../server/src/ai/text-generator.js';
import { loadConfig } from '../server/src/config.js';
import { everyKth, HOW_TO_GET_DATA, loadSet, SET_NAMES, type EvalDialogue, type SetName } from './eval/datasets.js';
import { FORMS, transcriptOf, type Form } from './eval/forms.js';
import { FILLERS } from './eval/lexicon.js';
import { ownReport } from './eval/own-report.js';
import { scoreDialogue, type DialogueScore } from './eval/score.js';
import { markdownTable, type Row } from './eval/table.js';

const MTS_TRAIN_SAMPLE = 100;

const { values: flags } = parseArgs({
  options: {
    set: { type: 'string', default: ['own', ...SET_NAMES].join(',') },
    form: { type: 'string', default: FORMS.join(',') },
    limit: { type: 'string' },
    'all-mts-train': { type: 'boolean', default: false },
    verbose: { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});

if (flags.help) {
  // The usage is this file's opening comment, so the two cannot drift apart.
  console.log(
    readFileSync(new URL(import.meta.url), 'utf8')
      .match(/\/\*\*([\s\S]*?)\*\//)![1]!
      .replace(/^ \* ?/gm, ''),
  );
  process.exit(0);
}

const list = (s: string) =>
  s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
const sets = list(flags.set);
const forms = list(flags.form) as Form[];
for (const s of sets)
  if (s !== 'own' && !(SET_NAMES as readonly string[]).includes(s)) throw new Error(`--set: unknown set ${s} (own, ${SET_NAMES.join(', ')})`);
for (const f of forms) if (!(FORMS as readonly string[]).includes(f)) throw new Error(`--form: unknown form ${f} (${FORMS.join(', ')})`);
const limit = flags.limit === undefined ? Infinity : Number(flags.limit);
if (!(limit > 0)) throw new Error('--limit takes a positive number');
const verbose = flags.verbose;

const started = performance.now();
const generator = await createTextGenerator(loadConfig({ ...process.env, DATA_DIR: process.env.DATA_DIR ?? '.tmp/eval' }));
const engine = `${generator.info.engine}${generator.info.model ? ` (${generator.info.model})` : ''}`;
console.log(`Notes evaluation with ${engine}`);

if (sets.includes('own')) await ownReport(generator, verbose);

async function write(transcript: string): Promise<string> {
  const request: DocumentRequest = {
    documentKind: 'consultation_notes',
    language: 'en',
    transcript,
    data: {},
    clinician: { name: 'Dr. Eval' },
    date: new Date('2026-01-15T10:00:00Z'),
  };
  let note = '';
  for await (const delta of generator.write(request)) note += delta;
  return note;
}

function printMisses(d: EvalDialogue, form: Form, s: DialogueScore): void {
  const lines = [
    s.facts.missing.length && `missing (said, not in the note): ${s.facts.missing.join('; ')}`,
    s.facts.misplaced.length && `elsewhere: ${s.facts.misplaced.join('; ')}`,
    s.wrong.wrong.length && `wrong values: ${s.wrong.wrong.join('; ')}`,
    s.wrong.unitMismatches.length && `unit mismatches: ${s.wrong.unitMismatches.join('; ')}`,
    s.decimals.cut.length && `decimals cut: ${s.decimals.cut.join('; ')}`,
    s.invented.length && `invented: ${s.invented.join('; ')}`,
    s.followUp && !s.followUp.captured && `follow-up not captured: ${s.followUp.interval.value} ${s.followUp.interval.unit}`,
  ].filter((l): l is string => typeof l === 'string');
  const figures = `R-L ${s.rouge.rougeL.toFixed(1)}, kept ${s.facts.kept}/${s.facts.countable}, placed ${s.facts.placed}, fillers ${s.fillers.fillers}/${s.fillers.words} w`;
  console.log(`  ${d.id} [${form}] ${figures}${d.referenceSection ? ` (${d.referenceSection})` : ''}`);
  for (const l of lines) console.log(`      ${l}`);
}

const publicSets = sets.filter((s): s is SetName => s !== 'own');
const rows: Row[] = [];
if (publicSets.length) {
  const root = process.env.EVAL_DATA_DIR;
  console.log("\nPublic development sets (ACI-Bench, CC BY 4.0; MTS-Dialog), against the clinicians' reference notes");
  if (!root) console.log(`\nEVAL_DATA_DIR is not set: the public sets are skipped.\n${HOW_TO_GET_DATA}`);
  else {
    let missingAny = false;
    for (const set of publicSets) {
      const loaded = loadSet(root, set);
      if (loaded.missing.length) {
        missingAny = true;
        console.log(`  ${set}: not in EVAL_DATA_DIR: ${loaded.missing.join(', ')}`);
      }
      let dialogues = loaded.dialogues;
      if (set === 'mts-train' && !flags['all-mts-train'] && dialogues.length > MTS_TRAIN_SAMPLE) {
        const sampled = everyKth(dialogues, MTS_TRAIN_SAMPLE);
        console.log(
          `  mts-train: a sample of ${sampled.length} of its ${dialogues.length} dialogues, every ${Math.floor(dialogues.length / MTS_TRAIN_SAMPLE)}th (--all-mts-train for all)`,
        );
        dialogues = sampled;
      }
      dialogues = dialogues.slice(0, limit);
      for (const form of forms) {
        const source = form === 'real-asr' ? loaded.realAsr.slice(0, limit) : dialogues;
        if (source.length === 0) continue;
        const scores: DialogueScore[] = [];
        for (const d of source) {
          const transcript = transcriptOf(d.turns, form);
          const note = await write(transcript);
          const score = scoreDialogue({
            note,
            transcript,
            reference: d.reference,
            ...(d.referenceSection !== undefined ? { referenceSection: d.referenceSection } : {}),
          });
          if (verbose) printMisses(d, form, score);
          scores.push(score);
        }
        rows.push({ set, form, scores });
      }
    }
    if (missingAny) console.log(`\n${HOW_TO_GET_DATA}`);
  }
}

if (rows.length) {
  console.log(`
How to read the table (scripts/eval/; nothing of the product's structurer or clinical rules is used to score):
  R-1/R-2/R-L   ROUGE F1 ×100 of the note body (no title, no-AI label, date, clinician, blanks) against the reference
                (ACI-Bench: the whole note; MTS-Dialog: one section, so precision and R-L are low by construction);
                rouge-score tokens ([a-z0-9]+, lower case) with Porter stemming (original algorithm, as NLTK's
                ORIGINAL_ALGORITHM mode, written in scripts/eval/porter.ts); mean over dialogues.
  pasted        the same for the transcript pasted whole as the note (a baseline, same run).
  facts         reference facts (numbers with units, ratios, decimals, measurement-line values; medicines and
                diagnoses of the scorer's lexicon) that the transcript states: countable/all. kept = found in the
                note; placed = found in the section the reference puts it in (S; O; A or P), as % of countable.
  wrong values  numbers written with a unit or on a measurement line that neither transcript nor reference
                states with a fitting unit (a right conversion beside a said value is not wrong): wrong/checked.
                unit mismatch = said in one unit, written in another of the same kind (154 pounds → 154 kg).
  decimals cut  decimals said (digits, 'point', or ACI-Bench's 'seven . three') that the note has only in
                pieces ('7.', '5 mg', '98 6'): cut/said.
  invented      medicines and diagnoses named in the note that the transcript never names, in any spelling.
  fillers       per 100 words of the body: ${FILLERS.map((f) => f.name).join(', ')}.
  fragments     body lines of three words or fewer; verbatim: body sentences of 6+ words found word for word
                in the transcript, as % of such sentences.
  length        body words / reference words, median and mean. follow-up: notes stating the reference's
                follow-up interval (same number and unit) / references stating one.
  omission recall  of the reference facts the transcript states and the note leaves out, the share the product's list
                   of what was said but not put in the note names (scripts/eval/omissions.ts); and its length per note.
Transcript forms: labelled ('Clinician: …' / 'Patient: …' lines); punctuated (the same without labels); asr (lower
case, numbers in words, no punctuation, one line); real-asr (ACI-Bench's speech-engine output for its 11 valid
'aci' dialogues, made like asr). ACI-Bench's tokenised text is tidied (no space before punctuation, "do n't" →
"don't", "gon na" → "gonna") and each sentence starts with a capital.
`);
  const all: Row = { set: 'all', form: 'all', scores: rows.flatMap((r) => r.scores) };
  console.log(markdownTable([...rows, all]));
}

console.log(`\nWall time: ${((performance.now() - started) / 1000).toFixed(1)} s`);
process.exitCode = 0;
