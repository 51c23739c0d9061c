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
import { describeErrorSafely } from '../errors/safe-errors.js';
import { runCommand } from '../admin/commands.js';
import { backupFileName, checkBackupFolder, listLocalBackups, ours, timeOf } from '../admin/backup-folder.js';

/** How often the schedule is looked at: a backup is at most this late after it falls due. */
const CHECK_MS = 10 * 60_000;
/** The first look waits until the server has settled in, so a start is never slowed by a backup. */
const FIRST_CHECK_MS = 60_000;

type Log = { info(obj: object, msg: string): void; error(obj: object, msg: string): void };

const TMP_NAME = /^\.clinic-\d{8}T\d{6}Z\.cnbackup\.[0-9a-f-]+\.tmp$/;

export type LocalBackups = { stop(): Promise<void> /** Writes one now (tests, and the first start). */; runNow(): Promise<string | undefined> };

export function startLocalBackups(opts: { db: Database; config: Config; log: Log; now?: () => Date }): LocalBackups {
  const { everyHours, keep, dir } = opts.config.backups;
  const now = opts.now ?? (() => new Date());
  let running: Promise<unknown> = Promise.resolve();

  const write = async (): Promise<string> => {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const unsafe = checkBackupFolder(dir);
    if (unsafe) throw new Error(`automatic backups are not written: ${unsafe}`);
    const at = now();
    const file = path.join(dir, backupFileName(at));
    const started = Date.now();
    await runCommand(opts.db, opts.config, 'backup', { to: file });
    // Only after a backup is complete is an older one removed: a failed run never leaves fewer good ones, and the
    // one just written is never among them.
    const removed = listLocalBackups(dir, at)
      .filter((f) => f !== file)
      .slice(keep - 1);
    for (const old of removed) rmSync(old, { force: true });
    opts.log.info({ file: path.basename(file), bytes: statSync(file).size, ms: Date.now() - started, removed: removed.length }, 'automatic backup written');
    return file;
  };
  const due = () => {
    const at = now();
    const [newest] = listLocalBackups(dir, at);
    return !newest || at.getTime() - timeOf(newest) >= everyHours * 3_600_000;
  };
  // A backup cut short (a crash, a power cut, a stop in the middle) leaves its temporary file: ours to remove.
  const removeLeftovers = () => {
    try {
      for (const n of readdirSync(dir)) if (TMP_NAME.test(n) && ours(path.join(dir, n))) rmSync(path.join(dir, n), { force: true });
    } catch {
      // No folder yet: nothing left over.
    }
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
    removeLeftovers();
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
