/**
 * The local speech engine on speech made by espeak-ng (the project's clinical sentences) and on Debian's real
 * LibriVox clips: real-time factor (processing time / audio length) and word error rate, with a pocketsphinx
 * started for each part and with the long-lived processes that keep the models loaded.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { measureDurationMs } from '../server/src/ai/audio-duration.js';
import { CLINICAL_MODEL } from '../server/src/ai/engines.js';
import { createLocalTranscriber, localEngineAvailable } from '../server/src/ai/local-transcriber.js';
import { decoderProcessAvailable } from '../server/src/ai/speech-process.js';
import { wordErrors } from '../server/src/ai/word-error-rate.js';
import { speechWebm } from '../server/src/test-support/audio-fixtures.js';

if (!localEngineAvailable()) {
  console.log('\nLocal speech engine: not installed here (ffmpeg, pocketsphinx); nothing measured.');
  process.exit(0);
}
const dir = mkdtempSync(path.join(tmpdir(), 'cn-speech-'));
/** The long-lived processes against a pocketsphinx started per part, in the same run, when both are installed. */
const modes = decoderProcessAvailable() ? (['per-part', 'long-lived'] as const) : (['per-part'] as const);
const engines = (model: { languageModel?: string; dictionary?: string }) =>
  modes.map((processes) => ({ processes, engine: createLocalTranscriber({ ...model, processes }) }));
const generic = engines({});
const clinical = engines(CLINICAL_MODEL);
const clinicalBuilt = existsSync(CLINICAL_MODEL.languageModel);
const sentences = readFileSync('tests/fixtures/speech/clinical-sentences.txt', 'utf8')
  .trim()
  .split('\n')
  .filter((l) => l && !l.startsWith('#'));
const LIBRIVOX = '/usr/share/pocketsphinx/test/data/librivox';

async function measure(label: string, variants: typeof generic, items: { file: string; reference: string }[]) {
  for (const { processes, engine } of variants) await measureOne(`${label}, ${processes}`, engine, items);
}

async function measureOne(label: string, engine: ReturnType<typeof createLocalTranscriber>, items: { file: string; reference: string }[]) {
  let errors = 0;
  let words = 0;
  let audioMs = 0;
  let workMs = 0;
  for (const item of items) {
    audioMs += await measureDurationMs(item.file);
    const t0 = performance.now();
    const text = await engine.transcribe({ filePath: item.file, workDir: dir, mimeType: 'audio/webm', language: 'en' });
    workMs += performance.now() - t0;
    const e = wordErrors(item.reference, text);
    errors += e.errors;
    words += e.words;
  }
  console.log(
    `  ${label.padEnd(46)} ${(audioMs / 1000).toFixed(1).padStart(6)} s audio   RTF ${(workMs / audioMs).toFixed(2)}   WER ${(errors / words).toFixed(2)}`,
  );
}

console.log('\nLocal speech engine (pocketsphinx, US-English acoustic model)');
const spoken = sentences.map((s, i) => ({ file: speechWebm(dir, `s${i}`, s), reference: s }));
await measure(`espeak-ng clinical, generic LM`, generic, spoken);
if (clinicalBuilt) await measure(`espeak-ng clinical, clinical LM`, clinical, spoken);
else console.log('  clinical LM: not built (node scripts/build-clinical-model.mjs)');
try {
  const clips = readFileSync(`${LIBRIVOX}/transcription`, 'utf8')
    .trim()
    .split('\n')
    .map((line) => line.match(/^<s> (.*) <\/s> \((.*)\)$/)!)
    .map((m) => {
      const webm = path.join(dir, `${m[2]}.webm`);
      execFileSync('ffmpeg', ['-nostdin', '-loglevel', 'error', '-y', '-i', `${LIBRIVOX}/${m[2]}.wav`, '-c:a', 'libopus', '-b:a', '32k', webm]);
      return { file: webm, reference: m[1]! };
    });
  await measure('LibriVox clips, generic LM', generic, clips);
} catch {
  console.log('  LibriVox clips: pocketsphinx-testdata not installed');
}
rmSync(dir, { recursive: true, force: true });
