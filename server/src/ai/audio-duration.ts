import { spawn } from 'node:child_process';

/**
 * Decodes a file to count its real length. MediaRecorder's webm files carry no duration in their header,
 * so asking ffprobe is not enough; decoding to 8 kHz mono PCM is fast and exact to the sample.
 */
export function measureDurationMs(filePath: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const ff = spawn('ffmpeg', ['-nostdin', '-loglevel', 'error', '-i', filePath, '-ac', '1', '-ar', '8000', '-f', 's16le', '-'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let bytes = 0;
    let err = '';
    ff.stdout.on('data', (d: Buffer) => (bytes += d.length));
    ff.stderr.on('data', (d: Buffer) => (err += d.toString()));
    ff.on('error', reject);
    ff.on('close', (code) => (code === 0 ? resolve(Math.round((bytes / 2 / 8000) * 1000)) : reject(new Error(`ffmpeg: ${err.trim().slice(0, 200)}`))));
  });
}
