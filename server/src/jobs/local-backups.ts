/**
 * Automatic backups of the embedded database: a clinic that runs the product on one machine, with nobody to set up
 * a schedule, still has yesterday's data if the disk's copy is damaged or a change must be undone.
 *
 * Every BACKUP_EVERY_HOURS the server writes a backup (admin/backup.ts: consistent, sealed, files still encrypted)
 * into BACKUP_DIR, named by its time, and keeps the newest BACKUP_KEEP; `npm run admin -- restore --latest` puts
 * the newest back. They sit on the same disk as the data, so they guard against a damaged database or a mistake,
 * not against losing the disk: copy them elsewhere (README, "Backup and restore").
 */
import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.js';
import type { Database } from '../db/client.js';
import { describeErrorSafely } from '../http/safe-errors.js';
import { runCommand } from '../admin/commands.js';

const NAME = /^clinic-(\d{8}T\d{6}Z)\.cnbackup$/;
/** How often the schedule is looked at: a backup is at most this late after it falls due. */
const CHECK_MS = 10 * 60_000;
/** The first look waits until the server has settled in, so a start is never slowed by a backup. */
const FIRST_CHECK_MS = 60_000;

type Log = { info(obj: object, msg: string): void; error(obj: object, msg: string): void };

export const backupFileName = (at: Date) => `clinic-${at.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z')}.cnbackup`;

/** The automatic backups in `dir`, newest first (a name's time sorts as text). */
export function listLocalBackups(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  return names.filter((n) => NAME.test(n)).sort().reverse().map((n) => path.join(dir, n));
}

export type LocalBackups = { stop(): Promise<void>; /** Writes one now (tests, and the first start). */ runNow(): Promise<string | undefined> };

export function startLocalBackups(opts: { db: Database; config: Config; log: Log; now?: () => Date }): LocalBackups {
  const { everyHours, keep, dir } = opts.config.backups;
  const now = opts.now ?? (() => new Date());
  let running: Promise<unknown> = Promise.resolve();

  const write = async (): Promise<string> => {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const file = path.join(dir, backupFileName(now()));
    const started = Date.now();
    await runCommand(opts.db, opts.config, 'backup', { to: file });
    // Only after a backup is complete is an older one removed: a failed run never leaves fewer good ones.
    const removed = listLocalBackups(dir).slice(keep);
    for (const old of removed) rmSync(old, { force: true });
    opts.log.info({ file: path.basename(file), bytes: statSync(file).size, ms: Date.now() - started, removed: removed.length }, 'automatic backup written');
    return file;
  };
  const due = () => {
    const [newest] = listLocalBackups(dir);
    return !newest || now().getTime() - statSync(newest).mtimeMs >= everyHours * 3_600_000;
  };
  const tick = () => {
    running = running
      .then(async () => {
        if (due()) await write();
      })
      .catch((err: unknown) => opts.log.error({ err: describeErrorSafely(err) }, 'automatic backup failed'));
  };

  if (everyHours <= 0) return { stop: async () => undefined, runNow: async () => undefined };
  let timer: NodeJS.Timeout | undefined;
  const first = setTimeout(() => {
    tick();
    timer = setInterval(tick, Math.min(CHECK_MS, everyHours * 3_600_000));
    timer.unref();
  }, FIRST_CHECK_MS);
  first.unref();
  return {
    async runNow() {
      const next = running.then(write);
      running = next.catch(() => undefined);
      return next;
    },
    async stop() {
      clearTimeout(first);
      clearInterval(timer);
      await running;
    },
  };
}
