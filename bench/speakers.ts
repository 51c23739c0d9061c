/**
 * Speakers told apart in a teleconsultation: a two-voice dialogue made by espeak-ng, recorded as the browser
 * records it (clinician left, call right, WebM/Opus parts), transcribed by the local engine one channel at a time
 * and assembled as the server assembles a transcript. Prints the share of the transcript's words with the right
 * speaker label (goal ≥ 98 %), with no bleed and with the patient's voice leaking into the microphone, the word
 * error rate beside it, and the time per part against transcribing the same part as one voice.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CLINICAL_MODEL } from '../server/src/ai/engines.js';
import { createLocalTranscriber, localEngineAvailable } from '../server/src/ai/local-transcriber.js';
import { transcribePart } from '../server/src/ai/speaker-turns.js';
import { speakerAttribution, wordErrors } from '../server/src/ai/word-error-rate.js';
import type { ChunkRow } from '../server/src/modules/consultation_sessions/repository.js';
import { assembleTranscription } from '../server/src/modules/consultation_sessions/transcription.js';
import { TELECONSULTATION, twoVoiceParts } from '../server/src/test-support/two-voices.js';

if (!localEngineAvailable()) {
  console.log('\nSpeakers: the local speech engine is not installed here; nothing measured.');
  process.exit(0);
}
const dir = mkdtempSync(path.join(tmpdir(), 'cn-speakers-'));
const engine = createLocalTranscriber(CLINICAL_MODEL);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

console.log('\nSpeakers told apart (teleconsultation, two channels, local engine with the clinical model)');
for (const bleed of [0, 0.1, 0.25]) {
  const parts = twoVoiceParts(dir, TELECONSULTATION, { bleed });
  const shares: number[] = [];
  let wer = 0;
  let monoWer = 0;
  let splitMs = 0;
  let monoMs = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const chunks: ChunkRow[] = [];
    const monoText: string[] = [];
    for (const [order, part] of parts.entries()) {
      const t0 = performance.now();
      const heard = await transcribePart(engine, { filePath: part.file, workDir: dir, mimeType: 'audio/webm', language: 'en', layout: 'clinician_patient' });
      splitMs += performance.now() - t0;
      const t1 = performance.now();
      const mixed = await transcribePart(engine, { filePath: part.file, workDir: dir, mimeType: 'audio/webm', language: 'en', layout: 'mono' });
      monoMs += performance.now() - t1;
      monoText.push(mixed.text);
      chunks.push({ order, transcript: heard.text, speakerTurns: heard.turns, transcriptionStatus: 'done' } as ChunkRow);
    }
    const transcript = assembleTranscription(chunks).text;
    const { matched, rightSpeaker } = speakerAttribution(TELECONSULTATION, transcript);
    shares.push(rightSpeaker / matched);
    const e = wordErrors(TELECONSULTATION.map((l) => l.text).join(' '), transcript.replace(/^[^:\n]+: /gm, ''));
    wer += e.errors / e.words / ROUNDS;
    const m = wordErrors(TELECONSULTATION.map((l) => l.text).join(' '), monoText.join(' '));
    monoWer += m.errors / m.words / ROUNDS;
    if (process.env.BENCH_SHOW) console.log(transcript);
  }
  const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
  const leak = bleed === 0 ? 'no bleed          ' : `bleed ${(20 * Math.log10(bleed)).toFixed(0)} dB      `;
  console.log(
    `  ${leak} right label ${shares.map(pct).join(' / ')} of recognised words   WER ${wer.toFixed(2)} (${monoWer.toFixed(2)} as one voice)   ${parts.length} parts: ${(splitMs / ROUNDS / parts.length).toFixed(0)} ms per part two channels vs ${(monoMs / ROUNDS / parts.length).toFixed(0)} ms one voice`,
  );
}
rmSync(dir, { recursive: true, force: true });
