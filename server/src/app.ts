/**
 * Builds the HTTP app from settings and an open database. Plugins load in a fixed order:
 * external (security, rate limits) → app (errors, client version) → routes → web app fallback.
 */
import { createRecipientCap } from './mail/recipient-cap.js';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { createLoginLimiter } from './auth/login-limiter.js';
import { createSessionTokens } from './auth/session-tokens.js';
import type { Config } from './config.js';
import type { Database } from './db/client.js';
import { registerClientVersionCheck } from './http/client-version.js';
import type { App } from './http/context.js';
import type { AppContext } from './app-context.js';
import { registerErrorHandler } from './http/errors.js';
import { logRedactPaths, redactUrl } from './http/log-redaction.js';
import { registerInputGuards } from './http/input-guards.js';
import { serializeErrorSafely } from './errors/safe-errors.js';
import { registerAuditLog } from './audit/audit-hook.js';
import { openAuditKeys } from './audit/audit-key.js';
import { registerRoutes } from './http/routes.js';
import { registerOpenApi } from './http/openapi.js';
import { healthzRoutes } from './modules/healthz/routes.js';
import { registerOperations } from './http/operations.js';
import { registerRequestIds, requestIdMixin, requestIdOptions } from './http/request-id.js';
import { queueElsewhere, wakeOnRequest } from './jobs/queue-wake.js';
import { registerSecurity } from './http/security.js';
import { loadWebShell, registerWebApp } from './http/web-app.js';
import { createSharedRateLimitStore } from './http/shared-rate-limit.js';
import { createMailer, type Mailer } from './mail/mailer.js';
import { createEngineSwitch } from './ai/engine-switch.js';
import { savedEngineSource } from './modules/ai_engines/saved-engines.js';
import type { Transcriber } from './ai/transcriber.js';
import { startRetentionJob } from './jobs/retention.js';
import { startTranscriptionWorkers } from './jobs/transcription-worker.js';
import { startOcrWorker } from './jobs/pdf-ocr.js';
import { openBlobStore } from './storage/encrypted-blob-store.js';
import { plaintextCheckFromDatabase } from './storage/blob-records.js';
import { createPartsCache } from './modules/consultation_sessions/parts-cache.js';
import { createActiveStatusCache } from './modules/consultation_sessions/active-status-cache.js';
import { createLiveDocuments } from './modules/generated_documents/live-documents.js';
import { createLocalEventBus, createPostgresEventBus } from './events/event-bus.js';
import { describeErrorSafely } from './errors/safe-errors.js';
import { startGenerationTakeover, takeOverGenerations, type GenerationTakeover } from './modules/generated_documents/takeover.js';
import { failInterruptedScreenings, STALE_SCREENING_MS } from './jobs/screening.js';
import type { TextGenerator } from './ai/text-generator.js';
import compress from '@fastify/compress';
import { constants as zlibConstants } from 'node:zlib';

export type BuildOptions = {
  config: Config;
  db: Database;
  /** Where log lines go (tests capture them); standard output when absent. */
  logStream?: NodeJS.WritableStream;
  mailer?: Mailer;
  /** Replace the engines chosen from the settings (tests use scripted ones). */
  transcriber?: Transcriber;
  textGenerator?: TextGenerator;
};

/** How long a stopping process waits for its background work before it stops listening (under Fastify's 10 s). */
const STOP_WAIT_MS = 8000;

/** How soon a change of AI engine made through another process reaches this one. */
const ENGINE_SETTINGS_REFRESH_MS = 10_000;

export async function buildApp(opts: BuildOptions): Promise<{ app: App; ctx: AppContext }> {
  const { config } = opts;
  const app = Fastify({
    logger: {
      level: config.logLevel,
      ...(opts.logStream ? { stream: opts.logStream } : {}),
      redact: { paths: logRedactPaths, censor: '[redacted]' },
      // Each line logged while a request is served, or by work it started, carries its id (http/request-id.ts).
      mixin: requestIdMixin,
      serializers: {
        // Database errors carry the values of their query (patient text): logged without them.
        err: serializeErrorSafely,
        req: (req: { method: string; url: string; socket?: { remoteAddress?: string } }) => ({
          method: req.method,
          url: redactUrl(req.url),
          remoteAddress: req.socket?.remoteAddress,
        }),
      },
    },
    trustProxy: config.trustProxy,
    ...requestIdOptions,
    // While stopping, a request that still reaches this process on an open connection is answered, not refused
    // with a 503: the rolling restart of one process must not show the clients an error.
    return503OnClosing: false,
    bodyLimit: 1024 * 1024,
    routerOptions: { ignoreTrailingSlash: true },
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerRequestIds(app);

  // Blobs from before encryption (while the migration is pending) must match what their rows recorded.
  const blobs = await openBlobStore(config, { checkPlaintext: plaintextCheckFromDatabase(opts.db) });
  const engines = await createEngineSwitch({
    config,
    saved: savedEngineSource(opts.db),
    keys: blobs.keys,
    log: app.log,
    fixed: { transcriber: opts.transcriber, textGenerator: opts.textGenerator },
    refreshEveryMs: ENGINE_SETTINGS_REFRESH_MS,
  });
  const transcriber = engines.transcriber;
  const events = config.databaseUrl ? await createPostgresEventBus(config.databaseUrl, config.jwtSecret, app.log) : createLocalEventBus();
  const activeStatus = createActiveStatusCache(events);
  // The queues run where the role says: in this process (all, worker) or in the workers, woken through the bus (api).
  const runsQueues = config.role !== 'api';
  const servesApi = config.role !== 'worker';
  const wakeFailed = (err: unknown) => app.log.warn({ err: describeErrorSafely(err) }, 'the workers were not woken; they find the work at their next poll');
  const transcriptionQueue = runsQueues
    ? startTranscriptionWorkers({ db: opts.db, blobs, transcriber, workers: config.transcriptionWorkers, log: app.log, leaseSeconds: config.jobLeaseSeconds })
    : queueElsewhere(events, 'transcription', wakeFailed);
  const ocrQueue = runsQueues
    ? await startOcrWorker({ db: opts.db, blobs, log: app.log, onlyProcess: !config.databaseUrl })
    : queueElsewhere(events, 'ocr', wakeFailed);
  const wakeSubscriptions =
    config.role === 'worker' ? [wakeOnRequest(events, 'transcription', transcriptionQueue), wakeOnRequest(events, 'ocr', ocrQueue)] : [];
  const retention = runsQueues
    ? startRetentionJob({
        db: opts.db,
        blobs,
        everySeconds: config.retentionSweepSeconds,
        abandonedAfterHours: config.abandonedSessionHours,
        conversationMinutes: config.retentionMinutes,
        // PGlite keeps deleted rows' bytes in its files until they are rewritten; PostgreSQL is left to autovacuum.
        scrubFiles: !config.databaseUrl,
        // A worker has no phones polling it: the bus carries the change to the API processes.
        onEnded: (userIds) => userIds.forEach((id) => activeStatus.forget(id)),
        log: app.log,
      })
    : { stop: async () => undefined, requestScrub: () => undefined };
  const shutdown = new AbortController();
  const draining = new AbortController();
  const background = new Set<Promise<unknown>>();
  let takeover: GenerationTakeover | undefined;
  let idleCloser: NodeJS.Timeout | undefined;
  // Stopping, in order. While still listening: say so (/healthz 503, streams end, answers close their connection),
  // hand the documents being written to another process, and finish or hand back the queued work. Then Fastify stops
  // listening and waits for the requests in flight; connections left idle are closed as they become so (a
  // keep-alive connection would otherwise hold the process for its whole timeout).
  app.addHook('preClose', async () => {
    draining.abort();
    shutdown.abort();
    idleCloser = setInterval(() => app.server.closeIdleConnections?.(), 100);
    // Bounded: Fastify gives a hook 10 s. A part still being transcribed is handed back within STOP_GRACE_MS; a
    // document whose engine has not answered at all is left to its lease, and another process takes it over.
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled([transcriptionQueue.stop(), ocrQueue.stop(), retention.stop(), takeover?.stop(), ...background]),
      new Promise((resolve) => (timer = setTimeout(resolve, STOP_WAIT_MS))),
    ]);
    clearTimeout(timer);
  });
  app.addHook('onSend', async (_request, reply) => {
    if (draining.signal.aborted) reply.header('connection', 'close');
  });
  app.addHook('onClose', async () => {
    clearInterval(idleCloser);
    engines.stop();
    for (const unsubscribe of wakeSubscriptions) unsubscribe();
    await events.close();
  });
  const ctx: AppContext = {
    config,
    db: opts.db,
    blobs,
    transcriber,
    transcriptionQueue,
    ocrQueue,
    activeStatus,
    partsCache: createPartsCache(),
    textGenerator: engines.textGenerator,
    engines,
    liveDocuments: createLiveDocuments(events, (err) => app.log.warn({ err: describeErrorSafely(err) }, 'a document event was not sent')),
    events,
    requestScrub: retention.requestScrub,
    shutdown: shutdown.signal,
    draining: draining.signal,
    background,
    mailer: opts.mailer ?? createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, dataDir: config.dataDir, log: app.log }),
    sessions: createSessionTokens(opts.db, { secret: config.jwtSecret, ttlSeconds: config.tokenTtlSeconds, events }),
    mailCap: createRecipientCap(),
    loginLimiter: createLoginLimiter(opts.db, { secret: config.jwtSecret, maxFailures: config.loginFailuresPerEmail }),
  };

  // First: it sees each route registered, watches every request from its first hook (a client may close the
  // connection at any point) and records every access to patient data (audit/).
  registerAuditLog(app, opts.db, openAuditKeys(config));
  // The web app's page, read once: served as it was read, and its inline scripts allowed by the hashes of that copy.
  const shell = loadWebShell(config.webDist, config.sentryDsn);
  await registerSecurity(app, {
    corsOrigins: config.corsOrigins,
    sentryDsn: config.sentryDsn,
    integrationOrigins: config.integrationOrigins,
    inlineScriptHashes: shell?.scriptHashes ?? [],
  });
  // Counted in the database so that several API processes share one allowance per client.
  await app.register(rateLimit, { global: false, store: createSharedRateLimitStore(opts.db, config.jwtSecret) });
  await app.register(multipart, { limits: { fileSize: config.maxAudioChunkBytes, files: 1 } });
  registerErrorHandler(app);
  registerInputGuards(app);
  registerClientVersionCheck(app, config.minClientVersion);
  // Before any route it describes (it records each one as it is added); a worker serves no API to describe.
  if (servesApi) await registerOpenApi(app);
  // Probes and metrics for the operator, in every role (a worker too answers them).
  registerOperations(app, ctx);
  if (!servesApi) {
    // A worker answers only its health checks and metrics (for the orchestrator), not the API or the web app.
    healthzRoutes(app, ctx);
    return { app, ctx };
  }
  // API answers compressed for browsers that accept it (a consultation's detail, the types, exports shrink to a
  // fifth). JSON and CSV only: the app's files are compressed once at build time, a document's live stream
  // (text/event-stream) must reach the browser as written, and recorded audio does not shrink. Brotli at a low
  // level: these are made per request.
  await app.register(compress, {
    global: true,
    encodings: ['br', 'gzip'],
    threshold: 1024,
    customTypes: /^application\/(?:json|fhir\+json)(?:;|$)|^text\/csv(?:;|$)/,
    brotliOptions: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 4 } },
  });
  registerRoutes(app, ctx);
  await registerWebApp(app, { webDist: config.webDist, shell });
  // Documents and screenings are written by the API processes (their browsers follow them live). Documents whose
  // writer died are written again by a live process: at once with PGlite (this process is the only one), once
  // their lease has passed with PostgreSQL (another instance may be writing them).
  await takeOverGenerations(ctx, { all: !config.databaseUrl });
  takeover = startGenerationTakeover(ctx, { everyMs: config.generationSweepMs, log: app.log });
  // With PostgreSQL another instance may be running them; with PGlite this process is the only one.
  await failInterruptedScreenings(ctx, config.databaseUrl ? STALE_SCREENING_MS : 0);
  return { app, ctx };
}
