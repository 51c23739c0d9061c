/**
 * The local speech engine on spoken dialogues nobody on the team wrote: the openings of ACI-Bench and MTS-Dialog
 * development dialogues (scripts/eval/datasets.ts; never a test file), spoken by espeak-ng with one voice for the
 * clinician and another for the patient, cut into browser-like parts of 5–10 s at pauses and sent as webm/opus
 * 32 kb/s, then decoded part by part with each language model variant. Prints per variant: words wrong (overall,
 * clinician, patient), medicine names recalled and invented (raw and after confidence gating), numbers recalled,
 * real-time factor, and how well the decoder's word confidences are calibrated.
 *
 *   EVAL_DATA_DIR=…/eval-data npx tsx bench/speech-dialogues.ts
 *
 * Environment: SPEECH_BENCH_ACI (6 dialogues), SPEECH_BENCH_MTS (16), SPEECH_BENCH_MEDICINE_TALK (8 stretches
 * where a medicine is named, half ACI-Bench, half MTS-Dialog: openings seldom name one), SPEECH_BENCH_DIALOGUES (at most n in all,
 * for a quick run), SPEECH_BENCH_CACHE (synthesised audio and decodings, default ../.cache/speech-bench),
 * SPEECH_BENCH_VARIANTS ('name=model.lm.bin:model.dict;…' more models to measure), SPEECH_BENCH_ONLY ('generic,clinical').
 *
 * Speaker attribution: each part is decoded and aligned with the reference words whose estimated time falls in it
 * (a turn's words spread evenly over its letters); an inserted word is charged to the reference word before it.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CLINICAL_MODEL } from '../server/src/ai/engines.js';
import { createLocalTranscriber, localEngineAvailable } from '../server/src/ai/local-transcriber.js';
import { normalizeWords, wordErrors } from '../server/src/ai/word-error-rate.js';
import { composeDocument, suggestedInputs } from '../server/src/ai/offline-composer.js';
import { markedText } from '../server/src/ai/word-confidence.js';
import { wavFile } from '../server/src/ai/speaker-turns.js';
import { UNCERTAIN_SPAN } from '../contract/uncertain-words.js';
import { everyKth, HOW_TO_GET_DATA, loadSet, type EvalDialogue, type Turn } from '../scripts/eval/datasets.js';
import {
  alignWords,
  calibration,
  cutParts,
  gate,
  isNumberWord,
  medicineMentions,
  multisetRecall,
  opening,
  silences,
  speakable,
  timedReference,
  type RefWord,
  type Speaker,
} from '../scripts/eval/spoken-dialogues.js';

const num = (name: string, fallback: number) => (process.env[name] ? Number(process.env[name]) : fallback);
const DATA = process.env.EVAL_DATA_DIR;
const CACHE = path.resolve(process.env.SPEECH_BENCH_CACHE ?? '../.cache/speech-bench');
/** Spoken words taken from each dialogue's opening: ≈ 55 s of an ACI-Bench dialogue, ≈ 22 s of an MTS-Dialog one. */
const ACI_WORDS = 130;
const MTS_WORDS = 50;
/** Spoken words of each stretch of medicine talk (≈ 30 s). */
const MEDICINE_WORDS_SPOKEN = 70;
const VOICES: Record<Speaker, string[]> = { clinician: ['-v', 'en-us', '-s', '140'], patient: ['-v', 'en-us+f3', '-s', '150'] };
const SAMPLE_RATE = 22_050; // espeak-ng's
const LEAD_MS = 300;
const GAP_MS = 700;
const MEDICINE_THRESHOLDS = [0.5, 0.7, 0.9, 0.95];
const WORD_THRESHOLDS = [0.3, 0.4, 0.5, 0.7];

if (!localEngineAvailable()) {
  console.log('\nLocal speech engine: not installed here (ffmpeg, pocketsphinx); nothing measured.');
  process.exit(0);
}
if (!DATA) {
  console.log(`\nEVAL_DATA_DIR is not set.\n${HOW_TO_GET_DATA}`);
  process.exit(0);
}

type Group = 'ACI-Bench' | 'MTS-Dialog' | 'medicine talk' | 'own sentences';
const GROUPS: Group[] = ['ACI-Bench', 'MTS-Dialog', 'medicine talk', 'own sentences'];
type Sample = { group: Group; id: string; turns: Turn[] };

function sample(): Sample[] {
  const load = (set: Parameters<typeof loadSet>[1]) => {
    const { dialogues, missing } = loadSet(DATA!, set);
    if (missing.length) console.log(`  missing: ${missing.join(', ')}`);
    return dialogues;
  };
  const pick = (ds: EvalDialogue[], n: number, words: number, group: Group) =>
    everyKth(
      ds.filter((d) => normalizeWords(d.turns.map((t) => speakable(t.text)).join(' ')).length >= 30),
      n,
    ).map((d) => ({ group, id: d.id, turns: opening(d.turns, words) }));
  const nAci = num('SPEECH_BENCH_ACI', 6);
  const nMts = num('SPEECH_BENCH_MTS', 16);
  const aciValid = Math.round((nAci * 3) / 8);
  const aci = [...load('aci-train'), ...load('aci-valid')];
  const mts = [...load('mts-valid'), ...load('mts-train')];
  const out = [
    ...pick(
      aci.filter((d) => d.set === 'aci-train'),
      nAci - aciValid,
      ACI_WORDS,
      'ACI-Bench',
    ),
    ...pick(
      aci.filter((d) => d.set === 'aci-valid'),
      aciValid,
      ACI_WORDS,
      'ACI-Bench',
    ),
    ...pick(
      mts.filter((d) => d.set === 'mts-valid'),
      Math.ceil(nMts / 2),
      MTS_WORDS,
      'MTS-Dialog',
    ),
    ...pick(
      mts.filter((d) => d.set === 'mts-train'),
      Math.floor(nMts / 2),
      MTS_WORDS,
      'MTS-Dialog',
    ),
  ];
  // Openings seldom name a medicine: a stretch where one is named, from other dialogues, measures recall.
  const used = new Set(out.map((s) => s.id));
  const talk = (ds: EvalDialogue[], n: number, words: number) =>
    everyKth(
      ds
        .filter((d) => !used.has(d.id))
        .flatMap((d) => {
          const turns = medicineWindow(d.turns, words);
          return turns ? [{ group: 'medicine talk' as const, id: `${d.id}-medicines`, turns }] : [];
        }),
      n,
    );
  const nTalk = num('SPEECH_BENCH_MEDICINE_TALK', 8);
  out.push(...talk(aci, Math.ceil(nTalk / 2), MEDICINE_WORDS_SPOKEN), ...talk(mts, Math.floor(nTalk / 2), MEDICINE_WORDS_SPOKEN));
  const own = readFileSync('tests/fixtures/speech/clinical-sentences.txt', 'utf8')
    .split('\n')
    .filter((l) => l.trim() && !l.startsWith('#'));
  out.push({ group: 'own sentences', id: 'clinical-sentences', turns: own.map((text) => ({ speaker: 'clinician' as const, text: speakable(text) })) });
  const limit = num('SPEECH_BENCH_DIALOGUES', 0);
  return limit > 0 ? out.slice(0, limit) : out;
}

/** From the turn before the first that names a medicine (when that one is short), as many words as fit; undefined when none is named. */
function medicineWindow(turns: Turn[], words: number): Turn[] | undefined {
  const names = (text: string) => medicineMentions(normalizeWords(speakable(text)).map((w) => ({ text: w }))).length;
  const k = turns.findIndex((t) => names(t.text) > 0);
  if (k < 0) return undefined;
  const from = k > 0 && normalizeWords(speakable(turns[k - 1]!.text)).length <= 20 ? k - 1 : k;
  const window = opening(turns.slice(from), words);
  return window.some((t) => names(t.text) > 0) ? window : undefined;
}

// ---- speech ---------------------------------------------------------------------------------------------------

type Spoken = {
  dir: string;
  audioMs: number;
  parts: { file: string; startMs: number; endMs: number }[];
  turns: { speaker: Speaker; text: string; startMs: number; endMs: number }[];
};

/** 16-bit mono PCM of a WAV file (espeak-ng's), from its data chunk. */
function wavSamples(file: string): Int16Array {
  const buf = readFileSync(file);
  let at = 12;
  while (at + 8 <= buf.length) {
    const id = buf.toString('ascii', at, at + 4);
    const size = buf.readUInt32LE(at + 4);
    if (id === 'data') {
      const end = Math.min(buf.length, at + 8 + (size === 0xffffffff || size === 0 ? buf.length : size));
      const bytes = buf.subarray(at + 8, end - ((end - at - 8) % 2));
      return new Int16Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length));
    }
    at += 8 + size + (size % 2);
  }
  throw new Error(`no audio in ${file}`);
}

const writeWav = (file: string, samples: Int16Array) => writeFileSync(file, wavFile(samples, SAMPLE_RATE));

const msToSamples = (ms: number) => Math.round((ms * SAMPLE_RATE) / 1000);

/** The dialogue spoken turn after turn and cut into webm/opus parts, cached by its text and voices. */
function speak(s: Sample): Spoken {
  const key = createHash('sha256')
    .update(JSON.stringify([s.id, s.turns, VOICES, LEAD_MS, GAP_MS, 'v1']))
    .digest('hex')
    .slice(0, 16);
  const dir = path.join(CACHE, 'audio', `${s.id.replace(/[^\w.-]+/g, '_')}-${key}`);
  const manifest = path.join(dir, 'manifest.json');
  if (existsSync(manifest)) return JSON.parse(readFileSync(manifest, 'utf8')) as Spoken;
  mkdirSync(dir, { recursive: true });
  const chunks: Int16Array[] = [new Int16Array(msToSamples(LEAD_MS))];
  let at = msToSamples(LEAD_MS);
  const turns: Spoken['turns'] = [];
  s.turns.forEach((turn, i) => {
    const wav = path.join(dir, `turn-${i}.wav`);
    execFileSync('espeak-ng', [...VOICES[turn.speaker], '-w', wav, turn.text]);
    const pcm = wavSamples(wav);
    // espeak-ng's own leading and trailing quiet is not speech.
    const quiet = silences(pcm, SAMPLE_RATE, 10);
    const lead = quiet[0]?.startMs === 0 ? quiet[0].endMs : 0;
    const last = quiet.at(-1);
    const tail = last && last.endMs === Math.floor(pcm.length / Math.round(SAMPLE_RATE / 100)) * 10 ? last.startMs : (pcm.length * 1000) / SAMPLE_RATE;
    turns.push({ speaker: turn.speaker, text: turn.text, startMs: (at * 1000) / SAMPLE_RATE + lead, endMs: (at * 1000) / SAMPLE_RATE + tail });
    chunks.push(pcm, new Int16Array(msToSamples(GAP_MS)));
    at += pcm.length + msToSamples(GAP_MS);
  });
  const all = new Int16Array(at);
  let o = 0;
  for (const c of chunks) {
    all.set(c, o);
    o += c.length;
  }
  const audioMs = (all.length * 1000) / SAMPLE_RATE;
  const parts = cutParts(audioMs, silences(all, SAMPLE_RATE)).map((p, i) => {
    const wav = path.join(dir, `part-${i}.wav`);
    const file = path.join(dir, `part-${i}.webm`);
    writeWav(wav, all.subarray(msToSamples(p.startMs), msToSamples(p.endMs)));
    execFileSync('ffmpeg', ['-nostdin', '-loglevel', 'error', '-y', '-i', wav, '-c:a', 'libopus', '-b:a', '32k', file]);
    return { file, ...p };
  });
  const spoken: Spoken = { dir, audioMs, parts, turns };
  writeFileSync(manifest, JSON.stringify(spoken));
  return spoken;
}

// ---- decoding -------------------------------------------------------------------------------------------------

type Variant = { name: string; languageModel?: string; dictionary?: string };
type Heard = { text: string; confidence: number };
type Decoded = { words: Heard[]; ms: number };

function variants(): Variant[] {
  const out: Variant[] = [{ name: 'generic' }];
  if (existsSync(CLINICAL_MODEL.languageModel)) out.push({ name: 'clinical', ...CLINICAL_MODEL });
  else console.log('  clinical model not built (node scripts/build-clinical-model.mjs): left out');
  for (const spec of (process.env.SPEECH_BENCH_VARIANTS ?? '').split(';').filter(Boolean)) {
    const [name, files] = spec.split('=');
    const [languageModel, dictionary] = (files ?? '').split(':');
    if (!name || !languageModel || !dictionary) throw new Error(`SPEECH_BENCH_VARIANTS: '${spec}' is not name=model.lm.bin:model.dict`);
    out.push({ name, languageModel: path.resolve(languageModel), dictionary: path.resolve(dictionary) });
  }
  const only = process.env.SPEECH_BENCH_ONLY?.split(',');
  return only ? out.filter((v) => only.includes(v.name)) : out;
}

/** A decoding is cached by the part and the model files (their size and time), so that scoring can change without decoding again. */
function decodingKey(v: Variant, file: string): string {
  const stamp = (f?: string) => (f ? `${f}:${statSync(f).size}:${statSync(f).mtimeMs}` : '-');
  return createHash('sha256')
    .update([stamp(v.languageModel), stamp(v.dictionary), file, statSync(file).size].join('|'))
    .digest('hex')
    .slice(0, 24);
}

async function decodeAll(v: Variant, spoken: Spoken[]): Promise<Decoded[][]> {
  const engine = createLocalTranscriber({ languageModel: v.languageModel, dictionary: v.dictionary, processes: 'long-lived' });
  const dir = path.join(CACHE, 'decoded');
  mkdirSync(dir, { recursive: true });
  const out: Decoded[][] = [];
  for (const s of spoken) {
    const parts: Decoded[] = [];
    for (const part of s.parts) {
      const cached = path.join(dir, `${decodingKey(v, part.file)}.json`);
      if (existsSync(cached)) {
        parts.push(JSON.parse(readFileSync(cached, 'utf8')) as Decoded);
        continue;
      }
      const t0 = performance.now();
      const segs = await engine.transcribeTimed!({ filePath: part.file, workDir: s.dir, mimeType: 'audio/webm', language: 'en' });
      const decoded: Decoded = {
        words: segs.flatMap((w) => normalizeWords(w.text).map((text) => ({ text, confidence: w.confidence ?? 1 }))),
        ms: performance.now() - t0,
      };
      writeFileSync(cached, JSON.stringify(decoded));
      parts.push(decoded);
    }
    out.push(parts);
    process.stderr.write('.');
  }
  process.stderr.write('\n');
  return out;
}

// ---- scoring --------------------------------------------------------------------------------------------------

type Tally = {
  errors: number;
  words: number;
  bySpeaker: Record<Speaker, { errors: number; words: number }>;
  medsRef: number;
  medsFound: number;
  /** Recalled and kept at each medicine threshold (the surest hearing of the name at or above it). */
  medsFoundAt: number[];
  invented: { name: string; confidence: number; id: string }[];
  /**
   * The product's own notes from the transcript as the engine writes it (uncertain words marked): medicine names
   * of the notes' Medication section and suggested medication that the dialogue never named, the dialogue's
   * medicines they list, and marks of uncertain words found in those structured lines (must be 0).
   */
  notes: { invented: string[]; listed: number; uncertainInStructured: number };
  /** The reference's medicine names heard, each at the surest confidence it was heard with. */
  recalled: { name: string; confidence: number; id: string }[];
  numbers: { found: number; total: number };
  audioMs: number;
  workMs: number;
  heard: { confidence: number; correct: boolean }[];
  /** Word errors of each dialogue, in sample order. */
  dialogueErrors: number[];
};

const emptyTally = (): Tally => ({
  errors: 0,
  words: 0,
  bySpeaker: { clinician: { errors: 0, words: 0 }, patient: { errors: 0, words: 0 } },
  medsRef: 0,
  medsFound: 0,
  medsFoundAt: MEDICINE_THRESHOLDS.map(() => 0),
  invented: [],
  notes: { invented: [], listed: 0, uncertainInStructured: 0 },
  recalled: [],
  numbers: { found: 0, total: 0 },
  audioMs: 0,
  workMs: 0,
  heard: [],
  dialogueErrors: [],
});

function score(t: Tally, s: Sample, spoken: Spoken, decoded: Decoded[]) {
  const ref = timedReference(spoken.turns);
  const inPart = (w: RefWord, k: number) => w.atMs >= spoken.parts[k]!.startMs && (w.atMs < spoken.parts[k]!.endMs || k === spoken.parts.length - 1);
  const heardAll: Heard[] = [];
  const before = t.errors;
  spoken.parts.forEach((_, k) => {
    const refWords = ref.filter((w) => inPart(w, k));
    const hyp = decoded[k]!.words;
    heardAll.push(...hyp);
    const e = wordErrors(refWords.map((w) => w.word).join(' '), hyp.map((w) => w.text).join(' '));
    t.errors += e.errors;
    t.words += e.words;
    const a = alignWords(
      refWords.map((w) => w.word),
      hyp.map((w) => w.text),
    );
    refWords.forEach((w, i) => {
      t.bySpeaker[w.speaker].words++;
      t.bySpeaker[w.speaker].errors += a.refErrors[i]!;
    });
    hyp.forEach((w, i) => t.heard.push({ confidence: w.confidence, correct: a.hypCorrect[i]! }));
    t.workMs += decoded[k]!.ms;
  });
  t.audioMs += spoken.audioMs;
  t.dialogueErrors.push(t.errors - before);
  const refMeds = new Set(medicineMentions(ref.map((w) => ({ text: w.word }))).map((m) => m.name));
  const heardMeds = medicineMentions(heardAll);
  t.medsRef += refMeds.size;
  t.medsFound += [...refMeds].filter((m) => heardMeds.some((h) => h.name === m)).length;
  for (const m of refMeds) {
    const best = Math.max(-1, ...heardMeds.filter((h) => h.name === m).map((h) => h.confidence));
    if (best >= 0) t.recalled.push({ name: m, confidence: best, id: s.id });
  }
  MEDICINE_THRESHOLDS.forEach((th, k) => (t.medsFoundAt[k]! += [...refMeds].filter((m) => heardMeds.some((h) => h.name === m && h.confidence >= th)).length));
  t.invented.push(...heardMeds.filter((h) => !refMeds.has(h.name)).map((h) => ({ ...h, id: s.id })));
  notesFrom(t, s, decoded, refMeds);
  const n = multisetRecall(ref.map((w) => w.word).filter(isNumberWord), heardAll.map((w) => w.text).filter(isNumberWord));
  t.numbers.found += n.found;
  t.numbers.total += n.total;
}

/** The notes the offline composer writes from the engine's transcript, each part a line as the engine gives it. */
function notesFrom(t: Tally, s: Sample, decoded: Decoded[], refMeds: Set<string>) {
  const transcript = decoded
    .map((d) => markedText(d.words.map((w) => ({ startMs: 0, endMs: 0, text: w.text, confidence: w.confidence }))))
    .filter(Boolean)
    .join('\n');
  const summary = composeDocument({ documentKind: 'clinical_summary', language: 'en', transcript, data: {}, clinician: { name: 'Bench' }, date: new Date(0) });
  const lines = summary.split('\n');
  const medication = lines[lines.indexOf('## Medication') + 1] ?? '';
  const suggested = suggestedInputs(transcript, 'en').map((i) => i.value);
  // The structured lines: the medication, the measurements ('- Blood pressure: 120/80 mmHg'), the allergies, the follow-up, and every suggested value.
  const structured = [
    medication,
    ...lines.filter((l) => /^- [^:]{2,30}: /.test(l) || l.startsWith('**Allergies')),
    lines[lines.indexOf('## Next consultation') + 1] ?? '',
    ...suggested,
  ];
  t.notes.uncertainInStructured += structured.reduce((n, l) => n + (l.match(UNCERTAIN_SPAN)?.length ?? 0), 0);
  const listed = medicineMentions(normalizeWords(`${medication} ${suggested.join(' ')}`).map((text) => ({ text })));
  const names = new Set(listed.map((m) => m.name));
  t.notes.listed += [...names].filter((n) => refMeds.has(n)).length;
  t.notes.invented.push(...[...names].filter((n) => !refMeds.has(n)).map((n) => `${n} (${s.id})`));
}

const pct = (a: number, b: number) => (b ? `${((100 * a) / b).toFixed(1)} %` : '–');

async function main() {
  console.log(
    '\nLocal speech engine on spoken development dialogues (espeak-ng clinician en-us 140 wpm, patient en-us+f3 150 wpm; parts 5–10 s webm/opus 32k)',
  );
  const samples = sample();
  const t0 = performance.now();
  const spoken = samples.map(speak);
  const audio = (g?: Group) => spoken.filter((_, i) => !g || samples[i]!.group === g).reduce((n, s) => n + s.audioMs, 0) / 1000;
  console.log(
    `  ${samples.length} dialogues: ${GROUPS.map((g) => `${g} ${samples.filter((s) => s.group === g).length} (${audio(g).toFixed(0)} s)`).join(', ')}; ` +
      `${spoken.reduce((n, s) => n + s.parts.length, 0)} parts, ${audio().toFixed(0)} s of audio (spoken in ${((performance.now() - t0) / 1000).toFixed(0)} s); ` +
      (['clinician', 'patient'] as Speaker[])
        .map((who) => `${who} ${timedReference(spoken.flatMap((s) => s.turns.filter((t) => t.speaker === who))).length}`)
        .join(', ') +
      ' reference words',
  );
  const groups: (Group | 'all')[] = [...GROUPS, 'all'];
  const results: { variant: string; group: Group | 'all'; t: Tally }[] = [];
  for (const v of variants()) {
    process.stderr.write(`  decoding with ${v.name} `);
    const decoded = await decodeAll(v, spoken);
    for (const g of groups) {
      const t = emptyTally();
      samples.forEach((s, i) => {
        if (g === 'all' || s.group === g) score(t, s, spoken[i]!, decoded[i]!);
      });
      results.push({ variant: v.name, group: g, t });
    }
  }

  console.log(
    '\n| variant | dialogues | WER | clinician | patient | medicines recalled (raw / ≥' +
      MEDICINE_THRESHOLDS.join(' / ≥') +
      ') | invented (raw / ≥' +
      MEDICINE_THRESHOLDS.join(' / ≥') +
      ') | numbers recalled | RTF |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const { variant, group, t } of results) {
    const inv = [t.invented.length, ...MEDICINE_THRESHOLDS.map((th) => t.invented.filter((m) => m.confidence >= th).length)].join(' / ');
    console.log(
      `| ${variant} | ${group} | ${pct(t.errors, t.words)} | ${pct(t.bySpeaker.clinician.errors, t.bySpeaker.clinician.words)} | ${pct(t.bySpeaker.patient.errors, t.bySpeaker.patient.words)} | ` +
        `${[t.medsFound, ...t.medsFoundAt].join(' / ')} of ${t.medsRef} | ${inv} | ${t.numbers.found}/${t.numbers.total} (${pct(t.numbers.found, t.numbers.total)}) | ${(t.workMs / t.audioMs).toFixed(2)} |`,
    );
  }

  console.log("\nMedicine names heard that the dialogue never said (all dialogues), with the decoder's confidence:");
  for (const { variant, t } of results.filter((r) => r.group === 'all')) {
    const list = t.invented.map((m) => `${m.name} ${m.confidence.toFixed(2)}`).join(', ');
    console.log(`  ${variant}: ${list || 'none'}`);
  }

  console.log('\nMedicine names said and heard (all dialogues), with the surest confidence each was heard with:');
  for (const { variant, t } of results.filter((r) => r.group === 'all')) {
    console.log(`  ${variant}: ${t.recalled.map((m) => `${m.name} ${m.confidence.toFixed(2)}`).join(', ') || 'none'}`);
  }

  console.log('\nWords wrong per dialogue against the first variant (better / worse / same):');
  const first = results.find((r) => r.group === 'all')!.variant;
  const perDialogue = new Map<string, number[]>();
  for (const { variant, t } of results.filter((r) => r.group === 'all')) perDialogue.set(variant, t.dialogueErrors);
  for (const [variant, errors] of perDialogue) {
    if (variant === first) continue;
    const base = perDialogue.get(first)!;
    const better = errors.filter((e, i) => e < base[i]!).length;
    const worse = errors.filter((e, i) => e > base[i]!).length;
    console.log(`  ${variant} against ${first}: ${better} / ${worse} / ${errors.length - better - worse}`);
  }

  console.log(
    '\nThe notes written from these transcripts (offline composer, clinical summary and suggested values; uncertain words marked at 0.4, medicine names at 0.9)',
  );
  console.log('| variant | dialogue medicines listed | medicines invented in the notes | uncertain words in structured lines |');
  console.log('|---|---|---|---|');
  for (const { variant, t } of results.filter((r) => r.group === 'all')) {
    console.log(
      `| ${variant} | ${t.notes.listed} of ${t.medsRef} | ${t.notes.invented.length}${t.notes.invented.length ? ` (${t.notes.invented.join(', ')})` : ''} | ${t.notes.uncertainInStructured} |`,
    );
  }

  console.log('\nConfidence calibration (all dialogues): share of heard words that are right, by confidence');
  console.log(
    '| variant | ' +
      calibration([])
        .map((b) => `${b.lo.toFixed(1)}–${b.hi.toFixed(1)}`)
        .join(' | ') +
      ' | ' +
      WORD_THRESHOLDS.map((th) => `< ${th}: uncertain / kept right`).join(' | ') +
      ' |',
  );
  console.log('|---|' + '---|'.repeat(5 + WORD_THRESHOLDS.length));
  for (const { variant, t } of results.filter((r) => r.group === 'all')) {
    const buckets = calibration(t.heard).map((b) => `${pct(b.correct, b.words)} (${b.words})`);
    const gates = WORD_THRESHOLDS.map((th) => {
      const g = gate(t.heard, th);
      return `${(100 * g.uncertain).toFixed(0)} % / ${(100 * g.keptPrecision).toFixed(1)} %`;
    });
    const all = gate(t.heard, 0);
    console.log(`| ${variant} (all kept: ${(100 * all.keptPrecision).toFixed(1)} % right) | ${buckets.join(' | ')} | ${gates.join(' | ')} |`);
  }
}

await main();
