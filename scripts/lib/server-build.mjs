import { execSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, utimesSync } from 'node:fs';
import path from 'node:path';

/** The compiled server's entry: production runs it with plain Node, with nothing to transpile at start. */
export const SERVER_ENTRY = '.build/server/src/main.js';
const SOURCES = ['server/src', 'contract', 'server/tsconfig.json', 'server/tsconfig.build.json', 'package-lock.json'];

function newestMtime(p) {
  if (!existsSync(p)) return 0;
  const st = statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const entry of readdirSync(p)) newest = Math.max(newest, newestMtime(path.join(p, entry)));
  return newest;
}

/** True when the compiled server is newer than every source it is made from. */
export function serverBuildFresh() {
  return existsSync(SERVER_ENTRY) && statSync(SERVER_ENTRY).mtimeMs > Math.max(...SOURCES.map(newestMtime));
}

/** Compiles the server (TypeScript to JavaScript in .build/) unless the compiled copy is newer than its sources. */
export function ensureServerBuild({ force = false } = {}) {
  if (!force && serverBuildFresh()) return;
  console.log('Compiling the server…');
  execSync('npx tsc -p server/tsconfig.build.json', { stdio: 'inherit' });
  // tsc leaves an unchanged file's output as it was: the entry's time says when the whole copy was last checked.
  const now = new Date();
  utimesSync(SERVER_ENTRY, now, now);
}
