import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { measureDurationMs } from './audio-duration.js';
import type { Transcriber } from './transcriber.js';
import { DomainError } from '../http/errors.js';
import { checkAudio } from '../modules/consultation_sessions/audio-container.js';

/** Transcribes an uploaded recording (a voice command, a dictated note); refuses what is not audio or too long. */
export async function transcribeUpload(
  transcriber: Transcriber,
  input: { data: Buffer; language: string; prompt?: string; maxSeconds?: number },
): Promise<string> {
  const check = checkAudio(input.data);
  if (!check.ok) throw new DomainError(415, 'unsupported_audio_type', 'The file is not audio in a supported format (webm, ogg, mp4, mp3 or wav)');
  const dir = await mkdtemp(path.join(tmpdir(), 'cn-upload-'));
  try {
    const kind = check.format;
    const file = path.join(dir, `audio.${kind}`);
    await writeFile(file, input.data);
    if (input.maxSeconds) {
      const ms = await measureDurationMs(file).catch(() => {
        throw new DomainError(415, 'unsupported_audio_type', 'The audio could not be read');
      });
      // A second of grace for the recorder's own stop delay.
      if (ms > (input.maxSeconds + 1) * 1000) {
        throw new DomainError(400, 'invalid_request', `The recording is longer than ${input.maxSeconds} seconds`, { audio: 'too_long' });
      }
    }
    return await transcriber.transcribe({ filePath: file, mimeType: `audio/${kind}`, language: input.language, prompt: input.prompt });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
