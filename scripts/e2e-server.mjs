#!/usr/bin/env node
/**
 * Starts the real server on the production build for the browser tests, with a fresh data folder
 * (.tmp/e2e/<name>) so every run begins from an empty database. Extra settings come as KEY=VALUE arguments.
 * Signals are forwarded, so stopping this script stops the server.
 * Usage: node scripts/e2e-server.mjs <name> <port> [KEY=VALUE…]
 */
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { SERVER_ENTRY, serverBuildFresh } from './lib/server-build.mjs';

const [name, port, ...settings] = process.argv.slice(2);
const dataDir = path.resolve('.tmp/e2e', name);
// E2E_KEEP_DATA=1 restarts on the same data (a test restarting its server); otherwise every run starts empty.
if (!process.env.E2E_KEEP_DATA) rmSync(dataDir, { recursive: true, force: true });
mkdirSync(dataDir, { recursive: true });
const env = {
  ...process.env,
  DATA_DIR: dataDir,
  PORT: port,
  HOST: '127.0.0.1',
  PUBLIC_URL: `http://localhost:${port}`,
  WEB_DIST: 'dist',
  LOG_LEVEL: 'warn',
  LOGIN_RATE_LIMIT_PER_MINUTE: '200',
  ...Object.fromEntries(settings.map((s) => s.split(/=(.*)/s).slice(0, 2))),
};
// The compiled server, as production runs it (npm test compiles it first); from source when it is out of date.
const entry = serverBuildFresh() ? ['--enable-source-maps', SERVER_ENTRY] : ['--import', 'tsx', 'server/src/main.ts'];
const server = spawn(process.execPath, entry, { stdio: 'inherit', env });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 0));
