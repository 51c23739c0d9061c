/**
 * `npm run eval:notes`: runs the consultation dialogues of tests/fixtures/dialogues through the configured
 * document engine (the same settings as the server) and scores each note:
 *  - facts kept: reference facts (any of their spellings) found in the note;
 *  - facts invented: numbers and drug-like words in the note found nowhere in the transcript or the inputs.
 * The offline composer keeps facts by quoting and invents nothing; a real provider can be compared against it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createTextGenerator } from '../server/src/ai/engines.js';
import type { DocumentRequest } from '../server/src/ai/text-generator.js';
import { loadConfig } from '../server/src/config.js';
import type { Language } from '../contract/constants.js';

type Dialogue = { language: Language; document: string; transcript: string; data: Record<string, string>; facts: string[][] };

const DIR = 'tests/fixtures/dialogues';
const generator = await createTextGenerator(loadConfig({ ...process.env, DATA_DIR: process.env.DATA_DIR ?? '.tmp/eval' }));
const norm = (s: string) => s.toLowerCase().normalize('NFC');

/** Numbers (with decimals or slashes) and long words ending like drug names, as they appear in a note. */
function checkableTokens(text: string): string[] {
  const numbers = text.match(/\b\d+(?:[.,/]\d+)*\b/g) ?? [];
  const drugs = text.match(/\b[a-záéíóúâêôãõç]{5,}(?:pril|olol|statin|formin|cillin|profen|azole|sartan|mab|pine|tide)\b/gi) ?? [];
  return [...new Set([...numbers, ...drugs].map(norm))];
}

console.log(`\nNotes evaluation with ${generator.info.engine}${generator.info.model ? ` (${generator.info.model})` : ''}`);
console.log('  dialogue                     facts kept   invented');
let kept = 0;
let total = 0;
let invented = 0;
for (const file of readdirSync(DIR).filter((f) => f.endsWith('.json')).sort()) {
  const d = JSON.parse(readFileSync(path.join(DIR, file), 'utf8')) as Dialogue;
  const request: DocumentRequest = { documentKind: d.document, language: d.language, transcript: d.transcript, data: d.data, clinician: { name: 'Dr. Eval' }, date: new Date('2026-01-15T10:00:00Z') };
  let note = '';
  for await (const delta of generator.write(request)) note += delta;
  const haystack = norm(note);
  const found = d.facts.filter((spellings) => spellings.some((s) => haystack.includes(norm(s)))).length;
  const source = norm(`${d.transcript} ${Object.values(d.data).join(' ')} 2026-01-15 15 january 2026 15 de janeiro de 2026`);
  const madeUp = checkableTokens(note).filter((token) => !source.includes(token));
  kept += found;
  total += d.facts.length;
  invented += madeUp.length;
  console.log(`  ${file.replace('.json', '').padEnd(28)} ${`${found}/${d.facts.length}`.padStart(10)}   ${String(madeUp.length).padStart(8)}${madeUp.length ? `  (${madeUp.join(', ')})` : ''}`);
}
console.log(`  ${'all'.padEnd(28)} ${`${((kept / total) * 100).toFixed(0)}%`.padStart(10)}   ${String(invented).padStart(8)}`);
