/**
 * Builds the real app for a test file: PGlite in memory by default, or a fresh PostgreSQL database when
 * TEST_DATABASE_URL is set (the test runner starts a throwaway server). Mails and log lines are captured.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import pg from 'pg';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { openDatabase } from '../db/client.js';
import type { App } from '../http/context.js';
import type { AppContext } from '../app-context.js';
import type { Mail } from '../mail/mailer.js';
import type { Transcriber } from '../ai/transcriber.js';
import type { TextGenerator } from '../ai/text-generator.js';

export type TestApp = {
  app: App;
  ctx: AppContext;
  mails: Mail[];
  logs: string[];
  dataDir: string;
  close: () => Promise<void>;
};

export const usingPostgres = () => Boolean(process.env.TEST_DATABASE_URL);

async function createPostgresDatabase(adminUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

export async function createTestApp(
  env: Record<string, string> = {},
  opts: {
    transcriber?: Transcriber;
    textGenerator?: TextGenerator;
    /** A second API process on the PostgreSQL database of this one (same token secret); it drops nothing on close. */
    sharingDatabaseOf?: TestApp;
  } = {},
): Promise<TestApp> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cn-test-'));
  const shared = opts.sharingDatabaseOf?.ctx.config;
  if (shared && !shared.databaseUrl) throw new Error('only a PostgreSQL database can be shared by two test apps');
  const pgDb = !shared && process.env.TEST_DATABASE_URL ? await createPostgresDatabase(process.env.TEST_DATABASE_URL) : undefined;
  const config = loadConfig({
    DATA_DIR: dataDir,
    WEB_DIST: path.join(dataDir, 'no-web-build'),
    PUBLIC_URL: 'http://clinic.test',
    LOG_LEVEL: 'info',
    RETENTION_SWEEP_SECONDS: '0',
    ...(pgDb ? { DATABASE_URL: pgDb.url } : {}),
    ...(shared ? { DATABASE_URL: shared.databaseUrl!, JWT_SECRET: shared.jwtSecret } : {}),
    ...env,
  });
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.databaseUrl ? dataDir : ':memory:' });
  const mails: Mail[] = [];
  const logs: string[] = [];
  const logStream = new Writable({
    write(chunk, _enc, cb) {
      logs.push(String(chunk));
      cb();
    },
  });
  const { app, ctx } = await buildApp({
    config,
    db: database.db,
    logStream,
    mailer: { send: async (m) => void mails.push(m) },
    transcriber: opts.transcriber,
    textGenerator: opts.textGenerator,
  });
  await app.ready();
  return {
    app,
    ctx,
    mails,
    logs,
    dataDir,
    close: async () => {
      await app.close();
      await database.close();
      await pgDb?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
