import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { measureDurationMs } from './audio-duration.js';
import type { Transcriber } from './transcriber.js';
import { DomainError } from '../errors/domain-error.js';
import { checkAudio } from './audio-container.js';
import type { BlobStore } from '../storage/blob-store.js';

/**
 * Transcribes an uploaded recording (a voice command, a dictated note); refuses what is not audio or too long.
 * The recording is never stored, but ffmpeg and the engines read files: it is written for them to a private
 * folder of DATA_DIR's scratch space (`scratch`, the blob store), removed when they are done, and cleaned at the
 * next start should the process die meanwhile.
 */
export async function transcribeUpload(
  transcriber: Transcriber,
  scratch: Pick<BlobStore, 'withScratchFolder'>,
  input: { data: Buffer; language: string; prompt?: string; maxSeconds?: number },
): Promise<string> {
  const check = checkAudio(input.data);
  if (!check.ok) throw new DomainError(415, 'unsupported_audio_type', 'The file is not audio in a supported format (webm, ogg, mp4, mp3 or wav)');
  return scratch.withScratchFolder(async (dir) => {
    const kind = check.format;
    const file = path.join(dir, `audio.${kind}`);
    await writeFile(file, input.data, { mode: 0o600, flag: 'wx' });
    const workDir = path.join(dir, 'work');
    await mkdir(workDir, { mode: 0o700 });
    if (input.maxSeconds) {
      const ms = await measureDurationMs(file).catch(() => {
        throw new DomainError(415, 'unsupported_audio_type', 'The audio could not be read');
      });
      // A second of grace for the recorder's own stop delay.
      if (ms > (input.maxSeconds + 1) * 1000) {
        throw new DomainError(400, 'invalid_request', `The recording is longer than ${input.maxSeconds} seconds`, { audio: 'too_long' });
      }
    }
    return transcriber.transcribe({ filePath: file, workDir, mimeType: `audio/${kind}`, language: input.language, prompt: input.prompt });
  });
}
