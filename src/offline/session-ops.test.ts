import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { saveChunk } from './chunk-queue';
import { AppDatabase, type SessionOp } from './db';
import { finishWaiting, queueFinish, startLocally, startWaiting } from './session-ops';
import { createUploader, type TransportResult, type UploadEvent } from './uploader';

let db: AppDatabase;
let name: string;
let clock: number;
beforeEach(async () => {
  name = `ops-${Math.random()}`;
  db = new AppDatabase(name);
  await db.open();
  clock = 1_000_000;
  await db.sessions.put({
    id: 's1',
    status: 'active',
    consultation_type_id: 'x',
    show_transcription: false,
    recording_state: 'recording',
    created_at: '',
    finished_at: null,
    expires_at: null,
    cachedAt: 0,
  });
});
afterEach(async () => {
  db.close();
  await AppDatabase.delete(name);
});

const part = (order: number, userId = 'u1') => ({
  userId,
  sessionId: 's1',
  order,
  blob: new Blob([`audio ${order}`], { type: 'audio/webm' }),
  mimeType: 'audio/webm',
  durationMs: 5000,
});

/** An uploader whose parts and finishes go to answer functions, recording what was sent in which order. */
function uploaderWith(answers: { part?: () => TransportResult; finish?: (op: SessionOp) => TransportResult }, userId = 'u1') {
  const sent: string[] = [];
  const events: UploadEvent[] = [];
  const uploader = createUploader({
    db,
    userId: () => userId,
    now: () => clock,
    withLock: (run) => run(),
    onEvent: (e) => events.push(e),
    transport: async (c) => {
      sent.push(`part ${c.order}`);
      return answers.part?.() ?? { ok: true };
    },
    sendSessionOp: async (op) => {
      sent.push(op.kind === 'create' ? 'start' : `finish ${op.parts}`);
      return answers.finish?.(op) ?? { ok: true };
    },
  });
  return { uploader, sent, events };
}

describe('queued finish', () => {
  it('counts the parts recorded and is kept until the server confirms it', async () => {
    await saveChunk(part(0), db);
    await saveChunk(part(1), db);
    const op = await queueFinish({ userId: 'u1', sessionId: 's1' }, db);
    expect(op.parts).toBe(2);
    expect((await finishWaiting('s1', db))?.parts).toBe(2);
  });

  it('goes after every part it counts, and is deleted once the server confirmed it', async () => {
    await saveChunk(part(0), db);
    await saveChunk(part(1), db);
    await queueFinish({ userId: 'u1', sessionId: 's1' }, db);
    const { uploader, sent, events } = uploaderWith({});
    await uploader.flush();
    expect(sent).toEqual(['part 0', 'part 1', 'finish 2']);
    expect(await finishWaiting('s1', db)).toBeUndefined();
    expect(events).toContainEqual({ type: 'op-done', kind: 'finish', sessionId: 's1' });
  });

  it('waits while a part is still being written by the recording page', async () => {
    await saveChunk(part(0), db, 'recording');
    await queueFinish({ userId: 'u1', sessionId: 's1' }, db);
    const { uploader, sent } = uploaderWith({});
    await uploader.flush();
    expect(sent).toEqual([]);
  });

  it('offline: stays saved, is retried with backoff, and is sent when the network returns', async () => {
    await saveChunk(part(0), db);
    await queueFinish({ userId: 'u1', sessionId: 's1' }, db);
    let online = false;
    const offline: TransportResult = { ok: false, retry: true, reason: 'offline' };
    const { uploader, sent } = uploaderWith({ part: () => (online ? { ok: true } : offline), finish: () => (online ? { ok: true } : offline) });
    await uploader.flush();
    expect(sent).toEqual(['part 0']);
    // The part got through but the answer to the finish was lost.
    online = true;
    await uploader.kick();
    await uploader.flush();
    expect(sent).toEqual(['part 0', 'part 0', 'finish 1']);
    expect(await finishWaiting('s1', db)).toBeUndefined();

    await saveChunk(part(1), db);
    await queueFinish({ userId: 'u1', sessionId: 's1' }, db);
    online = false;
    await uploader.flush();
    clock = (await db.audioChunks.get('s1:1'))!.nextAttemptAt;
    online = true;
    await uploader.flush();
    expect(sent.slice(-2)).toEqual(['part 1', 'finish 2']);
  });

  it('a finish whose answer never came is sent again and kept until confirmed', async () => {
    await queueFinish({ userId: 'u1', sessionId: 's1' }, db);
    let calls = 0;
    const { uploader, sent, events } = uploaderWith({
      finish: () => (++calls === 1 ? { ok: false, retry: true, reason: 'overloaded', status: 503 } : { ok: true }),
    });
    await uploader.flush();
    expect((await finishWaiting('s1', db))?.status).toBe('pending');
    expect(events).toContainEqual({ type: 'op-retrying', kind: 'finish', sessionId: 's1', attempts: 1, delayMs: 1000, reason: 'overloaded' });
    clock += 1000;
    await uploader.flush();
    expect(sent).toEqual(['finish 0', 'finish 0']);
    expect(await finishWaiting('s1', db)).toBeUndefined();
  });

  it('a part refused for good does not hold the consultation open', async () => {
    await saveChunk(part(0), db);
    await saveChunk(part(1), db);
    await queueFinish({ userId: 'u1', sessionId: 's1' }, db);
    const { uploader, sent } = uploaderWith({ part: () => ({ ok: false, retry: false, reason: 'rejected', status: 415 }) });
    await uploader.flush();
    expect(sent).toEqual(['part 0', 'part 1', 'finish 2']);
  });

  it('refused by the server: kept as failed, never retried silently', async () => {
    await queueFinish({ userId: 'u1', sessionId: 's1' }, db);
    const { uploader, events } = uploaderWith({ finish: () => ({ ok: false, retry: false, reason: 'rejected', status: 404 }) });
    await uploader.flush();
    expect((await finishWaiting('s1', db))?.status).toBe('failed');
    expect(events).toContainEqual({ type: 'op-rejected', kind: 'finish', sessionId: 's1', status: 404 });
  });

  it('finishing again after more recording keeps the larger count', async () => {
    await saveChunk(part(0), db);
    await queueFinish({ userId: 'u1', sessionId: 's1' }, db);
    await saveChunk(part(1), db);
    await saveChunk(part(2), db);
    expect((await queueFinish({ userId: 'u1', sessionId: 's1' }, db)).parts).toBe(3);
  });

  it('is sent only by the account that finished', async () => {
    await queueFinish({ userId: 'u1', sessionId: 's1' }, db);
    const { uploader, sent } = uploaderWith({}, 'u2');
    await uploader.flush();
    expect(sent).toEqual([]);
  });
});

describe('a consultation started with no network', () => {
  const startHere = () => startLocally({ userId: 'u1', consultationTypeId: 'general_consultation', showTranscription: false, mobile: false }, db);

  it('is cached as active under an id of its own, and its start waits to be sent', async () => {
    const session = await startHere();
    expect(session.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect((await db.sessions.get(session.id))?.status).toBe('active');
    expect((await startWaiting(session.id, db))?.consultationTypeId).toBe('general_consultation');
  });

  it('its start goes first, then its parts in order, then its finish', async () => {
    const { id } = await startHere();
    const mine = (order: number) => ({ ...part(order), sessionId: id });
    await saveChunk(mine(0), db);
    await saveChunk(mine(1), db);
    await queueFinish({ userId: 'u1', sessionId: id }, db);
    let online = false;
    const offline: TransportResult = { ok: false, retry: true, reason: 'offline' };
    const { uploader, sent } = uploaderWith({ part: () => (online ? { ok: true } : offline), finish: () => (online ? { ok: true } : offline) });
    await uploader.flush();
    // Offline: the start is tried; nothing else of this consultation may go before it.
    expect(sent).toEqual(['start']);
    online = true;
    await uploader.kick();
    await uploader.flush();
    expect(sent).toEqual(['start', 'start', 'part 0', 'part 1', 'finish 2']);
    expect(await db.sessionOps.count()).toBe(0);
  });

  it('several started offline reach the server one after the other: each one’s start, parts and finish before the next start', async () => {
    const a = await startHere();
    await saveChunk({ ...part(0), sessionId: a.id }, db);
    await queueFinish({ userId: 'u1', sessionId: a.id }, db);
    // Started later (the queue orders by the device's clock).
    await new Promise((r) => setTimeout(r, 5));
    const b = await startHere();
    await saveChunk({ ...part(0), sessionId: b.id }, db);
    await queueFinish({ userId: 'u1', sessionId: b.id }, db);
    const log: string[] = [];
    const uploader = createUploader({
      db,
      userId: () => 'u1',
      now: () => clock,
      withLock: (run) => run(),
      transport: async (c) => (log.push(`${c.sessionId === a.id ? 'A' : 'B'} part ${c.order}`), { ok: true }),
      sendSessionOp: async (op) => (log.push(`${op.sessionId === a.id ? 'A' : 'B'} ${op.kind}`), { ok: true }),
    });
    await uploader.flush();
    expect(log).toEqual(['A create', 'A part 0', 'A finish', 'B create', 'B part 0', 'B finish']);
  });

  it('a start the server refuses keeps everything of that consultation on the device', async () => {
    const { id } = await startHere();
    await saveChunk({ ...part(0), sessionId: id }, db);
    await queueFinish({ userId: 'u1', sessionId: id }, db);
    const { uploader, sent, events } = uploaderWith({
      finish: (op) => (op.kind === 'create' ? { ok: false, retry: false, reason: 'rejected', status: 409 } : { ok: true }),
    });
    await uploader.flush();
    expect(sent).toEqual(['start']);
    expect(events).toContainEqual({ type: 'op-rejected', kind: 'create', sessionId: id, status: 409 });
    expect(await db.audioChunks.count()).toBe(1);
    expect((await startWaiting(id, db))?.status).toBe('failed');
  });
});
