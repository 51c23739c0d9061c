import type { ChannelLayout } from '../../../../contract/speakers.js';
import { createHash } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { sessionBlobPrefix } from '../../jobs/retention.js';
import { audioChunks } from '../../db/schema.js';
import type { AppContext } from '../../app-context.js';
import { DomainError } from '../../errors/domain-error.js';
import { checkAudio } from '../../ai/audio-container.js';
import { partStoredUpdate } from './recording-lease.js';
import type { ChunkRow, SessionRow } from './repository.js';
/**
 * Receiving recorded parts. A part is stored once per (session, order), with the SHA-256 of its bytes. A repeat
 * upload of the same bytes (the client did not see our answer and sent again) answers 200 with the stored part
 * and changes nothing; different bytes under an order already stored answer 409, never a silent 200, so the
 * client keeps them and nothing recorded disappears unnoticed. Parts may arrive in any order and after the
 * consultation finished (an offline queue catching up); they are assembled by order.
 */

const ALLOWED = new Set(['audio/webm', 'video/webm', 'audio/ogg', 'audio/mp4', 'audio/aac', 'audio/mpeg', 'audio/wav', 'audio/x-wav', 'audio/wave']);

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

const orderConflict = (order: number) =>
  new DomainError(409, 'audio_order_conflict', `A different recording is already stored as part ${order} of this consultation`, { order: 'conflict' });

export async function storeChunk(
  ctx: AppContext,
  session: SessionRow,
  input: { order: number; mimeType: string; data: Buffer; channelLayout?: ChannelLayout; durationMs?: number | null; deviceId?: string },
): Promise<{ chunk: ChunkRow; created: boolean }> {
  const hash = sha256(input.data);
  const mimeType = input.mimeType.split(';')[0]!.trim().toLowerCase();
  const check = checkAudio(input.data);
  if (!ALLOWED.has(mimeType) || !check.ok) {
    throw new DomainError(415, 'unsupported_audio_type', 'The file is not audio in a supported format (webm, ogg, mp4, mp3 or wav)');
  }
  // The content's hash is part of the key: two different uploads racing for one order never write the same
  // blob, so the row that wins always points at its own bytes, and a repeat of the same bytes rewrites them
  // unchanged.
  const blobKey = `${sessionBlobPrefix(session.id)}${String(input.order).padStart(6, '0')}.${hash.slice(0, 16)}.${check.format}`;
  // The blob is written before the row: a row always points at stored audio. The insert is tried straight
  // away (no lookup first: repeats are rare, every part pays for a lookup), and notes the part on the session
  // in the same statement.
  await ctx.blobs.put(blobKey, input.data);
  const noted = ctx.db.$with('noted').as(partStoredUpdate(ctx.db, session.id, input.deviceId, input.order));
  const [inserted] = await ctx.db
    .with(noted)
    .insert(audioChunks)
    .values({
      sessionId: session.id,
      order: input.order,
      blobKey,
      mimeType,
      sizeBytes: input.data.length,
      contentSha256: hash,
      channelLayout: input.channelLayout ?? 'mono',
      durationMs: input.durationMs ?? null,
    })
    .onConflictDoNothing({ target: [audioChunks.sessionId, audioChunks.order] })
    .returning();
  if (inserted) {
    ctx.transcriptionQueue.wake();
    return { chunk: inserted, created: true };
  }
  // A repeat (the client did not see our answer) or another upload of this order won a race. Our copy goes
  // unless it is the stored part's own blob, still kept: a part whose audio was removed (transcribed under a
  // "keep no audio" setting) is not brought back by a repeat.
  const stored = (await findPart(ctx, session.id, input.order))!;
  if (stored.blobKey !== blobKey || stored.audioDeletedAt) await ctx.blobs.delete(blobKey);
  return { chunk: await sameRecordingOr409(ctx, stored, hash), created: false };
}

async function findPart(ctx: AppContext, sessionId: string, order: number): Promise<ChunkRow | undefined> {
  const [row] = await ctx.db
    .select()
    .from(audioChunks)
    .where(and(eq(audioChunks.sessionId, sessionId), eq(audioChunks.order, order)));
  return row;
}

async function sameRecordingOr409(ctx: AppContext, stored: ChunkRow, hash: string): Promise<ChunkRow> {
  if (stored.contentSha256 === hash) return stored;
  if (stored.contentSha256 !== null) throw orderConflict(stored.order);
  // A part stored before hashes were kept: hash its blob once, when it is still there.
  if (stored.audioDeletedAt) return stored;
  const parts: Buffer[] = [];
  for await (const c of ctx.blobs.read(stored.blobKey)) parts.push(c as Buffer);
  const storedHash = sha256(Buffer.concat(parts));
  await ctx.db.update(audioChunks).set({ contentSha256: storedHash }).where(eq(audioChunks.id, stored.id));
  if (storedHash !== hash) throw orderConflict(stored.order);
  return { ...stored, contentSha256: storedHash };
}
