/**
 * `npm run eval:guard`: measures the hallucination guard (the numbers, medicine names and diagnoses a document
 * states that neither the transcript nor the clinician's inputs say, flagged beside it) on real model output
 * nobody on the team wrote: ACI-Bench's published BART predictions for its 20 valid dialogues (CC BY 4.0, read
 * from EVAL_DATA_DIR; the test sets and their prediction files are held out and never read).
 *
 * Each prediction goes through the product's OpenAI path: a local OpenAI-format server answers the chat
 * completion with the model's note, streamed; the product's OpenAI generator writes the consultation notes from
 * the labelled transcript; the guard runs on the text as the service runs it after writing a version. Its flags
 * are compared with a ground truth by the scorer's own rules (scripts/eval/guard-truth.ts): medicines and
 * diagnoses of the scorer's lexicon the transcript never names, and numbers it never states.
 *
 *   --verbose   each dialogue's invented terms and flags, and every invented term in the totals
 *   --limit N   the first N dialogues
 *
 * A measurement, not a test: it always exits 0.
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { createOpenAiGenerator } from '../server/src/ai/openai-generator.js';
import { medicinesIn } from '../server/src/ai/structurer/facts.js';
import type { DocumentRequest } from '../server/src/ai/text-generator.js';
import { evidenceFor } from '../server/src/modules/generated_documents/evidence.js';
import { startFakeOpenAi } from '../server/src/test-support/fake-openai.js';
import { HOW_TO_GET_DATA, loadBartValid, loadSet } from './eval/datasets.js';
import { labelled } from './eval/forms.js';
import {
  addCounts,
  compareFlags,
  countsOf,
  inventedTerms,
  NO_COUNTS,
  precision,
  recall,
  TERM_KINDS,
  type Comparison,
  type InventedTerm,
  type KindCounts,
  type TermKind,
} from './eval/guard-truth.js';

const { values: flags } = parseArgs({
  options: {
    verbose: { type: 'boolean', default: false },
    limit: { type: 'string' },
    help: { type: 'boolean', default: false },
  },
});
if (flags.help) {
  console.log(
    readFileSync(new URL(import.meta.url), 'utf8')
      .match(/\/\*\*([\s\S]*?)\*\//)![1]!
      .replace(/^ \* ?/gm, ''),
  );
  process.exit(0);
}
const limit = flags.limit === undefined ? Infinity : Number(flags.limit);
if (!(limit > 0)) throw new Error('--limit takes a positive number');
const verbose = flags.verbose;

const started = performance.now();
const root = process.env.EVAL_DATA_DIR;
if (!root) {
  console.log(`EVAL_DATA_DIR is not set: nothing to measure.\n${HOW_TO_GET_DATA}`);
  process.exit(0);
}
const loaded = loadSet(root, 'aci-valid');
const predictions = loadBartValid(root, loaded.dialogues);
const missing = [...loaded.missing, ...predictions.missing];
if (missing.length) {
  console.log(`Not in EVAL_DATA_DIR: ${missing.join(', ')}\n${HOW_TO_GET_DATA}`);
  process.exit(0);
}

const MODEL = 'llama3.2:3b';
const DATE = new Date('2026-01-15T10:00:00Z');
const CLINICIAN = 'Dr. Eval';
// The fake answers whatever is asked with the note of the dialogue being written.
let current = '';
const fake = await startFakeOpenAi(() => ({ text: current, chunks: 12 }));
const generator = createOpenAiGenerator({ baseUrl: fake.baseUrl, apiKey: 'eval-guard', model: MODEL, temperature: 0, maxRetries: 0, timeoutMs: 30_000 });

type Sent = { model?: string; stream?: boolean; messages?: { role: string; content: string }[] };

/** The note as the product receives it from the model, checked to be exactly what was sent, asked for as the product asks. */
async function write(note: string, transcript: string): Promise<string> {
  current = note;
  const request: DocumentRequest = { documentKind: 'consultation_notes', language: 'en', transcript, data: {}, clinician: { name: CLINICIAN }, date: DATE };
  const before = fake.received.length;
  let text = '';
  for await (const delta of generator.write(request)) text += delta;
  const sent = fake.received.slice(before);
  if (sent.length !== 1) throw new Error(`expected one request to the model, got ${sent.length}`);
  const body = JSON.parse(sent[0]!.body) as Sent;
  if (!sent[0]!.path.endsWith('/chat/completions') || body.stream !== true || body.model !== MODEL)
    throw new Error('the generator did not ask for a streamed chat completion');
  if (!body.messages?.some((m) => m.role === 'user' && m.content.includes(transcript.trim()))) throw new Error('the transcript was not sent to the model');
  if (text !== note) throw new Error("the generator's text is not the model's note");
  return text;
}

/** The guard's word flags are medicine names or diagnoses; the product's medicine reader tells which, where the scorer's lexicon does not know the word. */
const wordKind = (flag: string): 'medicine' | 'diagnosis' => (medicinesIn([flag], 'en').length ? 'medicine' : 'diagnosis');

const KIND_NAMES: Record<TermKind, string> = { number: 'numbers', medicine: 'medicines', diagnosis: 'diagnoses' };
const pct = (x: number) => (Number.isFinite(x) ? `${(100 * x).toFixed(0)}%` : '–');
const cells = (c: KindCounts) => [c.invented, c.caught, c.missed, c.falseAlarms, c.unjudged, c.flags].map((n) => String(n).padStart(3)).join(' ');

const shown = (t: InventedTerm) => `${t.label}${t.negated ? ' (denied)' : ''}`;

const results: { id: string; comparison: Comparison }[] = [];
try {
  for (const { id, note } of predictions.notes.slice(0, limit)) {
    const dialogue = loaded.dialogues.find((d) => d.id === id)!;
    const transcript = labelled(dialogue.turns);
    const text = await write(note, transcript);
    const { flagged } = evidenceFor(text, { transcript, data: {}, clinician: CLINICIAN, language: 'en', date: DATE });
    results.push({ id, comparison: compareFlags(flagged, { note: text, transcript, truth: inventedTerms(text, transcript) }, wordKind) });
  }
} finally {
  // An open server would keep the process alive after a failure.
  await fake.close();
}

console.log(`Hallucination guard on ACI-Bench's BART valid predictions (CC BY 4.0), ${results.length} notes, through the product's OpenAI
generator (a local OpenAI-format server answering with the model's note); the guard run as the service runs it.

Ground truth (scripts/eval/guard-truth.ts, the scorer's own rules, none of the product's): medicines and diagnoses of the
scorer's lexicon the transcript never names (a name inside another's, 'infection' in 'urinary tract infection', once);
numbers the note states, in digits or words, that the transcript does not (a value with a fitting unit or none, or a
right conversion; a bare number said anywhere; a score N/10 when N is said); dates and list numbers left out. Names of
people are in neither the guard's kinds nor the ground truth.
  inv     invented terms in the note        ca      caught: invented terms a flag names (same number; words one containing the other)
  mis     invented terms no flag names      fal     false alarms: flags naming no invented term that the transcript says, by the
                                                    scorer's reading (a piece of a said decimal included: '7' of a said 38.7)
  unj     flags the ground truth cannot judge: a date, time or list number it skips, part of a word (L5, x3), a piece of an
          invented decimal ('5' of 0.5, not its value), a word outside its lexicon nobody said
  flg     all the guard's flags, as it lists them; precision = flags that catch / (those + false alarms); recall = ca / inv
`);

const header = TERM_KINDS.map((k) => `${KIND_NAMES[k].padEnd(23)}`).join(' | ');
console.log(`${'dialogue'.padEnd(19)} | ${header}`);
console.log(`${''.padEnd(19)} | ${TERM_KINDS.map(() => 'inv  ca mis fal unj flg').join(' | ')}`);
const totals: Record<TermKind, KindCounts> = { number: NO_COUNTS, medicine: NO_COUNTS, diagnosis: NO_COUNTS };
for (const { id, comparison } of results) {
  const counts = TERM_KINDS.map((k) => countsOf(comparison, k));
  TERM_KINDS.forEach((k, i) => (totals[k] = addCounts(totals[k], counts[i]!)));
  console.log(`${id.padEnd(19)} | ${counts.map(cells).join(' | ')}`);
  if (!verbose) continue;
  for (const kind of TERM_KINDS) {
    const inv = comparison.invented.filter((t) => t.kind === kind);
    const fl = comparison.flags.filter((f) => f.kind === kind);
    if (!inv.length && !fl.length) continue;
    const caught = inv.filter((t) => t.caught).map(shown);
    const missedTerms = inv.filter((t) => !t.caught).map((t) => (t.context ? `${shown(t)} ("${t.context}")` : shown(t)));
    const line = (label: string, items: string[]) => {
      if (items.length) console.log(`      ${KIND_NAMES[kind]} ${label}: ${items.join('; ')}`);
    };
    line('caught', caught);
    line('missed', missedTerms);
    line(
      'false alarms',
      fl.filter((f) => f.verdict === 'false alarm').map((f) => `${f.text} (${f.why})`),
    );
    line(
      'unjudged flags',
      fl.filter((f) => f.verdict === 'unjudged').map((f) => `${f.text} (${f.why})`),
    );
  }
}

const all = TERM_KINDS.reduce((a, k) => addCounts(a, totals[k]), NO_COUNTS);
console.log(`\nTotals        invented  caught  missed  false alarms  unjudged  flags  precision  recall`);
for (const [name, c] of [...TERM_KINDS.map((k) => [KIND_NAMES[k], totals[k]] as const), ['all', all] as const])
  console.log(
    `${name.padEnd(13)} ${[c.invented, c.caught, c.missed].map((n) => String(n).padStart(8)).join('')}  ${String(c.falseAlarms).padStart(12)}  ${String(c.unjudged).padStart(8)}  ${String(c.flags).padStart(5)}  ${pct(precision(c)).padStart(9)}  ${pct(recall(c)).padStart(6)}`,
  );

const pieces = results.flatMap((r) => r.comparison.flags.filter((f) => f.why?.includes('piece of')));
if (pieces.length)
  console.log(
    `\n${pieces.length} number flags are a piece of a decimal the note writes (${pieces.map((f) => f.text).join(', ')}): the guard read only the digits after its point.`,
  );
const concepts = results.flatMap((r) => r.comparison.invented.filter((t) => t.kind !== 'number'));
const denied = concepts.filter((t) => t.negated);
console.log(
  `${pieces.length ? '' : '\n'}Of the ${concepts.length} invented medicines and diagnoses, ${denied.length} are named only in sentences that deny them ('No murmurs, gallops, or rubs'); the guard caught ${denied.filter((t) => t.caught).length} of those and ${concepts.filter((t) => !t.negated && t.caught).length} of the other ${concepts.length - denied.length}.`,
);

if (verbose) {
  console.log('\nInvented terms by the ground truth, to check by eye (* = caught by the guard; (denied) = named only in a denial):');
  for (const kind of TERM_KINDS) {
    const terms = results.flatMap(({ id, comparison }) =>
      comparison.invented.filter((t) => t.kind === kind).map((t) => `${t.caught ? '*' : ''}${shown(t)} [${id.replace(/-.*/, '')}]`),
    );
    console.log(`  ${KIND_NAMES[kind]} (${terms.length}): ${terms.join(', ')}`);
  }
}

console.log(`\nWall time: ${((performance.now() - started) / 1000).toFixed(1)} s`);
process.exitCode = 0;
