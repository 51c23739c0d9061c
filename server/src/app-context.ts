import type { RecipientCap } from './mail/recipient-cap.js';
import type { LoginLimiter } from './auth/login-limiter.js';
import type { SessionTokens } from './auth/session-tokens.js';
import type { Config } from './config.js';
import type { Database } from './db/client.js';
import type { Mailer } from './mail/mailer.js';
import type { Transcriber } from './ai/transcriber.js';
import type { TranscriptionQueue } from './jobs/transcription-worker.js';
import type { OcrQueue } from './jobs/pdf-ocr.js';
import type { BlobStore } from './storage/blob-store.js';
import type { ActiveStatusCache } from './modules/consultation_sessions/active-status-cache.js';
import type { PartsCache } from './modules/consultation_sessions/parts-cache.js';
import type { LiveDocuments } from './modules/generated_documents/live-documents.js';
import type { TextGenerator } from './ai/text-generator.js';
import type { EngineSwitch } from './ai/engine-switch.js';
import type { EventBus } from './events/event-bus.js';

/**
 * What every route module, worker and background job receives: settings and the parts it may use, chosen once at
 * start. It names no transport, so code that never answers a request can take it too.
 */
export type AppContext = {
  config: Config;
  db: Database;
  mailer: Mailer;
  sessions: SessionTokens;
  loginLimiter: LoginLimiter;
  /** Mails a stranger can trigger go to each address at most once per window (mail/recipient-cap.ts). */
  mailCap: RecipientCap;
  blobs: BlobStore;
  transcriber: Transcriber;
  transcriptionQueue: TranscriptionQueue;
  /** Reads scanned patient records in the background. */
  ocrQueue: OcrQueue;
  activeStatus: ActiveStatusCache;
  /** Consultations' parts, read again only when they changed (consultation_sessions/parts-cache.ts). */
  partsCache: PartsCache;
  textGenerator: TextGenerator;
  /** Which engines run and where they come from; settings › AI engines changes them (ai/engine-switch.ts). */
  engines: EngineSwitch;
  liveDocuments: LiveDocuments;
  /** Events between this server's processes (LISTEN/NOTIFY on PostgreSQL; in-process on the embedded database). */
  events: EventBus;
  /** Call after deleting patient data outside the retention sweep: on PGlite its bytes are scrubbed from the files soon. */
  requestScrub: () => void;
  /** Aborted when the server shuts down: background work stops waiting and lets go of the database. */
  shutdown: AbortSignal;
  /**
   * Aborted first, when the process is told to stop (before it stops listening): /healthz answers 503 so a proxy
   * sends no more, and open document streams end so their browsers reconnect through another process.
   */
  draining: AbortSignal;
  /** Background work still running (document generation), awaited at shutdown. */
  background: Set<Promise<unknown>>;
};
