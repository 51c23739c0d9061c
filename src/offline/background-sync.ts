/**
 * Background Sync: when a part is saved the page asks the browser for an `audio-upload` sync; the browser wakes
 * the service worker when the network is back, even if every tab was closed. The worker then sends the waiting
 * parts, starts and finishes of the remembered user, unless a page is already doing it (the same Web Lock as the page's uploader).
 */
import { appDb, type AppDatabase } from './db';
import { fetchAudioTransport, fetchSessionOpTransport } from './audio-transport';
import { createUploader, UPLOAD_LOCK } from './uploader';

export const SYNC_TAG = 'audio-upload';

export class PartsStillWaiting extends Error {}

/** Runs in the service worker. Throws PartsStillWaiting so the browser retries the sync later. */
export async function runBackgroundUpload(opts: { db?: AppDatabase; fetchFn?: typeof fetch; locks?: LockManager } = {}): Promise<void> {
  const db = opts.db ?? appDb();
  const credentials = await db.credentials.get('upload');
  if (!credentials) return;
  const work = async () => {
    const uploader = createUploader({
      db,
      userId: () => credentials.userId,
      transport: fetchAudioTransport(credentials.token, opts.fetchFn),
      sendSessionOp: fetchSessionOpTransport(credentials.token, opts.fetchFn),
      withLock: (run) => run(),
    });
    await uploader.flush();
    const mine = (c: { userId: string }) => c.userId === credentials.userId;
    const left =
      (await db.audioChunks.where('status').anyOf('pending', 'uploading').filter(mine).count()) +
      (await db.sessionOps.where('status').anyOf('pending', 'sending').filter(mine).count());
    if (left > 0) throw new PartsStillWaiting(`${left} parts still waiting`);
  };
  const locks = opts.locks ?? (typeof navigator !== 'undefined' ? navigator.locks : undefined);
  if (!locks) return work();
  await locks.request(UPLOAD_LOCK, { ifAvailable: true }, async (lock) => {
    // No lock: a page's uploader is running and will send them.
    if (lock) await work();
  });
}

/** In the page: keep the worker's credentials in step with the session (remembered sessions only). */
export async function rememberUploadCredentials(session: { token: string; userId: string; remembered: boolean } | null, db: AppDatabase = appDb()) {
  if (session?.remembered) await db.credentials.put({ id: 'upload', token: session.token, userId: session.userId });
  else await db.credentials.delete('upload');
}

/** In the page: ask for a background sync where the browser has it (Chromium); elsewhere the page uploads. */
export async function requestBackgroundSync(): Promise<void> {
  try {
    const registration = await navigator.serviceWorker?.ready;
    const sync = (registration as ServiceWorkerRegistration & { sync?: { register(tag: string): Promise<void> } })?.sync;
    await sync?.register(SYNC_TAG);
  } catch {
    // Not supported or not allowed: the page's own uploader still runs.
  }
}
