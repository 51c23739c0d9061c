/**
 * What syncing the embedded database to disk costs (db/durable-nodefs.ts): single-row commits, as a consultation's
 * parts and edits arrive, and a checkpoint, with PGlite's defaults (fsync off, no fsync in its file layer) and
 * with the product's durable settings, on the same disk in the same run. Prints per-commit times and the ratio.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { DurableNodeFS, durableStartParams } from '../server/src/db/durable-nodefs.js';

const COMMITS = 300;
const work = mkdtempSync(path.join(tmpdir(), 'cn-bench-durability-'));

async function measure(durable: boolean) {
  const dir = mkdtempSync(path.join(work, 'db-'));
  const fs = new DurableNodeFS(dir);
  const pg = durable ? await PGlite.create({ fs, startParams: durableStartParams() }) : await PGlite.create(dir);
  await pg.exec('CREATE TABLE parts (id serial PRIMARY KEY, body text)');
  const started = performance.now();
  for (let i = 0; i < COMMITS; i++) await pg.query('INSERT INTO parts (body) VALUES ($1)', ['x'.repeat(400)]);
  const commit = (performance.now() - started) / COMMITS;
  const checkpointStarted = performance.now();
  await pg.exec('CHECKPOINT');
  const checkpoint = performance.now() - checkpointStarted;
  await pg.close();
  return { commit, checkpoint, syncs: fs.syncs };
}

try {
  // Alternated, best of three each, so the disk's state favours neither.
  const runs: Record<'relaxed' | 'durable', { commit: number; checkpoint: number; syncs: number }[]> = { relaxed: [], durable: [] };
  for (let i = 0; i < 3; i++) {
    runs.relaxed.push(await measure(false));
    runs.durable.push(await measure(true));
  }
  const best = (r: typeof runs.relaxed) => ({
    commit: Math.min(...r.map((x) => x.commit)),
    checkpoint: Math.min(...r.map((x) => x.checkpoint)),
    syncs: r[0]!.syncs,
  });
  const relaxed = best(runs.relaxed);
  const durable = best(runs.durable);
  console.log(`\nEmbedded database durability (${COMMITS} single-row commits, best of 3)`);
  console.log(`  PGlite defaults (fsync off):   ${relaxed.commit.toFixed(2)} ms per commit, checkpoint ${relaxed.checkpoint.toFixed(0)} ms`);
  console.log(
    `  durable (fsync on, synced):    ${durable.commit.toFixed(2)} ms per commit, checkpoint ${durable.checkpoint.toFixed(0)} ms, ${durable.syncs} fsyncs`,
  );
  console.log(`  cost: ×${(durable.commit / relaxed.commit).toFixed(1)} per commit (+${(durable.commit - relaxed.commit).toFixed(2)} ms)`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
