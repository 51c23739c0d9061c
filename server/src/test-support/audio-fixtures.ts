import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** A short standalone Opus-in-WebM file, like one recorded part (made with ffmpeg; `seconds` of a tone). */
export function makeWebm(dir: string, name: string, seconds = 1, frequency = 440): Buffer {
  const file = path.join(dir, `${name}.webm`);
  execFileSync('ffmpeg', ['-nostdin', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', `sine=f=${frequency}:d=${seconds}`, '-c:a', 'libopus', file]);
  return readFileSync(file);
}

/** Speech made by espeak-ng, as WAV, then as WebM/Opus like the browser sends. */
export function speechWebm(dir: string, name: string, text: string): string {
  const wav = path.join(dir, `${name}.wav`);
  const webm = path.join(dir, `${name}.webm`);
  execFileSync('espeak-ng', ['-v', 'en-us', '-s', '140', '-w', wav, text]);
  execFileSync('ffmpeg', ['-nostdin', '-loglevel', 'error', '-y', '-i', wav, '-c:a', 'libopus', '-b:a', '32k', webm]);
  return webm;
}

export function multipartAudio(
  order: number | string,
  data: Buffer,
  mimeType = 'audio/webm;codecs=opus',
  durationMs?: number | string,
  fields: Record<string, string> = {},
) {
  const boundary = `----cn${Math.random().toString(16).slice(2)}`;
  const field = (name: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const duration =
    (durationMs === undefined ? '' : field('duration_ms', String(durationMs))) +
    Object.entries(fields)
      .map(([name, value]) => field(name, value))
      .join('');
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="order"\r\n\r\n${order}\r\n` +
      duration +
      `--${boundary}\r\nContent-Disposition: form-data; name="audio_file"; filename="part.webm"\r\nContent-Type: ${mimeType}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { payload: Buffer.concat([head, data, tail]), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
