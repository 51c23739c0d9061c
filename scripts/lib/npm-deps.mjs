import { execSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';

/** Installs npm dependencies when node_modules is missing or older than the lock file. */
export function ensureNpmDependencies() {
  const marker = 'node_modules/.package-lock.json';
  const stale = !existsSync(marker) || (existsSync('package-lock.json') && statSync('package-lock.json').mtimeMs > statSync(marker).mtimeMs);
  if (!stale) return;
  console.log('Installing npm dependencies…');
  // npm install, not npm ci: npm's lock files omit other platforms' optional binaries, which npm ci then refuses.
  execSync('npm install --no-audit --no-fund', { stdio: 'inherit' });
}
