/**
 * One recorder per consultation. The device that starts recording takes a lease (its random browser id, sent as
 * `x-device-id`), renewed by its heartbeats and uploads. Another device of the same clinician is refused
 * (409 `recording_elsewhere`) unless it asks to record there instead: the request is noted, the recorder learns it
 * from its next heartbeat, stops, and lets go with the number of parts it recorded, and the new device continues
 * from that number, so two devices never record at once nor number two parts alike. A recorder that stopped
 * answering (its lease lapsed: closed, crashed, out of range) is replaced at once, continuing after every part
 * the server has or was told of.
 *
 * Without a device id (older clients, other systems) none of this applies: parts are still stored by order and a
 * different recording under a stored order is refused (audio.ts), never dropped.
 */
import type { FastifyRequest } from 'fastify';
import { and, eq, sql } from 'drizzle-orm';
import type { RecorderView, RecordingDevice } from '../../../../contract/consultations.js';
import type { Database } from '../../db/client.js';
import { audioChunks, consultationSessions, type RecorderSpan } from '../../db/schema.js';
import type { AppContext } from '../../app-context.js';
import { DomainError } from '../../errors/domain-error.js';
import type { SessionRow } from './repository.js';

/** A recorder silent for this long (no heartbeat, no upload) has gone: another device may take over. */
export const RECORDER_LEASE_MS = 20_000;

const DEVICE_ID = /^[A-Za-z0-9_-]{16,128}$/;

/** The caller's browser id, when it sent a well-formed one. */
export function requestDeviceId(request: FastifyRequest): string | undefined {
  const header = request.headers['x-device-id'];
  return typeof header === 'string' && DEVICE_ID.test(header) ? header : undefined;
}

export function requireDeviceId(request: FastifyRequest): string {
  const id = requestDeviceId(request);
  if (!id) throw new DomainError(400, 'device_required', 'This call needs the x-device-id header of the recording device', { 'x-device-id': 'required' });
  return id;
}

const leaseAlive = (s: Pick<SessionRow, 'recorderDeviceId' | 'recorderSeenAt'>, now: number) =>
  s.recorderDeviceId !== null && s.recorderSeenAt !== null && now - s.recorderSeenAt.getTime() < RECORDER_LEASE_MS;

export function recorderView(s: SessionRow, deviceId: string | undefined, now = Date.now()): RecorderView {
  if (s.status !== 'active' || !leaseAlive(s, now)) return null;
  return {
    this_device: deviceId !== undefined && s.recorderDeviceId === deviceId,
    mobile: s.recorderMobile,
    handover_requested: s.handoverDeviceId !== null,
    handover_to_this_device: deviceId !== undefined && s.handoverDeviceId === deviceId,
    next_order: s.recorderNextOrder,
  };
}

async function lockSession(tx: Database, id: string): Promise<SessionRow> {
  const [row] = await tx.select().from(consultationSessions).where(eq(consultationSessions.id, id)).for('update');
  return row!;
}

async function nextStoredOrder(tx: Database, sessionId: string): Promise<number> {
  const [row] = await tx
    .select({ next: sql<number>`coalesce(max(${audioChunks.order}) + 1, 0)::int` })
    .from(audioChunks)
    .where(eq(audioChunks.sessionId, sessionId));
  return Number(row?.next ?? 0);
}

/**
 * Start (or go on) recording on `device`. `granted`: it records, from `next_order`; `waiting`: another device
 * records and was asked to hand over (`takeOver`), ask again shortly; without `takeOver` that is a 409.
 */
export async function acquireRecording(
  ctx: AppContext,
  sessionId: string,
  device: { id: string; mobile: boolean },
  takeOver: boolean,
): Promise<'granted' | 'waiting'> {
  return ctx.db.transaction(async (t) => {
    const tx = t as unknown as Database;
    const s = await lockSession(tx, sessionId);
    const now = Date.now();
    if (leaseAlive(s, now) && s.recorderDeviceId !== device.id) {
      if (!takeOver)
        throw new DomainError(
          409,
          'recording_elsewhere',
          s.recorderMobile ? 'This consultation is being recorded on your phone' : 'This consultation is being recorded on another device',
        );
      await tx.update(consultationSessions).set({ handoverDeviceId: device.id, handoverMobile: device.mobile }).where(eq(consultationSessions.id, sessionId));
      return 'waiting';
    }
    const stored = await nextStoredOrder(tx, sessionId);
    await tx
      .update(consultationSessions)
      .set({
        recorderDeviceId: device.id,
        recorderMobile: device.mobile,
        recorderSeenAt: new Date(now),
        recorderNextOrder: Math.max(s.recorderNextOrder, stored),
        handoverDeviceId: null,
        handoverMobile: false,
      })
      .where(eq(consultationSessions.id, sessionId));
    return 'granted';
  });
}

/** The recorder's heartbeat: renews its lease and reports its part count; says when it no longer records. */
export async function recorderHeartbeat(
  ctx: AppContext,
  sessionId: string,
  deviceId: string,
  nextOrder: number,
): Promise<{ recording_here: boolean; handover_requested: boolean }> {
  const [row] = await ctx.db
    .update(consultationSessions)
    .set({ recorderSeenAt: new Date(), recorderNextOrder: sql`greatest(${consultationSessions.recorderNextOrder}, ${nextOrder}::int)` })
    .where(and(eq(consultationSessions.id, sessionId), eq(consultationSessions.recorderDeviceId, deviceId), eq(consultationSessions.status, 'active')))
    .returning({ handover: consultationSessions.handoverDeviceId });
  return { recording_here: row !== undefined, handover_requested: row?.handover != null };
}

/**
 * The recorder stopped: the device waiting for a handover records next, from the count reported here. A recorder
 * that stopped because the consultation was finished on another device reports its final count the same way, and
 * the notes wait for those parts too.
 */
export async function releaseRecording(ctx: AppContext, sessionId: string, deviceId: string, nextOrder: number): Promise<void> {
  await ctx.db.transaction(async (t) => {
    const tx = t as unknown as Database;
    const s = await lockSession(tx, sessionId);
    if (s.status === 'finished' && s.expectedParts !== null && nextOrder > s.expectedParts) {
      await tx.update(consultationSessions).set({ expectedParts: nextOrder }).where(eq(consultationSessions.id, sessionId));
    }
    if (s.recorderDeviceId !== deviceId) {
      // A device that asked to take over and gave up withdraws its request, so the recorder goes on.
      if (s.handoverDeviceId === deviceId)
        await tx.update(consultationSessions).set({ handoverDeviceId: null, handoverMobile: false }).where(eq(consultationSessions.id, sessionId));
      return;
    }
    const handover = s.handoverDeviceId;
    await tx
      .update(consultationSessions)
      .set({
        recorderDeviceId: handover,
        recorderMobile: handover ? s.handoverMobile : false,
        recorderSeenAt: handover ? new Date() : null,
        recorderNextOrder: Math.max(s.recorderNextOrder, nextOrder),
        handoverDeviceId: null,
        handoverMobile: false,
      })
      .where(eq(consultationSessions.id, sessionId));
  });
}

/**
 * An upload is a sign of life of its device, when it is the recorder; the count never falls behind what is stored.
 * Returned unexecuted: the part's insert carries it as a CTE, so a part costs one statement, not two.
 */
export function partStoredUpdate(db: Database, sessionId: string, deviceId: string | undefined, order: number) {
  return db
    .update(consultationSessions)
    .set({
      recorderNextOrder: sql`greatest(${consultationSessions.recorderNextOrder}, ${order + 1}::int)`,
      ...(deviceId
        ? { recorderSeenAt: sql`case when ${consultationSessions.recorderDeviceId} = ${deviceId} then now() else ${consultationSessions.recorderSeenAt} end` }
        : {}),
    })
    .where(eq(consultationSessions.id, sessionId))
    .returning({ id: consultationSessions.id });
}

/** The kind of device a start of recording names: its platform says a teleconsultation, its flag a phone. */
export const recordingDevice = (platform: string, mobile: boolean): RecordingDevice =>
  platform === 'web-teleconsultation' ? 'teleconsultation' : mobile ? 'phone' : 'computer';

/**
 * Notes that the parts from here on are recorded on `device`, so a part still missing at the end can be said to be
 * expected from the phone or the computer. A device going on after itself adds nothing.
 */
export async function noteRecordingDevice(ctx: AppContext, sessionId: string, device: RecordingDevice): Promise<void> {
  await ctx.db.transaction(async (t) => {
    const tx = t as unknown as Database;
    const s = await lockSession(tx, sessionId);
    if (s.recorderSpans.at(-1)?.device === device) return;
    const from = Math.max(s.recorderNextOrder, await nextStoredOrder(tx, sessionId));
    // A stretch that began at the same part and recorded nothing is replaced, not kept.
    const spans: RecorderSpan[] = [...s.recorderSpans.filter((span) => span.from < from), { from, device }];
    await tx.update(consultationSessions).set({ recorderSpans: spans }).where(eq(consultationSessions.id, sessionId));
  });
}
