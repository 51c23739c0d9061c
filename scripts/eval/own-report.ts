/**
 * The first report: the project's own dialogues (tests/fixtures/dialogues, written for this project in pt, en, de
 * and es; `held-out/` and `held-out-2/` written without reading the structurer), scored as before against the
 * facts each fixture lists:
 *  - facts kept: reference facts (any of their spellings) found in the note;
 *  - facts placed: kept facts found under the section the fixture puts them in;
 *  - invented: numbers and drug-like words in the note found nowhere in the transcript or the inputs (must stay 0);
 *  - linked: the share of the note's sentences that rest on the transcript or the inputs (most of their words are
 *    in one sentence of them), the rest being the document's own frame (headings, labels, blanks).
 * The helpers are the scorer's own (no product lexicon or number reader), so a change to the product's rules
 * cannot change the ruler.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Language } from '../../contract/constants.js';
import type { DocumentRequest, NotesData, TextGenerator } from '../../server/src/ai/text-generator.js';
import { noteBody, type NoteSection } from './note-body.js';
import { numbersAsDigits } from './spoken-numbers.js';
import { fold } from './text.js';

type Fact = { any: string[]; section: NoteSection };
type Dialogue = { language: Language; document: string; transcript: string; data: NotesData; facts: Fact[] };

export const OWN_DIR = 'tests/fixtures/dialogues';

/** What a note says for 'no allergies', in the four languages: the frame, not a sentence of the consultation. */
const NO_KNOWN_ALLERGIES = ['no known allergies', 'sem alergias conhecidas', 'keine bekannten allergien', 'sin alergias conocidas'];

/** Numbers (with decimals or slashes) and long words ending like drug names, as they appear in a note. */
function checkableTokens(text: string): string[] {
  const numbers = text.match(/\b\d+(?:[.,/]\d+)*\b/g) ?? [];
  const drugs =
    text.match(/\b[a-záéíóúâêôãõçäöüß]{5,}(?:pril|olol|statin|statina|formin|formina|cillin|cilina|profen|profeno|azole|azol|sartan|mab|pine|pina|tide)\b/gi) ??
    [];
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

const isFrame = (line: string) =>
  /^\s*(?:_[^_]+_|\*[^*]+\*)\s*$/.test(line) ||
  /\[[^\]\n]{1,40}\]/.test(line) ||
  ['dr. eval', '2026', ...NO_KNOWN_ALLERGIES].some((f) => fold(line).includes(f));

/** Writes a note for every dialogue of a folder and prints its figures. */
async function report(generator: TextGenerator, title: string, dir: string, verbose: boolean): Promise<void> {
  console.log(`\n${title}`);
  console.log('  dialogue                 facts kept   in the right section   invented   sentences linked');
  let kept = 0;
  let placed = 0;
  let total = 0;
  let invented = 0;
  let sentences = 0;
  let linkedSentences = 0;
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    const d = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as Dialogue;
    const request: DocumentRequest = {
      documentKind: d.document,
      language: d.language,
      transcript: d.transcript,
      data: d.data,
      clinician: { name: 'Dr. Eval' },
      date: new Date('2026-01-15T10:00:00Z'),
    };
    let note = '';
    for await (const delta of generator.write(request)) note += delta;
    const haystack = fold(note);
    const bySection = noteBody(note).sections;
    const found = d.facts.filter((f) => f.any.some((s) => haystack.includes(fold(s))));
    const right = found.filter((f) => f.any.some((s) => fold(bySection[f.section] ?? '').includes(fold(s))));
    if (verbose) {
      for (const f of d.facts.filter((x) => !found.includes(x))) console.log(`    missing: ${f.any[0]} (${f.section})`);
      for (const f of found.filter((x) => !right.includes(x))) console.log(`    elsewhere: ${f.any[0]} (expected in ${f.section})`);
    }
    // Spoken numbers are written as digits in a note: the transcript's numbers count in either form.
    const source = fold(
      `${d.transcript} ${Object.values(d.data).join(' ')} 2026-01-15 15 january 2026 15 de janeiro de 2026 15. januar 2026 15 de enero de 2026`,
    );
    const digits = numbersAsDigits(d.transcript, d.language);
    const madeUp = checkableTokens(note).filter((token) => !source.includes(token) && !fold(digits).includes(token));
    // The note's own sentences, without its frame: headings, the no-AI label, labels, blanks, the date line.
    const noteSentences = note
      .split('\n')
      .map((l) =>
        l
          .replace(/^[-*]\s+/, '')
          .replace(/^\*\*[^*]+:\*\*\s*/, '')
          .replace(/^[^:]{2,30}:\s+/, '')
          .trim(),
      )
      .filter((l) => l && !l.startsWith('#') && !isFrame(l) && contentWords(l).length > 0);
    // A question and its answer are one source sentence too ('Any allergies? Penicillin.').
    const said = `${digits} ${d.transcript}`.split(/(?<=[.?!])\s+/);
    const sourceSentences = [...said, ...said.slice(1).map((s, i) => `${said[i]} ${s}`), ...Object.values(d.data)];
    const unlinked = noteSentences.filter((s) => !linked(s.replace(NUMBER_WORDS, ' '), sourceSentences));
    const linkedHere = noteSentences.length - unlinked.length;
    if (verbose) for (const s of unlinked) console.log(`    not linked: ${s}`);
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
  console.log(
    `  ${'all'.padEnd(24)} ${pct(kept, total).padStart(10)}   ${pct(placed, total).padStart(20)}   ${String(invented).padStart(8)}   ${pct(linkedSentences, sentences).padStart(16)}`,
  );
}

export async function ownReport(generator: TextGenerator, verbose: boolean): Promise<void> {
  await report(generator, 'Development dialogues (the structurer was written against them)', OWN_DIR, verbose);
  await report(
    generator,
    'First held-out dialogues (written without reading the structurer, scored blind; their misses then guided general rules)',
    path.join(OWN_DIR, 'held-out'),
    verbose,
  );
  await report(generator, 'Second held-out dialogues (written without reading the structurer; never tuned against)', path.join(OWN_DIR, 'held-out-2'), verbose);
}
