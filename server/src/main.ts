/** Start-up: settings → database + migrations → HTTP server; stops cleanly on SIGINT/SIGTERM. */
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { buildApp } from './app.js';
import { WhisperSetupError } from './ai/whisper-transcriber.js';
import { LlamaSetupError } from './ai/llama-generator.js';
import { ConfigError, loadConfig } from './config.js';
import { openDatabase } from './db/client.js';
import { readLiveLock, releaseLock, waitForLock, writeLock } from './db/process-lock.js';
import { countOrganizations } from './modules/organizations/service.js';
import { startAdminSocket } from './admin/admin-socket.js';
import { runCommand } from './admin/commands.js';
import { startLocalBackups } from './jobs/local-backups.js';
import { DataDirPermissionError, restrictNewFileModes, secureDataDir } from './security/data-dir-modes.js';
import { oldRuntimeWarning } from './runtime-version.js';

// Before anything is written: every file this server makes (database, audio, keys, mail) is its user's alone.
restrictNewFileModes();

/** Longer than the wait for background work (8 s) and the requests in flight, shorter than an orchestrator's usual 30 s. */
const SHUTDOWN_DEADLINE_MS = 25_000;

async function main() {
  const oldRuntime = oldRuntimeWarning();
  if (oldRuntime) console.error(`WARNING: ${oldRuntime}`);
  const config = loadConfig();
  const { repaired } = secureDataDir(config.dataDir);
  if (repaired.length) {
    console.warn(`Restricted ${repaired.length} files and folders in ${config.dataDir} that other users could read (now 0600 files, 0700 folders).`);
  }
  const embedded = !config.databaseUrl;
  if (embedded) {
    // A running server keeps the folder: no use waiting for it. Anything else (an admin command) is waited for.
    const running = readLiveLock(config.dataDir);
    const other = running?.port ? running : await waitForLock(config.dataDir, 15_000);
    if (other) {
      throw new ConfigError(
        other.port
          ? `Another server (pid ${other.pid}) is already using ${config.dataDir} on port ${other.port}: open http://localhost:${other.port}, or stop it first.`
          : `Another process (pid ${other.pid}) is using the database in ${config.dataDir}.`,
      );
    }
    writeLock(config.dataDir, {});
  }
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    onIdleError: (err) => console.error(`database connection lost (${err.message}); reconnecting on the next query`),
  });
  // PGlite's file system layer gives the files it creates mode 0666 whatever the umask: tighten them now and
  // again every few minutes (until then a new file sits inside the 0700 db folder, which others cannot enter).
  const tightenDataDir = () => {
    const { repaired } = secureDataDir(config.dataDir);
    if (repaired.length) app.log.debug({ count: repaired.length }, 'restricted new database files to their owner');
  };
  const tightenTimer = embedded ? setInterval(() => tightenDataDir(), 5 * 60_000).unref() : undefined;
  const { app } = await buildApp({ config, db: database.db });
  tightenDataDir();
  // The admin CLI cannot open the embedded database while this process holds it, so it asks us through a socket.
  const adminSocket = embedded
    ? await startAdminSocket(
        config.dataDir,
        (command, args) => runCommand(database.db, config, command, args),
        (err) => app.log.error({ err }, 'admin command failed'),
        { onRefused: ({ uid }) => app.log.warn({ peerUid: uid }, 'admin socket: refused a connection from another operating-system user') },
      )
    : undefined;
  // With PostgreSQL the operator's own backups (and the backup command) are the plan; the embedded default has nobody to make one.
  const backups = embedded && config.role !== 'api' ? startLocalBackups({ db: database.db, config, log: app.log }) : undefined;
  if (embedded && !adminSocket) app.log.warn(`DATA_DIR's path is too long for the admin socket: stop the server to run admin commands.`);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal, role: config.role }, 'shutting down: no new connections; requests, streams and jobs in progress finish or are handed back');
    // Whatever still holds the process after this long is cut short (its leases pass to another process).
    setTimeout(() => {
      app.log.error('shutdown took too long; exiting');
      process.exit(1);
    }, SHUTDOWN_DEADLINE_MS).unref();
    await adminSocket?.close();
    await backups?.stop();
    await app.close();
    await database.close();
    clearInterval(tightenTimer);
    if (embedded) secureDataDir(config.dataDir);
    if (embedded) releaseLock(config.dataDir);
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  const port = (app.server.address() as AddressInfo).port;
  if (embedded) writeLock(config.dataDir, { port, adminSocket: Boolean(adminSocket) });
  app.log.info({ database: database.kind, role: config.role }, `Ready on http://localhost:${port}`);
  if ((await countOrganizations(database.db)) === 0) {
    app.log.info(
      'No organization yet. Create the first one and its admin with: ' +
        'npm run admin -- create-organization --name "Your clinic" --admin-email you@example.com',
    );
  }
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError || err instanceof WhisperSetupError || err instanceof LlamaSetupError || err instanceof DataDirPermissionError) {
    console.error(err.message);
  } else {
    console.error(err);
  }
  releaseLock(path.resolve(process.env.DATA_DIR ?? './data'));
  process.exit(1);
});
