#!/usr/bin/env node
/**
 * `npm start`: installs what is missing, builds the web app when its sources changed, and starts the server
 * on the embedded defaults (PGlite in ./data, mail to ./data/outbox, offline engines). Settings: README.md.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ensureSystemPackages, OCR_PACKAGES, RUNTIME_PACKAGES } from './lib/system-packages.mjs';
import { ensureClinicalModel } from './lib/clinical-model.mjs';
import { ensureNpmDependencies } from './lib/npm-deps.mjs';
import { ensureWebBuild } from './lib/web-build.mjs';
import { ensureServerBuild, SERVER_ENTRY } from './lib/server-build.mjs';
import { runtimeNode } from './lib/runtime.mjs';
import { liveDataLock, startBlocker } from './lib/start-checks.mjs';

// A data folder or a port already in use: said at once, before installing or building anything, with what to do.
const blocker = await startBlocker(process.env);
if (blocker) {
  console.error(`\n  ${blocker}\n`);
  process.exit(1);
}
ensureNpmDependencies();
// Without them the server still starts; consultations then say that no speech engine is available.
ensureSystemPackages(RUNTIME_PACKAGES, 'The local speech engine');
ensureSystemPackages(OCR_PACKAGES, 'Reading scanned PDFs');
ensureClinicalModel();
// A worker serves no app: it neither waits for the web build nor rewrites dist/ under a running API process.
if (process.env.ROLE !== 'worker') ensureWebBuild();
ensureServerBuild();

const port = process.env.PORT ?? '8080';
// On the project's Node 24, also on the first start, when this script itself began on the machine's older Node;
// compiled, so that a start transpiles nothing (source maps keep error reports pointing at the TypeScript).
const server = spawn(runtimeNode(), ['--enable-source-maps', SERVER_ENTRY], { stdio: 'inherit', env: process.env });
server.on('error', (err) => {
  console.error(`The server could not be started (${err.message}): run npm install again.`);
  process.exit(1);
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 0));

// Say where to go, in plain words, once the server answers (a worker serves no app). On the embedded database the
// answer counts only once this server holds the data folder (it writes its pid and port there once listening):
// another server that took the port meanwhile must not be announced as this one.
const url = process.env.PUBLIC_URL ?? `http://localhost:${port}`;
const dataDir = path.resolve(process.env.DATA_DIR ?? './data');
const ours = () => Boolean(process.env.DATABASE_URL) || liveDataLock(dataDir)?.pid === server.pid;
for (let i = 0; i < (process.env.ROLE === 'worker' ? 0 : 120); i++) {
  await new Promise((r) => setTimeout(r, 500));
  try {
    const res = await fetch(`http://127.0.0.1:${port}/healthz`);
    if (res.ok && ours()) {
      console.log(`\n  Consultation Notes is running: open ${url}\n`);
      break;
    }
  } catch {
    // not up yet
  }
}
