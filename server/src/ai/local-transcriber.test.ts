import { withoutUncertainMarks } from '../../../contract/uncertain-words.js';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createLocalTranscriber, localEngineAvailable } from './local-transcriber.js';
import { wordErrorRate, wordErrors } from './word-error-rate.js';
import { CLINICAL_MODEL } from './engines.js';
import { speechWebm } from '../test-support/audio-fixtures.js';
import { measureDurationMs } from './audio-duration.js';

const DATA = '/usr/share/pocketsphinx/test/data';
const haveEngine = localEngineAvailable();
const haveTestData = existsSync(`${DATA}/goforward.raw`) && existsSync(`${DATA}/librivox/transcription`);
const dir = mkdtempSync(path.join(tmpdir(), 'cn-sphinx-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('word error rate', () => {
  it('counts substitutions, insertions and deletions', () => {
    expect(wordErrorRate('go forward ten meters', 'go forward ten meters')).toBe(0);
    expect(wordErrors('go forward ten meters', 'go for ward ten')).toEqual({ errors: 3, words: 4 });
    expect(wordErrorRate('a b c d', 'a x c d e')).toBe(0.5);
  });
});

// npm test installs ffmpeg, pocketsphinx and pocketsphinx-testdata; without them (a bare dev machine) these cannot run.
describe.skipIf(!haveEngine || !haveTestData)('local speech engine on real human speech (pocketsphinx-testdata)', () => {
  const engine = createLocalTranscriber();
  const transcribe = (filePath: string) => engine.transcribe({ filePath, workDir: path.dirname(filePath), mimeType: 'audio/wav', language: 'en' });

  it('goforward.raw gives exactly "go forward ten meters"', async () => {
    const wav = path.join(dir, 'goforward.wav');
    execFileSync('ffmpeg', ['-nostdin', '-loglevel', 'error', '-y', '-f', 's16le', '-ar', '16000', '-ac', '1', '-i', `${DATA}/goforward.raw`, wav]);
    // The words, whichever the decoder was unsure of (their marks are the confidence's, tested apart).
    expect(withoutUncertainMarks(await transcribe(wav))).toBe('go forward ten meters');
  });

  const clips = readFileSync(`${DATA}/librivox/transcription`, 'utf8')
    .trim()
    .split('\n')
    .map((line) => {
      const m = line.match(/^<s> (.*) <\/s> \((.*)\)$/)!;
      return { reference: m[1]!, file: `${DATA}/librivox/${m[2]}.wav` };
    });

  async function corpusWer(toInput: (file: string, i: number) => string) {
    let errors = 0;
    let words = 0;
    for (const [i, clip] of clips.entries()) {
      const e = wordErrors(clip.reference, await transcribe(toInput(clip.file, i)));
      errors += e.errors;
      words += e.words;
    }
    return errors / words;
  }

  it('keeps the LibriVox clips at or under 0.45 word error rate', async () => {
    expect(await corpusWer((f) => f)).toBeLessThanOrEqual(0.45);
  }, 60_000);

  it('keeps them there after a webm/opus round trip, as the browser sends them', async () => {
    const wer = await corpusWer((file, i) => {
      const webm = path.join(dir, `clip-${i}.webm`);
      execFileSync('ffmpeg', ['-nostdin', '-loglevel', 'error', '-y', '-i', file, '-c:a', 'libopus', '-b:a', '32k', webm]);
      return webm;
    });
    expect(wer).toBeLessThanOrEqual(0.45);
  }, 60_000);

  it('tells the length of what it decoded, as measuring the part on its own would (one decode instead of two)', async () => {
    const webm = path.join(dir, 'length.webm');
    execFileSync('ffmpeg', [
      '-nostdin',
      '-loglevel',
      'error',
      '-y',
      '-i',
      `${DATA}/librivox/${readFileSync(`${DATA}/librivox/fileids`, 'utf8').split('\n')[0]}.wav`,
      '-c:a',
      'libopus',
      '-b:a',
      '32k',
      webm,
    ]);
    let told: number | undefined;
    await createLocalTranscriber().transcribe({ filePath: webm, workDir: dir, mimeType: 'audio/webm', language: 'en', onDecoded: (ms) => (told = ms) });
    const measured = await measureDurationMs(webm);
    expect(measured).toBeGreaterThan(1000);
    expect(Math.abs(told! - measured)).toBeLessThanOrEqual(30);
  }, 30_000);

  it('reports audio it cannot decode as an error', async () => {
    const bogus = path.join(dir, 'bogus.webm');
    execFileSync('sh', ['-c', `printf 'not audio' > ${bogus}`]);
    await expect(transcribe(bogus)).rejects.toThrow(/ffmpeg/);
  });
});

const clinicalBuilt = existsSync(CLINICAL_MODEL.languageModel) && existsSync(CLINICAL_MODEL.dictionary);
const haveEspeak = existsSync('/usr/bin/espeak-ng');

// npm test builds the clinical model (scripts/build-clinical-model.mjs) and installs espeak-ng first.
describe.skipIf(!haveEngine || !clinicalBuilt || !haveEspeak)('the clinical language model', () => {
  it('at least halves the word error rate on held-out clinical speech', async () => {
    const sentences = readFileSync(path.resolve('tests/fixtures/speech/clinical-sentences.txt'), 'utf8')
      .trim()
      .split('\n')
      .filter((l) => l && !l.startsWith('#'));
    const files = sentences.map((s, i) => speechWebm(dir, `clinical-${i}`, s));
    async function wer(engine: ReturnType<typeof createLocalTranscriber>) {
      let errors = 0;
      let words = 0;
      for (const [i, file] of files.entries()) {
        const e = wordErrors(sentences[i]!, await engine.transcribe({ filePath: file, workDir: dir, mimeType: 'audio/webm', language: 'en' }));
        errors += e.errors;
        words += e.words;
      }
      return errors / words;
    }
    const generic = await wer(createLocalTranscriber());
    const clinical = await wer(createLocalTranscriber(CLINICAL_MODEL));
    expect(clinical).toBeLessThanOrEqual(generic / 2);
    expect(clinical).toBeLessThanOrEqual(0.45);
  }, 90_000);
});
