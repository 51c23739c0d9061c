/**
 * Support's admin commands: `npm run admin -- <command> [--flag value]…`.
 * Same settings as the server. With the embedded database and a running server, the command is sent to that
 * server over loopback (PGlite belongs to one process); otherwise the database is opened here directly.
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { openDatabase } from '../db/client.js';
import { readLiveLock, releaseLock, waitForLock, writeLock } from '../db/process-lock.js';
import { createOrganizationWithAdmin } from '../modules/organizations/service.js';

const USAGE = `Usage:
  npm run admin -- create-organization --name "Clinic name" --admin-email admin@example.com`;

async function createOrganization(args: string[]): Promise<string> {
  const { values } = parseArgs({ args, options: { name: { type: 'string' }, 'admin-email': { type: 'string' } } });
  const name = values.name?.trim();
  const adminEmail = values['admin-email']?.trim().toLowerCase();
  if (!name || !adminEmail || !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(adminEmail)) throw new Error(USAGE);

  const config = loadConfig();
  if (!config.databaseUrl) {
    const server = readLiveLock(config.dataDir);
    if (server?.port && server.adminKey) {
      const res = await fetch(`http://127.0.0.1:${server.port}/internal/admin/organizations`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-admin-key': server.adminKey },
        body: JSON.stringify({ name, admin_email: adminEmail }),
      });
      if (!res.ok) throw new Error(`The running server refused the command (${res.status}): ${await res.text()}`);
      return ((await res.json()) as { signupLink: string }).signupLink;
    }
    if (await waitForLock(config.dataDir, 15_000)) throw new Error(`The database in ${config.dataDir} is busy; try again.`);
    writeLock(config.dataDir, {});
  }
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    const result = await createOrganizationWithAdmin(database.db, { name, adminEmail, publicUrl: config.publicUrl });
    return result.signupLink;
  } finally {
    await database.close();
    if (!config.databaseUrl) releaseLock(config.dataDir);
  }
}

async function main() {
  const [command, ...rest] = process.argv.slice(2);
  if (command === 'create-organization') {
    const link = await createOrganization(rest);
    console.log(`Organization created. Send this signup link to its admin (valid 7 days):`);
    console.log(link);
    return;
  }
  throw new Error(USAGE);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
