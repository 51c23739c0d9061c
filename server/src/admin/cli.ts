/**
 * Support's admin commands: `npm run admin -- <command> [--flag value]…` (see admin/commands.ts).
 * Same settings as the server. With the embedded database and a running server, the command is sent to that
 * server over loopback (PGlite belongs to one process); otherwise the database is opened here directly.
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { openDatabase } from '../db/client.js';
import { readLiveLock, releaseLock, waitForLock, writeLock } from '../db/process-lock.js';
import { FLAGS, parseCommandArgs, runCommand, usage, UsageError } from './commands.js';

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
    if (server?.port && server.adminKey) {
      const res = await fetch(`http://127.0.0.1:${server.port}/internal/admin/run`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-admin-key': server.adminKey },
        body: JSON.stringify({ command: name, args: values }),
      });
      const body = (await res.json()) as { lines?: string[]; error?: { message: string } };
      if (!res.ok) throw new Error(body.error?.message ?? `The running server refused the command (${res.status})`);
      return body.lines ?? [];
    }
    if (await waitForLock(config.dataDir, 15_000)) throw new Error(`The database in ${config.dataDir} is busy; try again.`);
    writeLock(config.dataDir, {});
  }
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    return await runCommand(database.db, config, name, values);
  } finally {
    await database.close();
    if (!config.databaseUrl) releaseLock(config.dataDir);
  }
}

main().then(
  (lines) => lines.forEach((l) => console.log(l)),
  (err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
