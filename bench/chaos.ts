/**
 * The scale test large: the scenario of server/src/jobs/several-processes.test.ts (three API processes and two
 * workers behind a proxy on PostgreSQL and an S3-compatible bucket, rolling restarts, a worker and an API process
 * killed) with many more recorders and parts, on a throwaway PostgreSQL. Its assertions are the test's (no 5xx, no
 * part lost or stored twice, each document written and debited once); this prints how long it took.
 */
import { execFileSync } from 'node:child_process';
// @ts-expect-error -- a plain ES module of the project's scripts, without type declarations
import { startThrowawayPostgres } from '../scripts/lib/postgres.mjs';

const recorders = process.env.SCALE_RECORDERS ?? '40';
const parts = process.env.SCALE_PARTS ?? '20';
const pg = (await startThrowawayPostgres()) as { url: string; stop(): void };
const started = performance.now();
try {
  execFileSync('npx', ['vitest', 'run', '--project', 'server', 'server/src/jobs/several-processes.test.ts'], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, TEST_DATABASE_URL: pg.url, SCALE_RECORDERS: recorders, SCALE_PARTS: parts },
  });
  const seconds = (performance.now() - started) / 1000;
  console.log(`\nScale test, large: ${recorders} recorders × ${parts} parts through 3 API processes and 2 workers, rolling restarts and kills`);
  console.log(
    `  passed in ${seconds.toFixed(0)} s: no 5xx, ${Number(recorders) * Number(parts)} parts stored once and transcribed, ${recorders} documents written and debited once`,
  );
} finally {
  pg.stop();
}
