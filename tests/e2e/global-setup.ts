import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

export const SPEECH_WAV = path.resolve('.tmp/e2e-media/speech.wav');
const SENTENCES = path.resolve('tests/fixtures/speech/clinical-sentences.txt');

/**
 * The fake microphone's sound: the held-out clinical sentences spoken by espeak-ng, a second of silence after
 * each, as 16-bit WAV. Chromium plays it in a loop as the microphone.
 */
export default function globalSetup() {
  const dir = path.dirname(SPEECH_WAV);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const sentences = readFileSync(SENTENCES, 'utf8')
    .trim()
    .split('\n')
    .filter((l) => l && !l.startsWith('#'));
  const parts = sentences.map((s, i) => {
    const file = path.join(dir, `s${i}.wav`);
    execFileSync('espeak-ng', ['-v', 'en-us', '-s', '140', '-w', file, s]);
    return file;
  });
  const inputs = parts.flatMap((p) => ['-i', p]);
  const filter =
    parts.map((_, i) => `[${i}:a]aresample=16000,apad=pad_dur=1[a${i}]`).join(';') +
    ';' +
    parts.map((_, i) => `[a${i}]`).join('') +
    `concat=n=${parts.length}:v=0:a=1[out]`;
  execFileSync('ffmpeg', [
    '-nostdin',
    '-loglevel',
    'error',
    '-y',
    ...inputs,
    '-filter_complex',
    filter,
    '-map',
    '[out]',
    '-ac',
    '1',
    '-ar',
    '16000',
    '-c:a',
    'pcm_s16le',
    SPEECH_WAV,
  ]);
}
