/**
 * Reads the scanned pages of patient records in the background. A file without a text layer is stored as
 * `ocr_pending`; this worker claims one at a time (FOR UPDATE SKIP LOCKED, so several processes can share the
 * work), reads it, and leaves it `ocr_done` with its text, or `no_text` when nothing legible was found. A file
 * left `ocr_running` by a process that stopped is taken up again when the server starts.
 */
import { eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Language } from '../../../contract/constants.js';
import type { Database } from '../db/client.js';
import { researchPatientFiles } from '../db/schema.js';
import { ocrPdf } from '../modules/research_spaces/pdf-ocr.js';
import type { BlobStore } from '../storage/blob-store.js';
import { describeErrorSafely } from '../http/safe-errors.js';
import { storableText } from '../ai/storable-text.js';

const IDLE_POLL_MS = 5000;

export type OcrQueue = { wake(): void; stop(): Promise<void>; drain(): Promise<void> };

type Claimed = { id: string; blobKey: string; language: string; layerText: string };

async function claimNext(db: Database): Promise<Claimed | undefined> {
  const result = await db.execute(sql`
    UPDATE ${researchPatientFiles} SET text_status = 'ocr_running'
    WHERE id = (
      SELECT id FROM ${researchPatientFiles} WHERE text_status = 'ocr_pending'
      ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED)
    RETURNING id, blob_key, language, text`);
  const row = (result as unknown as { rows: Record<string, unknown>[] }).rows[0];
  return row ? { id: String(row.id), blobKey: String(row.blob_key), language: String(row.language), layerText: String(row.text) } : undefined;
}

export async function startOcrWorker(opts: { db: Database; blobs: BlobStore; log: FastifyBaseLogger }): Promise<OcrQueue> {
  const { db, blobs, log } = opts;
  await db.update(researchPatientFiles).set({ textStatus: 'ocr_pending' }).where(eq(researchPatientFiles.textStatus, 'ocr_running'));
  const abort = new AbortController();
  let wake: () => void = () => undefined;
  const idle = new Set<() => void>();

  async function readOne(job: Claimed) {
    try {
      // The decrypted copy and its page images exist only while the pages are read, in DATA_DIR's scratch space.
      const text = await blobs.withLocalFile(job.blobKey, (file, workDir) => ocrPdf(file, workDir, job.language as Language, abort.signal));
      // The few words of a text layer (a stamp, a header) stay when the pages themselves yield nothing.
      const textStatus = text ? 'ocr_done' : job.layerText.trim() ? 'read' : 'no_text';
      await db.update(researchPatientFiles).set({ text: storableText(text) || job.layerText, textStatus }).where(eq(researchPatientFiles.id, job.id));
    } catch (err) {
      if (abort.signal.aborted) {
        // Stopping: the file goes back to the queue for the next start.
        await db.update(researchPatientFiles).set({ textStatus: 'ocr_pending' }).where(eq(researchPatientFiles.id, job.id)).catch(() => undefined);
        return;
      }
      log.warn({ file: job.id, err: describeErrorSafely(err) }, 'scanned record could not be read');
      await db.update(researchPatientFiles).set({ textStatus: job.layerText.trim() ? 'read' : 'no_text' }).where(eq(researchPatientFiles.id, job.id));
    }
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
