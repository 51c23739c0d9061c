import { sessionBlobPrefix } from '../../jobs/retention.js';
/**
 * Receiving recorded parts. A part is stored once per (session, order): a repeat upload (the client did not
 * see our answer and sent again) answers 200 with the stored part and changes nothing. Parts may arrive in any
 * order and after the consultation finished (an offline queue catching up); they are assembled by order.
 */
import { and, eq } from 'drizzle-orm';
import { audioChunks } from '../../db/schema.js';
import type { AppContext } from '../../http/context.js';
import { DomainError } from '../../http/errors.js';
import type { ChunkRow, SessionRow } from './repository.js';

const ALLOWED = new Map<string, string>([
  ['audio/webm', 'webm'],
  ['video/webm', 'webm'],
  ['audio/ogg', 'ogg'],
  ['audio/mp4', 'm4a'],
  ['audio/aac', 'aac'],
  ['audio/mpeg', 'mp3'],
  ['audio/wav', 'wav'],
  ['audio/x-wav', 'wav'],
  ['audio/wave', 'wav'],
]);

/** The container the bytes really are, whatever the client called them. */
export function sniffAudio(buf: Buffer): string | undefined {
  if (buf.length < 12) return undefined;
  if (buf.readUInt32BE(0) === 0x1a45dfa3) return 'webm';
  if (buf.toString('latin1', 0, 4) === 'OggS') return 'ogg';
  if (buf.toString('latin1', 0, 4) === 'RIFF' && buf.toString('latin1', 8, 12) === 'WAVE') return 'wav';
  if (buf.toString('latin1', 4, 8) === 'ftyp') return 'm4a';
  if (buf.toString('latin1', 0, 3) === 'ID3' || (buf[0] === 0xff && (buf[1]! & 0xe0) === 0xe0)) return 'mp3';
  return undefined;
}

export async function storeChunk(
  ctx: AppContext,
  session: SessionRow,
  input: { order: number; mimeType: string; data: Buffer },
): Promise<{ chunk: ChunkRow; created: boolean }> {
  const [existing] = await ctx.db
    .select()
    .from(audioChunks)
    .where(and(eq(audioChunks.sessionId, session.id), eq(audioChunks.order, input.order)));
  if (existing) return { chunk: existing, created: false };

  const declared = ALLOWED.get(input.mimeType.split(';')[0]!.trim().toLowerCase());
  const actual = sniffAudio(input.data);
  if (!declared || !actual) {
    throw new DomainError(415, 'unsupported_audio_type', 'The file is not audio in a supported format (webm, ogg, mp4, mp3 or wav)');
  }
  const blobKey = `${sessionBlobPrefix(session.id)}${String(input.order).padStart(6, '0')}.${actual}`;
  // The blob is written before the row: a row always points at stored audio.
  await ctx.blobs.put(blobKey, input.data);
  const [inserted] = await ctx.db
    .insert(audioChunks)
    .values({ sessionId: session.id, order: input.order, blobKey, mimeType: input.mimeType.split(';')[0]!.trim(), sizeBytes: input.data.length })
    .onConflictDoNothing({ target: [audioChunks.sessionId, audioChunks.order] })
    .returning();
  if (inserted) {
    ctx.transcriptionQueue.wake();
    return { chunk: inserted, created: true };
  }
  // Two identical uploads raced; the other one stored it.
  const [stored] = await ctx.db.select().from(audioChunks).where(and(eq(audioChunks.sessionId, session.id), eq(audioChunks.order, input.order)));
  return { chunk: stored!, created: false };
}
