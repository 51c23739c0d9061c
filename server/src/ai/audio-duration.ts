import { runFfmpeg } from './ffmpeg.js';

/**
 * Decodes a file to count its real length. MediaRecorder's webm files carry no duration in their header,
 * so asking ffprobe is not enough; decoding to 8 kHz mono PCM is fast and exact to the sample.
 */
export async function measureDurationMs(filePath: string): Promise<number> {
  let bytes = 0;
  await runFfmpeg(['-i', filePath, '-ac', '1', '-ar', '8000', '-f', 's16le', '-'], (d) => (bytes += d.length));
  return Math.round((bytes / 2 / 8000) * 1000);
}
