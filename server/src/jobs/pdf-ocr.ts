/**
 * Reads the scanned pages of patient records in the background. A file without a text layer is stored as
 * `ocr_pending`; this worker claims one at a time (FOR UPDATE SKIP LOCKED, so several processes can share the
 * work), reads it, and leaves it `ocr_done` with its text, or `no_text` when nothing legible was found.
 *
 * A claim is a lease (`ocr_locked_until`, renewed while the pages are read, and the claim's token): a file held
 * by a process that died is taken up by any worker once the lease has passed, and only the holder of the lease
 * records a result, so a file is read into the record once however many workers run. A stopping worker hands
 * its file back at once.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Language } from '../../../contract/constants.js';
import type { Database } from '../db/client.js';
import { researchPatientFiles } from '../db/schema.js';
import { ocrPdf } from '../modules/research_spaces/pdf-ocr.js';
import type { BlobStore } from '../storage/blob-store.js';
import { describeErrorSafely } from '../errors/safe-errors.js';
import { storableText } from '../ai/storable-text.js';
import { leaseFrom, renewEvery } from './lease.js';

const IDLE_POLL_MS = 5000;
const LEASE_SECONDS = 180;
const RENEW_EVERY_MS = 60_000;

export type OcrQueue = { wake(): void; stop(): Promise<void>; drain(): Promise<void> };

type Claimed = { id: string; token: string; blobKey: string; language: string; layerText: string };

const lease = leaseFrom(LEASE_SECONDS);
/** Only the worker whose lease the row still carries may change it. */
const heldBy = (job: Claimed) =>
  and(
    eq(researchPatientFiles.id, job.id),
    eq(researchPatientFiles.textStatus, 'ocr_running'),
    sql`${researchPatientFiles.ocrLockedUntil} = ${job.token}::timestamptz`,
  );

async function claimNext(db: Database): Promise<Claimed | undefined> {
  const result = await db.execute(sql`
    UPDATE ${researchPatientFiles} SET text_status = 'ocr_running', ocr_locked_until = ${lease}
    WHERE id = (
      SELECT id FROM ${researchPatientFiles}
      WHERE text_status = 'ocr_pending' OR (text_status = 'ocr_running' AND (ocr_locked_until IS NULL OR ocr_locked_until < now()))
      ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED)
    RETURNING id, ocr_locked_until::text AS token, blob_key, language, text`);
  const row = (result as unknown as { rows: Record<string, unknown>[] }).rows[0];
  return row
    ? { id: String(row.id), token: String(row.token), blobKey: String(row.blob_key), language: String(row.language), layerText: String(row.text) }
    : undefined;
}

export async function startOcrWorker(opts: { db: Database; blobs: BlobStore; log: FastifyBaseLogger; onlyProcess: boolean }): Promise<OcrQueue> {
  const { db, blobs, log } = opts;
  // The embedded database has no other process: whatever it left running was interrupted.
  if (opts.onlyProcess)
    await db.update(researchPatientFiles).set({ textStatus: 'ocr_pending', ocrLockedUntil: null }).where(eq(researchPatientFiles.textStatus, 'ocr_running'));
  const abort = new AbortController();
  let wake: () => void = () => undefined;
  const idle = new Set<() => void>();

  /** Renews the lease while the pages are read; `settle` stops renewing and waits for a renewal under way. */
  const keepLease = (job: Claimed) =>
    renewEvery(RENEW_EVERY_MS, async () => {
      const rows = await db
        .update(researchPatientFiles)
        .set({ ocrLockedUntil: lease })
        .where(heldBy(job))
        .returning({ token: sql<string>`${researchPatientFiles.ocrLockedUntil}::text` })
        .catch(() => undefined);
      if (rows?.length) job.token = rows[0]!.token;
      else if (rows) log.warn({ file: job.id }, 'a scanned record being read was taken by another worker');
    });

  /** Writes what became of the file, if this worker still holds it; says so when it no longer does. */
  async function record(job: Claimed, values: Partial<typeof researchPatientFiles.$inferInsert>) {
    const rows = await db
      .update(researchPatientFiles)
      .set({ ...values, ocrLockedUntil: null })
      .where(heldBy(job))
      .returning({ id: researchPatientFiles.id });
    if (!rows.length) log.warn({ file: job.id }, 'a scanned record was read after another worker took it: result dropped');
  }

  async function readOne(job: Claimed) {
    const settle = keepLease(job);
    let text: string;
    try {
      // The decrypted copy and its page images exist only while the pages are read, in DATA_DIR's scratch space.
      text = await blobs.withLocalFile(job.blobKey, (file, workDir) => ocrPdf(file, workDir, job.language as Language, abort.signal));
    } catch (err) {
      await settle();
      if (abort.signal.aborted) {
        // Stopping: the file goes back to the queue, for this or another worker.
        await record(job, { textStatus: 'ocr_pending' }).catch(() => undefined);
        return;
      }
      log.warn({ file: job.id, err: describeErrorSafely(err) }, 'scanned record could not be read');
      await record(job, { textStatus: job.layerText.trim() ? 'read' : 'no_text' }).catch((e: unknown) =>
        log.error({ file: job.id, err: describeErrorSafely(e) }, 'scanned record result not recorded; read again when its lease passes'),
      );
      return;
    }
    await settle();
    // The few words of a text layer (a stamp, a header) stay when the pages themselves yield nothing. A database error
    // here is not the file's: the lease passes and the file is read again.
    const textStatus = text ? 'ocr_done' : job.layerText.trim() ? 'read' : 'no_text';
    await record(job, { text: storableText(text) || job.layerText, textStatus }).catch((e: unknown) =>
      log.error({ file: job.id, err: describeErrorSafely(e) }, 'scanned record result not recorded; read again when its lease passes'),
    );
  }

  const loop = (async () => {
    while (!abort.signal.aborted) {
      let job;
      try {
        job = await claimNext(db);
      } catch (err) {
        if (!abort.signal.aborted) log.error({ err }, 'could not claim a scanned record');
      }
      if (job) {
        await readOne(job);
        continue;
      }
      for (const resolve of idle) resolve();
      idle.clear();
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, IDLE_POLL_MS);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  })();

  return {
    wake: () => wake(),
    drain: () =>
      new Promise<void>((resolve) => {
        idle.add(resolve);
        wake();
      }),
    async stop() {
      abort.abort();
      wake();
      await loop;
    },
  };
}
