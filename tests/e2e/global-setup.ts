import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';

export const SPEECH_WAV = path.resolve('.tmp/e2e-media/speech.wav');
const LIBRIVOX = '/usr/share/pocketsphinx/test/data/librivox';
const CLIPS = ['0870', '0880', '0890', '0920', '0930'].map((n) => `${LIBRIVOX}/sense_and_sensibility_01_austen_64kb-${n}.wav`);

/**
 * The fake microphone's sound: real human speech (the LibriVox clips Debian ships for pocketsphinx), with a
 * second of silence after each sentence, as 16-bit WAV. Chromium plays it in a loop as the microphone.
 */
export default function globalSetup() {
  mkdirSync(path.dirname(SPEECH_WAV), { recursive: true });
  if (existsSync(SPEECH_WAV)) return;
  const inputs = CLIPS.flatMap((c) => ['-i', c]);
  const filter = CLIPS.map((_, i) => `[${i}:a]aresample=16000,apad=pad_dur=1[a${i}]`).join(';') + ';' + CLIPS.map((_, i) => `[a${i}]`).join('') + `concat=n=${CLIPS.length}:v=0:a=1[out]`;
  execFileSync('ffmpeg', ['-nostdin', '-loglevel', 'error', '-y', ...inputs, '-filter_complex', filter, '-map', '[out]', '-ac', '1', '-ar', '16000', '-c:a', 'pcm_s16le', SPEECH_WAV]);
}
