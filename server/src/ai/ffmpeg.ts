import { spawn } from 'node:child_process';

/**
 * Runs ffmpeg quietly (errors only, no stdin). `onData` receives what it writes to standard output, for
 * commands that pipe audio out; a non-zero exit rejects with ffmpeg's own message.
 */
export function runFfmpeg(args: string[], onData?: (chunk: Buffer) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const ff = spawn('ffmpeg', ['-nostdin', '-loglevel', 'error', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    ff.stdout.on('data', (d: Buffer) => onData?.(d));
    ff.stderr.on('data', (d: Buffer) => (err += d.toString()));
    ff.on('error', reject);
    ff.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`ffmpeg: ${err.trim().slice(0, 300)}`))));
  });
}
