/**
 * The embedded database on disk: commits reach the disk (fsync on, and an fsync that syncs), and automatic backups
 * are written, pruned to the number kept, and the newest one restores with one command.
 */
import nodeFs, { chmodSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { AUDIT_KEY_FILE } from '../audit/audit-key.js';
import { openDatabase } from '../db/client.js';
import { DurableNodeFS, durableStartParams } from '../db/durable-nodefs.js';
import { users } from '../db/schema.js';
import { createUser } from '../test-support/factories.js';
import { createTestApp } from '../test-support/test-app.js';
import { KEY_RING_FILE } from '../storage/master-keys.js';
import { runCommand } from '../admin/commands.js';
import { backupFileName, listLocalBackups } from '../admin/backup-folder.js';
import { startLocalBackups } from './local-backups.js';

const work = mkdtempSync(path.join(tmpdir(), 'cn-local-backups-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const silent = { info: () => undefined, error: () => undefined };

describe('the embedded database on disk', () => {
  it('runs PostgreSQL with fsync on, and each commit is synced to the disk', async () => {
    const database = await openDatabase({ dataDir: path.join(work, 'product') });
    try {
      const setting = async (name: string) =>
        ((await database.db.execute(sql.raw(`SHOW ${name}`))) as unknown as { rows: Record<string, string>[] }).rows[0]![name];
      // PGlite's own defaults are fsync off, with a WAL "synced" by fdatasync(), which does nothing under Emscripten.
      expect(await setting('fsync')).toBe('on');
      expect(await setting('wal_sync_method')).toBe('fsync');
    } finally {
      await database.close();
    }

    const fs = new DurableNodeFS(path.join(work, 'counted'));
    const pg = await PGlite.create({ fs, startParams: durableStartParams() });
    try {
      await pg.exec('CREATE TABLE t (v text)');
      const before = fs.syncs;
      await pg.query('INSERT INTO t VALUES ($1)', ['a committed consultation']);
      expect(fs.syncs).toBeGreaterThan(before);
    } finally {
      await pg.close();
    }
    // A failed fsync is never handed back to PGlite (whose stop on it spins with the event loop blocked): the
    // process is stopped instead (here a stand-in records it).
    const failures: unknown[] = [];
    const failing = await PGlite.create({ fs: new DurableNodeFS(path.join(work, 'failing'), (err) => failures.push(err)), startParams: durableStartParams() });
    const realSync = nodeFs.fsyncSync;
    try {
      await failing.exec('CREATE TABLE t (v text)');
      nodeFs.fsyncSync = () => {
        throw Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' });
      };
      syncBuiltinESMExports();
      await failing.query('INSERT INTO t VALUES ($1)', ['written when the disk failed']);
    } finally {
      nodeFs.fsyncSync = realSync;
      syncBuiltinESMExports();
      await failing.close();
    }
    expect(failures.length).toBeGreaterThan(0);
    expect((failures[0] as { code?: string }).code).toBe('EIO');

    // And what was committed is there after a reopen.
    const again = await PGlite.create({ fs: new DurableNodeFS(path.join(work, 'counted')), startParams: durableStartParams() });
    expect((await again.query('SELECT v FROM t')).rows).toEqual([{ v: 'a committed consultation' }]);
    await again.close();
  }, 60_000);
});

describe('automatic local backups', () => {
  it('are written on schedule, the newest kept, and `restore --latest` puts the newest back', async () => {
    const dir = path.join(work, 'backups');
    const source = await createTestApp({ BACKUP_DIR: dir, BACKUP_KEEP: '2', BACKUP_EVERY_HOURS: '24' });
    let clock = new Date('2026-11-20T02:00:00Z');
    const backups = startLocalBackups({ db: source.ctx.db, config: source.ctx.config, log: silent, now: () => clock });
    try {
      await createUser(source, { name: 'Dra. Primeira' });
      const first = await backups.runNow();
      expect(first).toBe(path.join(dir, backupFileName(clock)));
      clock = new Date('2026-11-21T02:00:00Z');
      await createUser(source, { name: 'Dr. Segundo' });
      await backups.runNow();
      clock = new Date('2026-11-22T02:00:00Z');
      await createUser(source, { name: 'Dra. Terceira' });
      const newest = await backups.runNow();
      // Two kept: the oldest removed once the newest was complete; nothing half-written left behind.
      expect(readdirSync(dir).sort()).toEqual(['clinic-20261121T020000Z.cnbackup', 'clinic-20261122T020000Z.cnbackup']);
      expect(listLocalBackups(dir)[0]).toBe(newest);
      // A file of someone else's in the folder is neither counted nor removed.
      writeFileSync(path.join(dir, 'notes.txt'), 'kept');
      clock = new Date('2026-11-23T02:00:00Z');
      await backups.runNow();
      expect(readdirSync(dir)).toContain('notes.txt');
      expect(listLocalBackups(dir)).toHaveLength(2);
      // A name from the future (a clock once set wrong, or planted) and a link named as a backup are not ours: they
      // neither stop the schedule nor push the new backup out, nor are they what --latest would pick.
      writeFileSync(path.join(dir, 'clinic-20990101T000000Z.cnbackup'), 'not a backup');
      symlinkSync('/etc/hostname', path.join(dir, 'clinic-20261122T030000Z.cnbackup'));
      clock = new Date('2026-11-24T02:00:00Z');
      const latest = await backups.runNow();
      expect(listLocalBackups(dir, clock)).toEqual([latest, path.join(dir, 'clinic-20261123T020000Z.cnbackup')]);
      expect(readdirSync(dir)).toEqual(expect.arrayContaining(['clinic-20990101T000000Z.cnbackup', 'clinic-20261122T030000Z.cnbackup']));
      rmSync(path.join(dir, 'clinic-20990101T000000Z.cnbackup'));
      rmSync(path.join(dir, 'clinic-20261122T030000Z.cnbackup'));
    } finally {
      await backups.stop();
    }

    const target = await createTestApp({ BACKUP_DIR: dir });
    try {
      const keys = { 'key-file': path.join(source.dataDir, KEY_RING_FILE), 'audit-key-file': path.join(source.dataDir, AUDIT_KEY_FILE) };
      await expect(runCommand(target.ctx.db, target.ctx.config, 'restore', { ...keys })).rejects.toThrow(/Give either --from FILE or --latest/);
      await expect(runCommand(target.ctx.db, target.ctx.config, 'restore', { from: listLocalBackups(dir)[1]!, latest: true, ...keys })).rejects.toThrow(
        /Give either --from FILE or --latest/,
      );
      const lines = await runCommand(target.ctx.db, target.ctx.config, 'restore', { latest: true, ...keys });
      expect(lines[0]).toMatch(/\(clinic-20261124T020000Z\.cnbackup\); its seal and its audit log verified/);
      const names = (await target.ctx.db.select().from(users)).map((u) => u.name).sort();
      expect(names).toEqual(['Dr. Segundo', 'Dra. Primeira', 'Dra. Terceira']);
    } finally {
      await target.close();
      await source.close();
    }

    // A folder others can write in is refused, for writing and for --latest.
    chmodSync(dir, 0o777);
    const shared = await createTestApp({ BACKUP_DIR: dir });
    const sharedBackups = startLocalBackups({ db: shared.ctx.db, config: shared.ctx.config, log: silent });
    try {
      await expect(sharedBackups.runNow()).rejects.toThrow(/others can write in/);
      await expect(runCommand(shared.ctx.db, shared.ctx.config, 'restore', { latest: true })).rejects.toThrow(/--latest is refused: others can write in/);
    } finally {
      await sharedBackups.stop();
      await shared.close();
      chmodSync(dir, 0o700);
    }

    const empty = await createTestApp({ BACKUP_DIR: path.join(work, 'none-yet') });
    try {
      await expect(runCommand(empty.ctx.db, empty.ctx.config, 'restore', { latest: true })).rejects.toThrow(
        /There is no automatic backup in .*none-yet: give --from FILE/,
      );
    } finally {
      await empty.close();
    }
  }, 120_000);

  it('are off at 0 hours', async () => {
    const t = await createTestApp({ BACKUP_DIR: path.join(work, 'off'), BACKUP_EVERY_HOURS: '0' });
    const backups = startLocalBackups({ db: t.ctx.db, config: t.ctx.config, log: silent });
    try {
      expect(await backups.runNow()).toBeUndefined();
      expect(listLocalBackups(path.join(work, 'off'))).toEqual([]);
    } finally {
      await backups.stop();
      await t.close();
    }
  });
});
