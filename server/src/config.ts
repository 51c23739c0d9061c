/**
 * Every setting of the server, read once from the environment with the embedded defaults of README.md.
 * Secrets that must survive restarts (JWT_SECRET) are generated once and kept in DATA_DIR when unset.
 */
import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { parseMasterKey } from './storage/master-key-format.js';
import { parseAuditKey } from './audit/audit-key-format.js';
import type { S3Settings } from './storage/s3-blob-driver.js';
import { parseAllowList } from './http/ip-allow-list.js';

const boolFromEnv = z
  .enum(['true', 'false', '1', '0', ''])
  .optional()
  .transform((v) => v === 'true' || v === '1');

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().optional(),
  ROLE: z.enum(['all', 'api', 'worker']).default('all'),
  JOB_LEASE_SECONDS: z.coerce.number().int().min(3).max(3600).default(60),
  FHIR_ALLOW_PRIVATE_NETWORKS: boolFromEnv,
  PUBLIC_URL: z.string().url().optional(),
  JWT_SECRET: z.string().min(32, 'JWT_SECRET must be at least 32 characters').optional(),
  TOKEN_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(5)
    .default(12 * 60 * 60),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Consultation Notes <no-reply@localhost>'),
  /** Where the support form's messages go (credits, problems, custom documents). */
  SUPPORT_EMAIL: z.string().email().default('support@localhost.localdomain'),
  SENTRY_DSN: z.string().optional(),
  CORS_ORIGINS: z.string().default(''),
  /** Origins of the systems (a clinic's record system) allowed to send the `register_consultation` window message. */
  INTEGRATION_ORIGINS: z.string().default(''),
  MIN_CLIENT_VERSION: z.string().default('0.0.20'),
  /** The HMAC key of sign-in tokens from other systems: as long as JWT_SECRET, or a short one is guessed offline. */
  INTEGRATION_KEY: z
    .string()
    .optional()
    .refine((v) => !v || v.length >= 32, 'INTEGRATION_KEY must be at least 32 characters, e.g. from: openssl rand -hex 32'),
  LOGIN_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(20),
  LOGIN_FAILURES_PER_EMAIL: z.coerce.number().int().min(1).default(10),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST: z.string().default('./dist'),
  TRUST_PROXY: boolFromEnv,
  /** Who may read GET /metrics: comma-separated IPs and CIDR networks, matched against the TCP peer (http/metrics.ts). */
  METRICS_ALLOW: z
    .string()
    .default('127.0.0.1,::1')
    .superRefine((v, check) => {
      try {
        parseAllowList(v);
      } catch (err) {
        check.addIssue({ code: 'custom', message: `METRICS_ALLOW: ${(err as Error).message} (give IPs or CIDR networks, comma-separated)` });
      }
    }),
  /** How long a finished consultation's data is kept; fractions are allowed (a browser test uses seconds). */
  RETENTION_MINUTES: z.coerce.number().positive().default(60),
  /** How often expired consultations are deleted; 0 turns the sweep off (tests drive it themselves). */
  RETENTION_SWEEP_SECONDS: z.coerce.number().int().min(0).default(60),
  /** The embedded database's automatic backups (jobs/local-backups.ts): how often, 0 for never; how many are kept; where. */
  BACKUP_EVERY_HOURS: z.coerce
    .number()
    .min(0)
    .max(24 * 31)
    .default(24),
  BACKUP_KEEP: z.coerce.number().int().min(1).max(1000).default(7),
  BACKUP_DIR: z.string().optional(),
  /** A consultation never finished, with no audio part or change for this long, is deleted like an expired one. */
  ABANDONED_SESSION_HOURS: z.coerce.number().positive().default(12),
  MAX_AUDIO_CHUNK_MB: z.coerce.number().min(0.1).max(200).default(25),
  TRANSCRIPTION_ENGINE: z.enum(['auto', 'local', 'whisper', 'openai', 'none']).default('auto'),
  WHISPER_MODEL_PATH: z.string().optional(),
  TRANSCRIPTION_MODEL: z.string().default('whisper-1'),
  OPENAI_BASE_URL: z.string().url().optional(),
  OPENAI_API_KEY: z.string().optional(),
  LOCAL_SPEECH_MODEL: z.enum(['clinical', 'generic']).default('generic'),
  LOCAL_SPEECH_LM: z.string().optional(),
  LOCAL_SPEECH_DICT: z.string().optional(),
  LOCAL_SPEECH_PROCESSES: z.enum(['long-lived', 'per-part']).default('long-lived'),
  // One per core by default (the local engine keeps a core busy while it decodes a part), at least two (a remote
  // engine's calls mostly wait on the network) and at most eight (each holds a decoder and a decrypted part).
  TRANSCRIPTION_WORKERS: z.coerce
    .number()
    .int()
    .min(0)
    .max(32)
    .default(Math.min(8, Math.max(2, availableParallelism()))),
  INITIAL_CREDITS: z.coerce.number().int().min(0).default(100),
  GENERATION_ENGINE: z.enum(['auto', 'openai', 'local', 'composer']).default('auto'),
  LLAMA_MODEL_PATH: z.string().optional(),
  GENERATION_MODEL: z.string().default('gpt-4o-mini'),
  /** Other models POST /generate may ask for by name (comma-separated); any other name gets GENERATION_MODEL. */
  GENERATION_MODELS_ALLOWED: z.string().default(''),
  GENERATION_TEMPERATURE: z.coerce.number().min(0).max(2).default(0.2),
  /** Where settings › AI engines looks for engines running on this machine (Ollama, llama.cpp, vLLM, LM Studio…). */
  AI_DISCOVERY_URLS: z.string().default('http://127.0.0.1:11434,http://127.0.0.1:8080,http://127.0.0.1:8000,http://127.0.0.1:1234,http://127.0.0.1:5001'),
  GENERATION_TIMEOUT_SECONDS: z.coerce.number().int().min(1).default(120),
  /**
   * How long after a finish the main document waits for the parts the client said it recorded (without a count,
   * for the stored parts' transcripts, from when it starts); fractions allowed.
   */
  PART_WAIT_SECONDS: z.coerce.number().positive().default(600),
  /** A document being written is another process's to take over once its writer has not renewed it for this long. */
  GENERATION_LEASE_SECONDS: z.coerce.number().positive().default(40),
  /** How often each process looks for documents whose writer died; 0 turns the sweep off. */
  GENERATION_SWEEP_SECONDS: z.coerce.number().min(0).default(15),
  /** An S3-compatible bucket for the files (recordings, records, examples) instead of DATA_DIR/files. */
  S3_BUCKET: z.string().optional(),
  /** The service's address; empty for AWS itself. */
  S3_ENDPOINT: z.string().url().optional(),
  S3_REGION: z.string().default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  /** endpoint/bucket/key addresses, which MinIO and most self-hosted services need. */
  S3_FORCE_PATH_STYLE: boolFromEnv,
  /** Keys go under this prefix, so one bucket can hold several installations. */
  S3_PREFIX: z.string().default(''),
  /** The provider's server-side encryption on top of ours: AES256 or aws:kms (with S3_SSE_KMS_KEY_ID). */
  S3_SSE: z.enum(['AES256', 'aws:kms']).optional(),
  S3_SSE_KMS_KEY_ID: z.string().optional(),
  /** The master key of the blobs at rest (storage/master-keys.ts); without it a key file in DATA_DIR is used. */
  ENCRYPTION_KEY: z
    .string()
    .optional()
    .refine(
      (v) => !v || Boolean(parseMasterKey(v)),
      'ENCRYPTION_KEY must be 32 random bytes written as base64 (44 characters) or hex (64 digits), e.g. from: openssl rand -base64 32',
    ),
  /** Older master keys, comma-separated, still read (never written with) until rotate-key has rewrapped every blob. */
  ENCRYPTION_KEY_PREVIOUS: z
    .string()
    .optional()
    .refine(
      (v) => !v || v.split(',').every((k) => !k.trim() || Boolean(parseMasterKey(k))),
      'ENCRYPTION_KEY_PREVIOUS must be comma-separated keys of 32 bytes in base64 or hex',
    ),
  /** The key of the audit log's hash chain (audit/audit-key.ts); without it a key file in DATA_DIR is used. */
  AUDIT_KEY: z
    .string()
    .optional()
    .refine((v) => !v || Boolean(parseAuditKey(v)), 'AUDIT_KEY must be at least 32 random bytes written as base64 or hex, e.g. from: openssl rand -base64 32'),
});

export type Config = {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  publicUrl: string;
  jwtSecret: string;
  tokenTtlSeconds: number;
  smtpUrl: string | undefined;
  mailFrom: string;
  sentryDsn: string | undefined;
  corsOrigins: string[];
  integrationOrigins: string[];
  minClientVersion: string;
  integrationKey: string | undefined;
  loginRateLimitPerMinute: number;
  loginFailuresPerEmail: number;
  logLevel: string;
  webDist: string;
  trustProxy: boolean;
  /** METRICS_ALLOW as written (http/ip-allow-list.ts reads it). */
  metricsAllow: string;
  retentionMinutes: number;
  retentionSweepSeconds: number;
  /** Automatic backups of the embedded database (not with DATABASE_URL): 0 hours turns them off. */
  backups: { everyHours: number; keep: number; dir: string };
  abandonedSessionHours: number;
  supportEmail: string;
  maxAudioChunkBytes: number;
  transcriptionEngine: 'auto' | 'local' | 'whisper' | 'openai' | 'none';
  whisperModelPath: string | undefined;
  transcriptionModel: string;
  openaiBaseUrl: string | undefined;
  openaiApiKey: string | undefined;
  localSpeechModel: 'clinical' | 'generic';
  localLanguageModel: string | undefined;
  localDictionary: string | undefined;
  localSpeechProcesses: 'long-lived' | 'per-part';
  transcriptionWorkers: number;
  initialCredits: number;
  generationEngine: 'auto' | 'openai' | 'local' | 'composer';
  llamaModelPath: string | undefined;
  generationModel: string;
  generationModelsAllowed: string[];
  generationTemperature: number;
  generationTimeoutMs: number;
  aiDiscoveryUrls: string[];
  partWaitMs: number;
  generationLeaseMs: number;
  generationSweepMs: number;
  encryptionKey: Buffer | undefined;
  previousEncryptionKeys: Buffer[];
  auditKey: Buffer | undefined;
  /** Where the files go when not in DATA_DIR/files. */
  s3: S3Settings | undefined;
  /**
   * What this process does: `all` (the default, one process serving everything), `api` (HTTP only: the queues
   * are left to workers, which it wakes through the event bus) or `worker` (transcription, OCR and the retention
   * sweep; HTTP only for the probes and /metrics). Split roles need PostgreSQL: the embedded database belongs to one process.
   */
  role: 'all' | 'api' | 'worker';
  /** How long a transcription claim holds without renewal: how long the part of a worker that died waits. */
  jobLeaseSeconds: number;
  /**
   * Whether organizations' FHIR servers may be on private, loopback or link-local addresses and speak plain http
   * (a record system inside the hospital's network). Off: https to public addresses only, so an organization
   * admin cannot aim the server at its own network.
   */
  fhirAllowPrivateNetworks: boolean;
};

export class ConfigError extends Error {}

/**
 * Any setting may come from a file instead, named by the setting's name with `_FILE` (JWT_SECRET_FILE=/run/secrets/jwt),
 * as container secrets are given: a secret then stays out of the environment, which `docker inspect` and crash
 * reports show. The file's content is taken without its trailing line break; setting both is a mistake.
 */
export function settingsFromFiles(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = { ...env };
  for (const name of Object.keys(envSchema.shape)) {
    const file = env[`${name}_FILE`];
    if (!file) continue;
    if (env[name]) throw new ConfigError(`Invalid settings:\n  ${name} and ${name}_FILE are both set: keep one`);
    try {
      out[name] = readFileSync(file, 'utf8').replace(/\r?\n$/, '');
    } catch (err) {
      throw new ConfigError(`Invalid settings:\n  ${name}_FILE: ${file} cannot be read (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
    }
  }
  return out;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(settingsFromFiles(env));
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid settings:\n  ${lines.join('\n  ')}`);
  }
  const e = parsed.data;
  if (e.ROLE !== 'all' && !e.DATABASE_URL) {
    throw new ConfigError(
      `Invalid settings:\n  ROLE=${e.ROLE} needs DATABASE_URL (PostgreSQL): the embedded database serves one process, which does everything`,
    );
  }
  const dataDir = path.resolve(e.DATA_DIR);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL || undefined,
    role: e.ROLE,
    jobLeaseSeconds: e.JOB_LEASE_SECONDS,
    fhirAllowPrivateNetworks: e.FHIR_ALLOW_PRIVATE_NETWORKS,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    jwtSecret: e.JWT_SECRET ?? readOrCreateSecret(dataDir, 'jwt-secret'),
    tokenTtlSeconds: e.TOKEN_TTL_SECONDS,
    smtpUrl: e.SMTP_URL || undefined,
    mailFrom: e.MAIL_FROM,
    sentryDsn: e.SENTRY_DSN || undefined,
    corsOrigins: e.CORS_ORIGINS.split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    integrationOrigins: e.INTEGRATION_ORIGINS.split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    minClientVersion: e.MIN_CLIENT_VERSION,
    integrationKey: e.INTEGRATION_KEY || undefined,
    loginRateLimitPerMinute: e.LOGIN_RATE_LIMIT_PER_MINUTE,
    loginFailuresPerEmail: e.LOGIN_FAILURES_PER_EMAIL,
    logLevel: e.LOG_LEVEL,
    webDist: path.resolve(e.WEB_DIST),
    trustProxy: e.TRUST_PROXY,
    metricsAllow: e.METRICS_ALLOW,
    retentionMinutes: e.RETENTION_MINUTES,
    retentionSweepSeconds: e.RETENTION_SWEEP_SECONDS,
    backups: { everyHours: e.BACKUP_EVERY_HOURS, keep: e.BACKUP_KEEP, dir: path.resolve(e.BACKUP_DIR || path.join(dataDir, 'backups')) },
    abandonedSessionHours: e.ABANDONED_SESSION_HOURS,
    supportEmail: e.SUPPORT_EMAIL,
    maxAudioChunkBytes: Math.round(e.MAX_AUDIO_CHUNK_MB * 1024 * 1024),
    transcriptionEngine: e.TRANSCRIPTION_ENGINE,
    whisperModelPath: e.WHISPER_MODEL_PATH || undefined,
    transcriptionModel: e.TRANSCRIPTION_MODEL,
    openaiBaseUrl: e.OPENAI_BASE_URL,
    openaiApiKey: e.OPENAI_API_KEY || undefined,
    localSpeechModel: e.LOCAL_SPEECH_MODEL,
    localLanguageModel: e.LOCAL_SPEECH_LM,
    localDictionary: e.LOCAL_SPEECH_DICT,
    localSpeechProcesses: e.LOCAL_SPEECH_PROCESSES,
    transcriptionWorkers: e.TRANSCRIPTION_WORKERS,
    initialCredits: e.INITIAL_CREDITS,
    generationEngine: e.GENERATION_ENGINE,
    llamaModelPath: e.LLAMA_MODEL_PATH || undefined,
    generationModel: e.GENERATION_MODEL,
    generationModelsAllowed: e.GENERATION_MODELS_ALLOWED.split(',')
      .map((m) => m.trim())
      .filter(Boolean),
    generationTemperature: e.GENERATION_TEMPERATURE,
    generationTimeoutMs: e.GENERATION_TIMEOUT_SECONDS * 1000,
    aiDiscoveryUrls: e.AI_DISCOVERY_URLS.split(',')
      .map((s) => s.trim())
      .filter((s) => URL.canParse(s)),
    partWaitMs: e.PART_WAIT_SECONDS * 1000,
    generationLeaseMs: e.GENERATION_LEASE_SECONDS * 1000,
    generationSweepMs: e.GENERATION_SWEEP_SECONDS * 1000,
    encryptionKey: e.ENCRYPTION_KEY ? parseMasterKey(e.ENCRYPTION_KEY) : undefined,
    previousEncryptionKeys: (e.ENCRYPTION_KEY_PREVIOUS ?? '').split(',').flatMap((k) => parseMasterKey(k) ?? []),
    auditKey: e.AUDIT_KEY ? parseAuditKey(e.AUDIT_KEY) : undefined,
    s3: s3Settings(e),
  };
}

function s3Settings(e: z.infer<typeof envSchema>): S3Settings | undefined {
  if (!e.S3_BUCKET) {
    if (e.S3_ENDPOINT || e.S3_ACCESS_KEY_ID) throw new ConfigError('Invalid settings:\n  S3_BUCKET: required with S3_ENDPOINT or S3_ACCESS_KEY_ID');
    return undefined;
  }
  if (Boolean(e.S3_ACCESS_KEY_ID) !== Boolean(e.S3_SECRET_ACCESS_KEY))
    throw new ConfigError('Invalid settings:\n  S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together');
  // Every process writing to the bucket must encrypt with the same key: a key file of one machine's own would
  // make its recordings unreadable to the others, and lost with that machine.
  if (!e.ENCRYPTION_KEY)
    throw new ConfigError('Invalid settings:\n  S3_BUCKET needs ENCRYPTION_KEY (the same on every process), e.g. from: openssl rand -base64 32');
  if (e.S3_SSE_KMS_KEY_ID && e.S3_SSE !== 'aws:kms') throw new ConfigError('Invalid settings:\n  S3_SSE_KMS_KEY_ID needs S3_SSE=aws:kms');
  const prefix = e.S3_PREFIX.replace(/^\/+/, '');
  return {
    bucket: e.S3_BUCKET,
    endpoint: e.S3_ENDPOINT,
    region: e.S3_REGION,
    credentials: e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY ? { accessKeyId: e.S3_ACCESS_KEY_ID, secretAccessKey: e.S3_SECRET_ACCESS_KEY } : undefined,
    forcePathStyle: e.S3_FORCE_PATH_STYLE,
    prefix: prefix && !prefix.endsWith('/') ? `${prefix}/` : prefix,
    serverSideEncryption: e.S3_SSE,
    kmsKeyId: e.S3_SSE_KMS_KEY_ID,
  };
}

function readOrCreateSecret(dataDir: string, name: string): string {
  const file = path.join(dataDir, name);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret + '\n', { mode: 0o600 });
  chmodSync(file, 0o600);
  return secret;
}
