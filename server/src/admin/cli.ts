/**
 * Support's admin commands: `npm run admin -- <command> [--flag value]…` (see admin/commands.ts).
 * Same settings as the server. With the embedded database and a running server, the command is sent to that
 * server through its admin socket in DATA_DIR (PGlite belongs to one process); otherwise the database is opened
 * here directly.
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { openDatabase } from '../db/client.js';
import { readLiveLock, releaseLock, waitForLock, writeLock } from '../db/process-lock.js';
import { restrictNewFileModes, secureDataDir } from '../security/data-dir-modes.js';
import { sendAdminCommand } from './admin-socket.js';
import { FLAGS, parseCommandArgs, runCommand, usage, UsageError } from './commands.js';

// The CLI may create the embedded database or write backups: only this user may read them.
restrictNewFileModes();

async function main(): Promise<string[]> {
  const [name, ...rest] = process.argv.slice(2);
  if (!name) throw new UsageError(usage());
  let values: Record<string, unknown>;
  try {
    values = parseArgs({ args: rest, options: FLAGS, strict: true }).values;
  } catch {
    throw new UsageError(usage());
  }
  parseCommandArgs(name, values);
  const config = loadConfig();
  if (!config.databaseUrl) {
    const server = readLiveLock(config.dataDir);
    if (server?.port) {
      if (!server.adminSocket) throw new Error(`A server (pid ${server.pid}) holds the database in ${config.dataDir}; stop it to run this command.`);
      return sendAdminCommand(config.dataDir, name, values);
    }
    if (await waitForLock(config.dataDir, 15_000)) throw new Error(`The database in ${config.dataDir} is busy; try again.`);
    writeLock(config.dataDir, {});
  }
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    return await runCommand(database.db, config, name, values);
  } finally {
    await database.close();
    if (!config.databaseUrl) {
      // PGlite gives its new files mode 0666 whatever the umask (see main.ts).
      secureDataDir(config.dataDir);
      releaseLock(config.dataDir);
    }
  }
}

main().then(
  (lines) => lines.forEach((l) => console.log(l)),
  (err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
