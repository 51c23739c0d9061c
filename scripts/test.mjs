#!/usr/bin/env node
/**
 * `npm test`: installs what the tests need (npm packages; Chromium and PostgreSQL from Debian), then runs
 * every test: types, unit and component tests, server integration tests on PGlite and on a throwaway
 * PostgreSQL server, the production build with its JavaScript budget, the browser tests in Chromium, and the
 * container image with compose.yaml, built and started with podman.
 */
import { spawnSync } from 'node:child_process';
import { ensureClinicalModel } from './lib/clinical-model.mjs';
import { ensureNpmDependencies } from './lib/npm-deps.mjs';
import { startThrowawayPostgres } from './lib/postgres.mjs';
import { ensureSystemPackages, OCR_PACKAGES, PACKAGES } from './lib/system-packages.mjs';
import { ensureWebBuild } from './lib/web-build.mjs';
import { ensureServerBuild } from './lib/server-build.mjs';
import { RUNTIME_MAJOR } from './lib/runtime.mjs';
import { containerTest } from './container-test.mjs';

const started = Date.now();
const results = [];

function step(name, fn) {
  const t0 = Date.now();
  console.log(`\n▶ ${name}`);
  let ok;
  try {
    ok = fn() !== false;
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    ok = false;
  }
  results.push({ name, ok, seconds: (Date.now() - t0) / 1000 });
  if (!ok) finish();
}

async function stepAsync(name, fn) {
  const t0 = Date.now();
  console.log(`\n▶ ${name}`);
  let ok;
  try {
    ok = (await fn()) !== false;
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    ok = false;
  }
  results.push({ name, ok, seconds: (Date.now() - t0) / 1000 });
  if (!ok) finish();
}

const run = (cmd, args, env = {}) => spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } }).status === 0;

function finish() {
  console.log('\nSummary');
  for (const r of results) console.log(`  ${r.ok ? '✓' : '✗'} ${r.name} (${r.seconds.toFixed(0)} s)`);
  const failed = results.filter((r) => !r.ok).length;
  console.log(`  total ${((Date.now() - started) / 1000).toFixed(0)} s`);
  console.log(`steps: ${results.length - failed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}

step('Install npm dependencies', () => ensureNpmDependencies());
step('Known advisories in the dependencies', () => run('node', ['scripts/check-advisories.mjs']));
step('Licences of the shipped dependencies', () => run('node', ['scripts/check-licenses.mjs']));
// npm scripts put node_modules/.bin first on the PATH: every step below runs on the project's Node 24.
step('Runtime', () =>
  run('node', ['-e', `const v = process.versions.node; console.log('Node.js ' + v); process.exit(Number(v.split('.')[0]) >= ${RUNTIME_MAJOR} ? 0 : 1)`]),
);
step('Install system packages for the tests', () =>
  ensureSystemPackages(
    [
      PACKAGES.chromium,
      PACKAGES.postgresql,
      PACKAGES.fonts,
      PACKAGES.ffmpeg,
      PACKAGES.pocketsphinx,
      PACKAGES.pocketsphinxModel,
      PACKAGES.pythonPocketsphinx,
      PACKAGES.pocketsphinxTestdata,
      PACKAGES.espeak,
      PACKAGES.irstlm,
      PACKAGES.sphinxbaseUtils,
      ...OCR_PACKAGES,
    ],
    'The tests',
  ),
);
step('Build the clinical speech model', () => ensureClinicalModel());
// Formatting and lint findings fail the run: a finding is fixed, or its rule turned off in biome.jsonc with the reason.
step('Lint and formatting (Biome)', () => run('npx', ['biome', 'ci', '--max-diagnostics=50', '.']));
step('Type check', () => run('npx', ['tsc', '--noEmit', '-p', 'tsconfig.json']) && run('npx', ['tsc', '--noEmit', '-p', 'server/tsconfig.json']));
step('Unit, component and server tests (PGlite)', () => run('npx', ['vitest', 'run']));
await stepAsync('Server tests on PostgreSQL', async () => {
  const pg = await startThrowawayPostgres();
  try {
    return run('npx', ['vitest', 'run', '--project', 'server'], { TEST_DATABASE_URL: pg.url });
  } finally {
    pg.stop();
  }
});
step('Production build', () => ensureWebBuild({ force: true }));
step('Initial JavaScript budget', () => run('node', ['scripts/check-bundle-budget.mjs']));
step('Server build (the browser tests run the compiled server, as production does)', () => ensureServerBuild({ force: true }));
step('Browser tests (Playwright, Chromium)', () => run('npx', ['playwright', 'test']));
// The image and compose.yaml a hospital runs, built and started here (podman; Debian base made locally).
await stepAsync('Container image and compose file', () => containerTest());
finish();
