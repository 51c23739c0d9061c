import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyReply } from 'fastify';
import { runFfmpeg } from '../../ai/ffmpeg.js';
import type { AppContext } from '../../app-context.js';
import type { ChunkRow } from './repository.js';

/**
 * The whole recording as one file: the stored parts joined in order by ffmpeg (re-encoded to Opus in WebM,
 * since the parts are standalone files whose timestamps each start at zero). The decrypted parts and the joined
 * file exist only in a private scratch folder, removed before the answer is sent.
 */
export async function streamRecording(ctx: AppContext, reply: FastifyReply, chunks: ChunkRow[]) {
  const recording = await ctx.blobs.withLocalFiles(
    chunks.map((c) => c.blobKey),
    async (files, work) => {
      const list = path.join(work, 'parts.txt');
      await writeFile(list, files.map((p) => `file '${p.replace(/'/g, "'\\''")}'`).join('\n'));
      const out = path.join(work, 'recording.webm');
      await runFfmpeg(['-f', 'concat', '-safe', '0', '-i', list, '-c:a', 'libopus', '-b:a', '32k', '-vn', out]);
      return readFile(out);
    },
  );
  return reply.type('audio/webm').header('cache-control', 'private, no-store').send(recording);
}
