/** Runs every benchmark in turn; each prints its own figures (record them in bench/README.md). */
import { execFileSync } from 'node:child_process';

for (const bench of [
  'account',
  'active-status',
  'consultation-poll',
  'sessions-list',
  'chunk-ingest',
  'speech',
  'finish-to-document',
  'words-lost',
  'screening',
  'fhir',
  'speakers',
  'cluster',
  'chaos',
  'pglite-durability',
]) {
  execFileSync('npx', ['tsx', `bench/${bench}.ts`], { stdio: 'inherit' });
}
// The browser's own code, measured in Node.
execFileSync('npx', ['tsx', 'bench/web/pdf-export.ts'], { stdio: 'inherit' });
execFileSync('node', ['scripts/check-bundle-budget.mjs'], { stdio: 'inherit' });
