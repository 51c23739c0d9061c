/**
 * The process's measurements, without the transport: the registry, the job metrics the workers and the document
 * writer record, and the queue depths counted in the database. http/metrics.ts serves them and adds the requests'.
 * Kept out of http/ so that the job workers, which know no HTTP, can record what they do.
 */
import { sql } from 'drizzle-orm';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Database } from '../db/client.js';
import { rowsOf } from '../admin/backup-catalog.js';

/**
 * The process's own registry: one per process, whatever number of apps it builds (the tests build several), so
 * the counters below are process-wide, as Prometheus expects of a target.
 */
export const processRegistry = new Registry();
collectDefaultMetrics({ register: processRegistry });

const httpLabels = ['method', 'route', 'status_class'] as const;
export const httpRequests = new Counter({
  name: 'http_requests_total',
  help: 'HTTP requests answered, by route pattern and status class.',
  labelNames: httpLabels,
  registers: [processRegistry],
});
export const httpDuration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'Time to answer an HTTP request (until the answer is sent; a document stream counts until it ends).',
  labelNames: httpLabels,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers: [processRegistry],
});
const transcriptionLag = new Histogram({
  name: 'transcription_lag_seconds',
  help: "Time from a recorded part's upload to its transcript being stored.",
  buckets: [1, 2, 5, 10, 20, 30, 60, 120, 300, 600, 1800],
  registers: [processRegistry],
});
const documentWriting = new Histogram({
  name: 'document_writing_seconds',
  help: 'Time to write a document once its transcript is ready, by outcome (done, failed).',
  labelNames: ['outcome'],
  buckets: [0.5, 1, 2.5, 5, 10, 20, 30, 60, 120, 300],
  registers: [processRegistry],
});
const jobFailures = new Counter({
  name: 'job_failures_total',
  help: 'Background jobs that failed, by queue and outcome (retry: tried again later; failed: given up; unavailable: no engine).',
  labelNames: ['queue', 'outcome'],
  registers: [processRegistry],
});

/** A part's transcript was stored `seconds` after the part was uploaded. */
export const observeTranscriptionLag = (seconds: number) => transcriptionLag.observe(Math.max(0, seconds));

export const countJobFailure = (queue: 'transcription' | 'document' | 'ocr' | 'screening', outcome: 'retry' | 'failed' | 'unavailable') =>
  jobFailures.inc({ queue, outcome });

/** Starts timing a document's writing; call the result once with how it ended. */
export function timeDocumentWriting(): (outcome: 'done' | 'failed') => void {
  const end = documentWriting.startTimer();
  return (outcome) => void end({ outcome });
}

/** The queues' depths, counted in the database at each scrape. */
export function queueGauge(db: Database, onError: (err: unknown) => void): Registry {
  const registry = new Registry();
  new Gauge({
    name: 'queue_jobs',
    help: 'Jobs waiting or running in each queue, counted in the database when scraped (shared by every process).',
    labelNames: ['queue', 'state'],
    registers: [registry],
    async collect() {
      this.reset();
      try {
        const rows = await rowsOf<{ queue: string; state: string; n: number | string }>(
          db,
          sql`
          select 'transcription' as queue, transcription_status as state, count(*) as n from audio_chunks
            where transcription_status in ('pending', 'processing') group by transcription_status
          union all
          select 'ocr', text_status, count(*) from research_patient_files
            where text_status in ('ocr_pending', 'ocr_running') group by text_status
          union all
          select 'document', status, count(*) from generated_documents where status = 'generating' group by status
          union all
          select 'screening', status, count(*) from trial_screenings where status = 'running' group by status`,
        );
        const states: Record<string, string[]> = {
          transcription: ['pending', 'processing'],
          ocr: ['ocr_pending', 'ocr_running'],
          document: ['generating'],
          screening: ['running'],
        };
        // Every series present, zeros included, so a rate or an alert never sees one vanish.
        for (const [queue, list] of Object.entries(states)) for (const state of list) this.set({ queue, state }, 0);
        for (const row of rows) this.set({ queue: row.queue, state: row.state }, Number(row.n));
      } catch (err) {
        onError(err);
      }
    },
  });
  return registry;
}
