import { execSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The compiled server's entry: production runs it with plain Node, with nothing to transpile at start. */
export const SERVER_ENTRY = '.build/server/src/main.js';
/** What the compiled copy was made from: the hash of every source's path and content (not their file times). */
const STAMP = '.build/sources.sha256';
const LOCK = '.build-lock';
const SOURCES = ['server/src', 'contract', 'server/tsconfig.json', 'server/tsconfig.build.json', 'package-lock.json'];

function files(p) {
  if (!existsSync(p)) return [];
  return statSync(p).isDirectory()
    ? readdirSync(p)
        .sort()
        .flatMap((entry) => files(path.join(p, entry)))
    : [p];
}

/** Changes with any source's content, however its files were copied (rsync -a, tar and cp -p keep old times). */
export function sourcesHash() {
  const hash = createHash('sha256');
  for (const file of SOURCES.flatMap(files)) hash.update(`${file}\0`).update(readFileSync(file)).update('\0');
  return hash.digest('hex');
}

/** True when the compiled server was made from exactly the sources there are now. */
export function serverBuildFresh() {
  return existsSync(SERVER_ENTRY) && existsSync(STAMP) && readFileSync(STAMP, 'utf8').trim() === sourcesHash();
}

/**
 * Compiles the server (TypeScript to JavaScript in .build/) unless the compiled copy was made from these sources.
 * One process compiles at a time (an API and a worker started together on one machine): the other waits, then
 * finds the copy fresh.
 */
export function ensureServerBuild({ force = false } = {}) {
  if (!force && serverBuildFresh()) return;
  for (let waited = 0; ; waited += 200) {
    try {
      mkdirSync(LOCK);
      break;
    } catch {
      // A lock left by a process that died while compiling is taken over after two minutes.
      if (waited > 120_000 || Date.now() - statSync(LOCK, { throwIfNoEntry: false })?.mtimeMs > 120_000) {
        rmSync(LOCK, { recursive: true, force: true });
        continue;
      }
      execSync('sleep 0.2');
    }
  }
  try {
    if (!force && serverBuildFresh()) return;
    // On standard error, so that a command's own output (npm run admin) stays what it prints.
    console.error('Compiling the server…');
    const hash = sourcesHash();
    execSync('npx tsc -p server/tsconfig.build.json', { stdio: ['ignore', 2, 2] });
    writeFileSync(STAMP, `${hash}\n`);
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}
