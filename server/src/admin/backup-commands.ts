/**
 * The admin commands of data at rest: `rotate-key`, `backup --to FILE` and `restore --from FILE [--force]
 * [--key-file FILE] [--audit-key-file FILE]` (listed with the others in admin/commands.ts). Each opens the blob store from the settings,
 * like the server does; a server running meanwhile sees a rotated key ring file at its next read or write.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { Config } from '../config.js';
import type { Database } from '../db/client.js';
import { openBlobStore } from '../storage/encrypted-blob-store.js';
import { plaintextCheckFromDatabase } from '../storage/blob-records.js';
import { KEY_RING_FILE, readKeysFromFile } from '../storage/master-keys.js';
import { rotateMasterKey, RotationError } from '../storage/key-rotation.js';
import { resealApiKeys } from '../modules/ai_engines/saved-engines.js';
import { resealFhirSecrets } from '../modules/organizations/fhir_endpoint/service.js';
import { createBackup } from './backup.js';
import { restoreBackup, RestoreRefusedError } from './backup-restore.js';
import { checkBackupFolder, listLocalBackups } from './backup-folder.js';
import { BackupFormatError } from './backup-format.js';
import { BlobIntegrityError, UnknownMasterKeyError } from '../storage/blob-encryption.js';
import { KeyRingError } from '../storage/master-keys.js';
import { AUDIT_KEY_FILE, AuditKeyError, openAuditKeys, readAuditKeysFromFile } from '../audit/audit-key.js';
// A cycle (commands.ts lists these commands), harmless: UsageError is only used when a command runs.
import { UsageError } from './usage-error.js';

const FILE_ERRORS = new Set(['ENOENT', 'EACCES', 'EPERM', 'EEXIST', 'ENOTDIR', 'EISDIR', 'ENOSPC', 'EROFS']);

/**
 * Refusals and file problems are the operator's to fix: as UsageError their message reaches the terminal, also
 * from a running server (which answers other failures with "see the server log").
 */
async function operatorErrors<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (
      err instanceof RestoreRefusedError ||
      err instanceof BackupFormatError ||
      err instanceof KeyRingError ||
      err instanceof AuditKeyError ||
      err instanceof UnknownMasterKeyError ||
      err instanceof BlobIntegrityError ||
      err instanceof RotationError
    ) {
      const usage = new UsageError(err.message);
      // Both are raised by checks that run before a restore writes anything.
      usage.restoreRefusedUnchanged = err instanceof RestoreRefusedError || err instanceof BackupFormatError;
      throw usage;
    }
    const e = err as NodeJS.ErrnoException;
    if (e.code && FILE_ERRORS.has(e.code))
      throw new UsageError(`${e.path ?? 'A file'}: ${e.code === 'ENOENT' ? 'no such file or folder' : e.code === 'ENOSPC' ? 'the disk is full' : e.code}.`);
    throw err;
  }
}

function readIfThere(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** True inside a server that holds the embedded database (the CLI sent it the command through its socket). */
function insideRunningServer(dataDir: string): boolean {
  try {
    const lock = JSON.parse(readFileSync(path.join(dataDir, 'db.lock'), 'utf8')) as { pid?: number; port?: number };
    return lock.pid === process.pid && Boolean(lock.port);
  } catch {
    return false;
  }
}

const keyFileAdvice = (config: Config) =>
  config.encryptionKey
    ? 'Keep ENCRYPTION_KEY (and ENCRYPTION_KEY_PREVIOUS) in your password manager or secret store, apart from the backups.'
    : `Keep a copy of ${path.join(config.dataDir, KEY_RING_FILE)} apart from the backups (a password manager or another medium): without it the blobs cannot be read.`;
/** The audit key goes with the encryption keys: without it a restore cannot verify, and refuses, the file and its audit log. */
const auditKeyAdvice = (config: Config) =>
  config.auditKey
    ? 'Keep AUDIT_KEY with the encryption keys, apart from the backups: a restore needs it to verify the file and its audit log.'
    : `Keep a copy of ${path.join(config.dataDir, AUDIT_KEY_FILE)} with the encryption keys, apart from the backups: a restore needs it to verify the file and its audit log.`;

export const backupCommands = {
  'rotate-key': {
    usage: 'rotate-key',
    args: z.object({}),
    run: (db: Database, config: Config) =>
      operatorErrors(async () => {
        // Blobs from before encryption are checked against their rows before they are encrypted.
        const store = await openBlobStore(config, { checkPlaintext: plaintextCheckFromDatabase(db) });
        const before = store.keys.ids();
        const r = await rotateMasterKey(store, async () => (await resealApiKeys(db, store.keys)) + (await resealFhirSecrets(db, store.keys)));
        const lines = [
          r.newKey
            ? `New master key ${r.currentKeyId}.`
            : `Master key ${r.currentKeyId} (${store.keys.source === 'setting' ? 'from ENCRYPTION_KEY' : 'finishing an earlier rotation'}).`,
          `${r.rewrapped} blobs rewrapped, ${r.encrypted} plaintext blobs encrypted, ${r.alreadyCurrent} already under the current key.`,
        ];
        if (r.resealedSecrets) lines.push(`${r.resealedSecrets} AI engine key(s) and record system secret(s) resealed.`);
        if (r.retired.length) lines.push(`Retired key(s) ${r.retired.join(', ')}: backups made before now still need them.`);
        if (r.unusedPreviousKeys.length) lines.push(`No blob needs ${r.unusedPreviousKeys.join(', ')} any more: remove it from ENCRYPTION_KEY_PREVIOUS.`);
        if (r.plaintextMigrationFinished) lines.push('Every file stored before encryption is now encrypted: unencrypted files are refused from now on.');
        if (!r.retired.length && !r.unusedPreviousKeys.length && before.length === 1 && store.keys.source === 'setting') {
          lines.push(
            'To change the key itself: put a new key in ENCRYPTION_KEY and the old one in ENCRYPTION_KEY_PREVIOUS, restart, and run rotate-key again.',
          );
        }
        lines.push(keyFileAdvice(config));
        return lines;
      }),
  },
  backup: {
    usage: 'backup --to /path/to/backup.cnbackup',
    args: z.object({ to: z.string().trim().min(1).max(4096) }),
    run: (db: Database, config: Config, args: { to: string }) =>
      operatorErrors(async () => {
        const store = await openBlobStore(config, { checkPlaintext: plaintextCheckFromDatabase(db) });
        const seal = openAuditKeys(config).current();
        const r = await createBackup(db, store, { file: args.to, engine: config.databaseUrl ? 'postgres' : 'pglite', seal });
        const rows = Object.values(r.rows).reduce((a, b) => a + b, 0);
        return [
          `Backup written to ${r.file} (${r.bytes} bytes, mode 0600): ${rows} rows of ${Object.keys(r.rows).length} tables, ${r.blobs} blobs (still encrypted).`,
          ...(r.missing_blobs ? [`${r.missing_blobs} blobs named by rows were already deleted (audio not kept after transcription).`] : []),
          ...(r.plaintext_blobs
            ? [`${r.plaintext_blobs} blobs predate encryption and are copied as plaintext (a restore encrypts them): run rotate-key to encrypt them here.`]
            : []),
          ...(r.refused_blobs
            ? [
                `${r.refused_blobs} unencrypted files were left out (${r.refusedKeys.slice(0, 5).join(', ')}): this data folder accepts none, so they were put there from outside the server.`,
              ]
            : []),
          `Its blobs need master key(s): ${r.master_key_ids.join(', ') || 'none'}.`,
          `The file is sealed with audit key ${seal.id}; its audit log with audit key(s): ${r.audit_key_ids.join(', ') || 'none'}.`,
          keyFileAdvice(config),
          auditKeyAdvice(config),
        ];
      }),
  },
  restore: {
    usage:
      'restore (--from /path/to/backup.cnbackup | --latest) [--force] [--key-file /old/DATA_DIR/encryption-keys.json] [--audit-key-file /old/DATA_DIR/audit-key]',
    booleanFlags: ['force', 'latest'],
    args: z.object({
      from: z.string().trim().min(1).max(4096).optional(),
      latest: z.boolean().default(false),
      force: z.boolean().default(false),
      'key-file': z.string().trim().min(1).max(4096).optional(),
      'audit-key-file': z.string().trim().min(1).max(4096).optional(),
    }),
    run: (db: Database, config: Config, args: { from?: string; latest: boolean; force: boolean; 'key-file'?: string; 'audit-key-file'?: string }) =>
      operatorErrors(async () => {
        if (insideRunningServer(config.dataDir)) throw new UsageError('A server is running on this data folder: stop it, then run restore.');
        if (Boolean(args.from) === args.latest) throw new RestoreRefusedError('Give either --from FILE or --latest (the newest automatic backup).');
        const unsafe = args.latest ? checkBackupFolder(config.backups.dir) : undefined;
        if (unsafe) throw new RestoreRefusedError(`--latest is refused: ${unsafe}. Give --from FILE after checking the file.`);
        const from = args.from ?? listLocalBackups(config.backups.dir)[0];
        if (!from) throw new RestoreRefusedError(`There is no automatic backup in ${config.backups.dir}: give --from FILE.`);
        const store = await openBlobStore(config, { checkPlaintext: plaintextCheckFromDatabase(db) });
        const auditKeys = openAuditKeys(config);
        // Keys given for this restore stay only if it succeeds: a key kept after a refusal would let any later backup
        // sealed with it through, `restore --latest` included.
        const keyFilesBefore = [store.keys.file, auditKeys.file].map((file) => ({ file, text: readIfThere(file) }));
        let imported: string[] = [];
        let importedAudit: string[] = [];
        let r: Awaited<ReturnType<typeof restoreBackup>>;
        try {
          imported = args['key-file'] ? store.keys.importKeys(readKeysFromFile(path.resolve(args['key-file']))) : [];
          // Kept beside this server's own key, for verifying only: the restored events name the key that sealed them.
          importedAudit = args['audit-key-file'] ? auditKeys.importKeys(readAuditKeysFromFile(path.resolve(args['audit-key-file']))) : [];
          r = await restoreBackup(db, store, auditKeys, { file: from, force: args.force });
        } catch (err) {
          for (const { file, text } of keyFilesBefore) if (text !== undefined && readIfThere(file) !== text) writeFileSync(file, text, { mode: 0o600 });
          throw err;
        }
        const rows = Object.values(r.summary.rows).reduce((a, b) => a + b, 0);
        return [
          `Restored ${rows} rows of ${Object.keys(r.summary.rows).length} tables and ${r.summary.blobs} blobs from the backup of ${r.manifest.created_at}${args.latest ? ` (${path.basename(from)})` : ''}; its seal and its audit log verified.`,
          ...(r.removedBlobs ? [`Removed ${r.removedBlobs} blobs that were not in the backup.`] : []),
          ...(r.encryptedBlobs ? [`${r.encryptedBlobs} blobs stored before encryption were checked against their rows and encrypted.`] : []),
          ...(imported.length
            ? [`Imported master key(s) ${imported.join(', ')}; run rotate-key to rewrap every blob under this server's key and retire them.`]
            : []),
          ...(importedAudit.length
            ? [
                `Imported audit key(s) ${importedAudit.join(', ')} into ${auditKeys.file}, to verify the restored audit log: keep that file with the encryption keys.`,
              ]
            : []),
        ];
      }),
  },
} as const;
