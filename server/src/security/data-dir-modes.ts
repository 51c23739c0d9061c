/**
 * Everything under DATA_DIR is patient data or a secret (database files, recorded audio, patient PDFs, mail,
 * keys), so only the server's own user may read it: folders 0700, files 0600. The process umask makes new
 * files so; at start the whole tree is checked, and anything looser (an older version, a copy with `cp -r`,
 * PGlite files created under a permissive umask) is repaired and reported.
 */
import { chmodSync, lstatSync, readdirSync } from 'node:fs';
import path from 'node:path';

/** Files and folders created by this process from now on are readable by its own user only. */
export function restrictNewFileModes(): void {
  process.umask(0o077);
}

export class DataDirPermissionError extends Error {}

/** Tightens every folder to 0700 and file to 0600 under `dataDir`; answers how many were repaired. */
export function secureDataDir(dataDir: string): { repaired: string[] } {
  const repaired: string[] = [];
  const uid = process.getuid?.();
  const visit = (p: string) => {
    const st = lstatSync(p);
    // A symbolic link's own mode means nothing on Linux; what it points to is checked where it lives.
    if (st.isSymbolicLink()) return;
    const wanted = st.isDirectory() ? 0o700 : 0o600;
    if ((st.mode & 0o077) !== 0) {
      if (uid !== undefined && st.uid !== uid && uid !== 0) {
        throw new DataDirPermissionError(
          `${p} can be read by other users and belongs to another user, so it cannot be repaired: ` +
            `run the server as that user, or run chmod -R go-rwx on ${dataDir}.`,
        );
      }
      chmodSync(p, (st.mode & 0o700) | (wanted & 0o700));
      repaired.push(path.relative(dataDir, p) || '.');
    }
    if (st.isDirectory()) for (const name of readdirSync(p)) visit(path.join(p, name));
  };
  visit(dataDir);
  return { repaired };
}
