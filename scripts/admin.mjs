#!/usr/bin/env node
/**
 * `npm run admin -- <command> …`: support's commands (server/src/admin/cli.ts), run like the server itself: from
 * the compiled copy, compiled first when the sources changed, on the project's Node; nothing is transpiled per call.
 */
import { spawn } from 'node:child_process';
import { ensureServerBuild } from './lib/server-build.mjs';
import { runtimeNode } from './lib/runtime.mjs';

ensureServerBuild();
const cli = spawn(runtimeNode(), ['--enable-source-maps', '.build/server/src/admin/cli.js', ...process.argv.slice(2)], { stdio: 'inherit', env: process.env });
cli.on('error', (err) => {
  console.error(`The admin command could not be started (${err.message}): run npm install again.`);
  process.exit(1);
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => cli.kill(signal));
cli.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
