import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { saveChunk } from './chunk-queue';
import { AppDatabase } from './db';
import { queueFinish } from './session-ops';
import { PartsStillWaiting, rememberUploadCredentials, runBackgroundUpload } from './background-sync';

let db: AppDatabase;
let name: string;
beforeEach(async () => {
  name = `bg-${Math.random()}`;
  db = new AppDatabase(name);
  await db.open();
});
afterEach(async () => {
  db.close();
  await AppDatabase.delete(name);
});

const part = (order: number, userId = 'u1') => ({ userId, sessionId: 's1', order, blob: new Blob([`p${order}`]), mimeType: 'audio/webm', durationMs: 5000 });

describe('background upload (service worker)', () => {
  it('sends the remembered user’s waiting parts in order, with the stored token', async () => {
    await rememberUploadCredentials({ token: 'tok', userId: 'u1', remembered: true }, db);
    await saveChunk(part(1), db);
    await saveChunk(part(0), db);
    const calls: { url: string; auth: string | null; order: string }[] = [];
    const fetchFn = (async (url: string, init: RequestInit) => {
      calls.push({ url, auth: new Headers(init.headers).get('authorization'), order: String((init.body as FormData).get('order')) });
      return new Response('{}', { status: 201 });
    }) as unknown as typeof fetch;
    await runBackgroundUpload({ db, fetchFn });
    expect(calls.map((c) => c.order)).toEqual(['0', '1']);
    expect(calls.every((c) => c.auth === 'Bearer tok' && c.url === '/v1/consultation_sessions/s1/audios')).toBe(true);
    expect(await db.audioChunks.count()).toBe(0);
  });

  it('sends a queued finish after the parts, with the number of parts, and fails the sync until it is confirmed', async () => {
    await rememberUploadCredentials({ token: 'tok', userId: 'u1', remembered: true }, db);
    await saveChunk(part(0), db);
    await saveChunk(part(1), db);
    await queueFinish({ userId: 'u1', sessionId: 's1' }, db);
    const calls: string[] = [];
    let finishStatus = 503;
    const fetchFn = (async (url: string, init: RequestInit) => {
      calls.push(init.method === 'PUT' ? `${url} ${String(init.body)}` : url);
      return new Response('{}', { status: init.method === 'PUT' ? finishStatus : 201 });
    }) as unknown as typeof fetch;
    await expect(runBackgroundUpload({ db, fetchFn })).rejects.toBeInstanceOf(PartsStillWaiting);
    expect(calls).toEqual(['/v1/consultation_sessions/s1/audios', '/v1/consultation_sessions/s1/audios', '/v1/consultation_sessions/s1/finish {"parts":2}']);
    expect(await db.sessionOps.count()).toBe(1);
    finishStatus = 200;
    await db.sessionOps.toCollection().modify({ nextAttemptAt: 0 });
    await runBackgroundUpload({ db, fetchFn });
    expect(await db.sessionOps.count()).toBe(0);
  });

  it('fails the sync while parts remain, so the browser tries again later', async () => {
    await rememberUploadCredentials({ token: 'tok', userId: 'u1', remembered: true }, db);
    await saveChunk(part(0), db);
    const fetchFn = (async () => {
      throw new TypeError('offline');
    }) as unknown as typeof fetch;
    await expect(runBackgroundUpload({ db, fetchFn })).rejects.toBeInstanceOf(PartsStillWaiting);
    expect(await db.audioChunks.count()).toBe(1);
  });

  it('does nothing for a session that was not remembered, and forgets the token at logout', async () => {
    await rememberUploadCredentials({ token: 'tok', userId: 'u1', remembered: false }, db);
    expect(await db.credentials.count()).toBe(0);
    await rememberUploadCredentials({ token: 'tok', userId: 'u1', remembered: true }, db);
    await rememberUploadCredentials(null, db);
    expect(await db.credentials.count()).toBe(0);
    await saveChunk(part(0), db);
    let called = false;
    await runBackgroundUpload({ db, fetchFn: (async () => ((called = true), new Response())) as unknown as typeof fetch });
    expect(called).toBe(false);
  });

  it('leaves the work to a page that holds the upload lock', async () => {
    await rememberUploadCredentials({ token: 'tok', userId: 'u1', remembered: true }, db);
    await saveChunk(part(0), db);
    let called = false;
    const busyLocks = { request: async (_n: string, _o: object, cb: (lock: null) => Promise<void>) => cb(null) } as unknown as LockManager;
    await runBackgroundUpload({ db, locks: busyLocks, fetchFn: (async () => ((called = true), new Response())) as unknown as typeof fetch });
    expect(called).toBe(false);
  });
});
