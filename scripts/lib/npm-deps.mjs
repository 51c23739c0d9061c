import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { RUNTIME_MAJOR } from './runtime.mjs';

/**
 * npm's output without its engine warnings when npm itself runs on a Node older than the product's: those packages
 * run on the project's Node 24, which the same install brings, so one line says it instead of a screenful.
 */
export function quietEngineWarnings(stderr, npmNodeVersion) {
  const lines = stderr.split('\n');
  const kept = lines.filter((l) => !/^npm warn EBADENGINE\b/.test(l));
  const dropped = lines.length - kept.length;
  if (dropped && Number(npmNodeVersion.split('.')[0]) < RUNTIME_MAJOR) {
    kept.push(
      `npm ran on Node.js ${npmNodeVersion}; the product runs on its own Node.js ${RUNTIME_MAJOR}, installed just now, which the packages that asked for a newer Node get.`,
    );
  } else if (dropped) {
    return stderr;
  }
  return kept.join('\n');
}

/** Installs npm dependencies when node_modules is missing or older than the lock file. */
export function ensureNpmDependencies() {
  const marker = 'node_modules/.package-lock.json';
  const stale = !existsSync(marker) || (existsSync('package-lock.json') && statSync('package-lock.json').mtimeMs > statSync(marker).mtimeMs);
  if (!stale) return;
  console.log('Installing npm dependencies (a few minutes on the first start)…');
  // npm install, not npm ci: npm's lock files omit other platforms' optional binaries, which npm ci then refuses.
  const r = spawnSync('npm', ['install', '--no-audit', '--no-fund'], { stdio: ['inherit', 'inherit', 'pipe'], encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const out = quietEngineWarnings(r.stderr ?? '', process.versions.node).trim();
  if (out) console.error(out);
  if (r.status !== 0) throw new Error(`npm install failed${r.error ? ` (${r.error.message})` : ''}`);
}
