import { createReadStream } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyReply } from 'fastify';
import { runFfmpeg } from '../../ai/ffmpeg.js';
import type { AppContext } from '../../http/context.js';
import type { ChunkRow } from './repository.js';

/**
 * The whole recording as one file: the stored parts joined in order by ffmpeg (re-encoded to Opus in WebM,
 * since the parts are standalone files whose timestamps each start at zero).
 */
export async function streamRecording(ctx: AppContext, reply: FastifyReply, chunks: ChunkRow[]) {
  const dir = await mkdtemp(path.join(tmpdir(), 'cn-rec-'));
  const list = path.join(dir, 'parts.txt');
  const paths = await Promise.all(chunks.map((c) => ctx.blobs.localPath(c.blobKey)));
  await writeFile(list, paths.map((p) => `file '${p.replace(/'/g, "'\\''")}'`).join('\n'));
  const out = path.join(dir, 'recording.webm');
  await runFfmpeg(['-f', 'concat', '-safe', '0', '-i', list, '-c:a', 'libopus', '-b:a', '32k', '-vn', out]);
  const stream = createReadStream(out);
  stream.on('close', () => void rm(dir, { recursive: true, force: true }));
  return reply.type('audio/webm').header('cache-control', 'private, no-store').send(stream);
}
