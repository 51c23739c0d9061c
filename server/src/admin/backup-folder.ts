/**
 * The folder of automatic backups (BACKUP_DIR): how a backup in it is named, whether the folder is safe to read
 * from, and which backups it holds. The job that writes them (jobs/local-backups.ts) and `restore --latest`
 * (backup-commands.ts) both read it; here, so that neither imports the other.
 */
import { lstatSync, readdirSync } from 'node:fs';
import path from 'node:path';

const NAME = /^clinic-(\d{8}T\d{6}Z)\.cnbackup$/;

export const backupFileName = (at: Date) =>
  `clinic-${at
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')}.cnbackup`;

/** When a backup named by backupFileName was written. */
export const timeOf = (name: string) => {
  const t = NAME.exec(path.basename(name))![1]!;
  return Date.parse(`${t.slice(0, 4)}-${t.slice(4, 6)}-${t.slice(6, 8)}T${t.slice(9, 11)}:${t.slice(11, 13)}:${t.slice(13, 15)}Z`);
};
/** A file this server could have written: a regular file (not a link to elsewhere) owned by its user. */
export const ours = (file: string) => {
  try {
    const s = lstatSync(file);
    return s.isFile() && (typeof process.getuid !== 'function' || s.uid === process.getuid());
  } catch {
    return false;
  }
};

/**
 * The folder must be this user's alone: anyone else able to write in it could plant a file named as a backup
 * (one made to sort newest stops the schedule and is what `restore --latest` would pick).
 */
export function checkBackupFolder(dir: string): string | undefined {
  let s;
  try {
    s = lstatSync(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  if (!s.isDirectory()) return `${dir} is not a folder`;
  if (typeof process.getuid === 'function' && s.uid !== process.getuid()) return `${dir} belongs to another user`;
  if (s.mode & 0o022) return `others can write in ${dir} (make it 0700)`;
  return undefined;
}

/**
 * The automatic backups in `dir`, newest first (a name's time sorts as text): regular files of this user only,
 * and none whose name is later than `now` (a clock set wrong once, or a planted name, must not hide new backups).
 */
export function listLocalBackups(dir: string, now = new Date()): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const limit = now.getTime() + 60_000;
  return names
    .filter((n) => NAME.test(n))
    .sort()
    .reverse()
    .map((n) => path.join(dir, n))
    .filter((file) => timeOf(file) <= limit && ours(file));
}
