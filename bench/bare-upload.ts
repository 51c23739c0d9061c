/**
 * The reference for the ingest figures: a bare Fastify process that takes a multipart part, writes it to a file
 * (write, then rename) and answers 201, with no database, no token and no encryption. Run as its own process by
 * cluster.ts; prints its address on its first line of output.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import multipart from '@fastify/multipart';
import Fastify from 'fastify';

const folder = process.argv[2]!;
mkdirSync(folder, { recursive: true });
const app = Fastify();
await app.register(multipart, { limits: { fileSize: 10 * 1024 * 1024 } });
app.post('/v1/consultation_sessions/:id/audios', async (request, reply) => {
  let order = '';
  let data: Buffer | undefined;
  for await (const part of request.parts()) {
    if (part.type === 'file') data = await part.toBuffer();
    else if (part.fieldname === 'order') order = String(part.value);
  }
  const { id } = request.params as { id: string };
  const file = path.join(folder, `${id}-${order}`);
  const tmp = `${file}.${randomUUID()}.tmp`;
  await writeFile(tmp, data ?? Buffer.alloc(0));
  await rename(tmp, file);
  return reply.status(201).send({ audio: { id: randomUUID(), order: Number(order) } });
});
await app.listen({ port: 0, host: '127.0.0.1' });
console.log(`http://127.0.0.1:${(app.server.address() as AddressInfo).port}`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
