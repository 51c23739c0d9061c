import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { saveChunk, nextOrderFor, queueStateFor } from './chunk-queue';
import { AppDatabase, type StoredChunk } from './db';
import { backoffDelay, createUploader, type TransportResult, type UploadEvent } from './uploader';

let db: AppDatabase;
let name: string;
let clock: number;
beforeEach(async () => {
  name = `test-${Math.random()}`;
  db = new AppDatabase(name);
  await db.open();
  clock = 1_000_000;
});
afterEach(async () => {
  db.close();
  await AppDatabase.delete(name);
});

const part = (sessionId: string, order: number, userId = 'u1') => ({
  userId,
  sessionId,
  order,
  blob: new Blob([`audio ${sessionId} ${order}`], { type: 'audio/webm' }),
  mimeType: 'audio/webm',
  durationMs: 5000,
});

function uploaderWith(respond: (c: StoredChunk) => TransportResult | Promise<TransportResult>, userId = 'u1') {
  const sent: string[] = [];
  const events: UploadEvent[] = [];
  const uploader = createUploader({
    db,
    userId: () => userId,
    now: () => clock,
    withLock: (run) => run(),
    onEvent: (e) => events.push(e),
    transport: async (c) => {
      sent.push(`${c.sessionId}:${c.order}`);
      return respond(c);
    },
  });
  return { uploader, sent, events };
}

describe('chunk storage', () => {
  it('parts survive closing and reopening the database', async () => {
    await saveChunk(part('s1', 0), db);
    await saveChunk(part('s1', 1), db);
    db.close();
    const reopened = new AppDatabase(name);
    const rows = await reopened.audioChunks.orderBy('key').toArray();
    expect(rows.map((r) => [r.order, r.status])).toEqual([
      [0, 'pending'],
      [1, 'pending'],
    ]);
    expect(new TextDecoder().decode(rows[0]!.data)).toBe('audio s1 0');
    reopened.close();
    db = new AppDatabase(name);
  });

  it('writing a part twice keeps the first bytes and one row', async () => {
    await saveChunk(part('s1', 0), db);
    await saveChunk({ ...part('s1', 0), blob: new Blob(['other']) }, db);
    const rows = await db.audioChunks.toArray();
    expect(rows).toHaveLength(1);
    expect(new TextDecoder().decode(rows[0]!.data)).toBe('audio s1 0');
  });

  it('continues numbering after a reload', async () => {
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
    await saveChunk(part('s1', 0), db);
    await saveChunk(part('s1', 1), db);
    expect(await nextOrderFor('s1', db)).toBe(2);
    await db.audioChunks.clear();
    // Uploaded and deleted locally: the cached counter still knows where numbering stands.
    expect(await nextOrderFor('s1', db)).toBe(2);
    expect(await nextOrderFor('s2', db)).toBe(0);
  });
});

describe('uploader', () => {
  it('sends parts in strict order per session and deletes each only after the server acknowledged it', async () => {
    await saveChunk(part('s1', 2), db);
    await saveChunk(part('s1', 0), db);
    await saveChunk(part('s1', 1), db);
    const { uploader, sent, events } = uploaderWith(() => ({ ok: true }));
    await uploader.flush();
    expect(sent).toEqual(['s1:0', 's1:1', 's1:2']);
    expect(await db.audioChunks.count()).toBe(0);
    expect(events.filter((e) => e.type === 'uploaded')).toHaveLength(3);
  });

  it('does not send part 1 before part 0 got through, and backs off exponentially', async () => {
    await saveChunk(part('s1', 0), db);
    await saveChunk(part('s1', 1), db);
    let online = false;
    const { uploader, sent, events } = uploaderWith(() => (online ? { ok: true } : { ok: false, retry: true, reason: 'offline' }));
    await uploader.flush();
    expect(sent).toEqual(['s1:0']);
    const delays: number[] = [];
    for (let i = 0; i < 4; i++) {
      const row = (await db.audioChunks.get('s1:0'))!;
      clock = row.nextAttemptAt;
      await uploader.flush();
    }
    for (const e of events) if (e.type === 'retrying') delays.push(e.delayMs);
    expect(delays).toEqual([1000, 2000, 4000, 8000, 16000]);
    expect(sent.every((s) => s === 's1:0')).toBe(true);
    expect(await queueStateFor('s1', db)).toEqual({ waiting: 2, failed: 0 });

    online = true;
    await uploader.kick();
    await uploader.flush();
    expect(sent.slice(-2)).toEqual(['s1:0', 's1:1']);
    expect(await db.audioChunks.count()).toBe(0);
  });

  it('caps the backoff at a minute', () => {
    expect(backoffDelay(1)).toBe(1000);
    expect(backoffDelay(7)).toBe(60_000);
    expect(backoffDelay(30)).toBe(60_000);
  });

  it('a repeat upload (the answer was lost) is harmless: the server answers 200 and the part is done', async () => {
    await saveChunk(part('s1', 0), db);
    let calls = 0;
    const { uploader, sent } = uploaderWith(() => {
      calls++;
      // First attempt: the server stored it but the answer never arrived.
      return calls === 1 ? { ok: false, retry: true, reason: 'offline' } : { ok: true };
    });
    await uploader.flush();
    clock += 1000;
    await uploader.flush();
    expect(sent).toEqual(['s1:0', 's1:0']);
    expect(await db.audioChunks.count()).toBe(0);
  });

  it('resumes after a reload, including a part that was mid-upload', async () => {
    await saveChunk(part('s1', 0), db);
    await saveChunk(part('s1', 1), db);
    await db.audioChunks.update('s1:0', { status: 'uploading' });
    const { uploader, sent } = uploaderWith(() => ({ ok: true }));
    await uploader.flush();
    expect(sent).toEqual(['s1:0', 's1:1']);
  });

  it('keeps a refused part, marked failed, and goes on with the others', async () => {
    await saveChunk(part('s1', 0), db);
    await saveChunk(part('s1', 1), db);
    const { uploader, events } = uploaderWith((c) => (c.order === 0 ? { ok: false, retry: false, reason: 'rejected', status: 415 } : { ok: true }));
    await uploader.flush();
    const left = await db.audioChunks.toArray();
    expect(left.map((r) => [r.order, r.status])).toEqual([[0, 'failed']]);
    expect(events).toContainEqual({ type: 'rejected', sessionId: 's1', order: 0, status: 415 });
    expect(await queueStateFor('s1', db)).toEqual({ waiting: 0, failed: 1 });
  });

  it('sends only the signed-in user’s parts', async () => {
    await saveChunk(part('s1', 0, 'u1'), db);
    await saveChunk(part('s2', 0, 'u2'), db);
    const { uploader, sent } = uploaderWith(() => ({ ok: true }), 'u2');
    await uploader.flush();
    expect(sent).toEqual(['s2:0']);
    expect(await db.audioChunks.count()).toBe(1);
  });

  it('serves several sessions, each in its own order', async () => {
    await saveChunk(part('a', 0), db);
    await saveChunk(part('b', 0), db);
    await saveChunk(part('a', 1), db);
    await saveChunk(part('b', 1), db);
    const { uploader, sent } = uploaderWith(() => ({ ok: true }));
    await uploader.flush();
    expect(sent.filter((s) => s.startsWith('a'))).toEqual(['a:0', 'a:1']);
    expect(sent.filter((s) => s.startsWith('b'))).toEqual(['b:0', 'b:1']);
  });

  it('runs its loop in the background and stops cleanly', async () => {
    await saveChunk(part('s1', 0), db);
    const { uploader, sent } = uploaderWith(() => ({ ok: true }));
    uploader.start();
    await expect.poll(() => sent.length).toBe(1);
    await saveChunk(part('s1', 1), db);
    await uploader.kick();
    await expect.poll(() => sent.length).toBe(2);
    await uploader.stop();
  });
});

describe('parts still being recorded', () => {
  it('are not sent while their page writes them, and are sent once that page is gone', async () => {
    await saveChunk(part('s1', 0), db, 'recording');
    const { uploader, sent } = uploaderWith(() => ({ ok: true }));
    const row = (await db.audioChunks.get('s1:0'))!;
    clock = row.heartbeatAt + 1000;
    await uploader.flush();
    expect(sent).toEqual([]);
    clock = row.heartbeatAt + 6000;
    await uploader.flush();
    expect(sent).toEqual(['s1:0']);
  });

  it('the complete part replaces the growing one, and is never replaced itself', async () => {
    await saveChunk({ ...part('s1', 0), blob: new Blob(['half']) }, db, 'recording');
    await saveChunk({ ...part('s1', 0), blob: new Blob(['half and more']) }, db, 'recording');
    await saveChunk({ ...part('s1', 0), blob: new Blob(['the whole part']) }, db, 'pending');
    await saveChunk({ ...part('s1', 0), blob: new Blob(['late growth']) }, db, 'recording');
    const row = (await db.audioChunks.get('s1:0'))!;
    expect(row.status).toBe('pending');
    expect(new TextDecoder().decode(row.data)).toBe('the whole part');
  });
});
