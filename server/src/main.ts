/** Start-up: settings → database + migrations → HTTP server; stops cleanly on SIGINT/SIGTERM. */
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { buildApp } from './app.js';
import { WhisperSetupError } from './ai/whisper-transcriber.js';
import { LlamaSetupError } from './ai/llama-generator.js';
import { ConfigError, loadConfig } from './config.js';
import { openDatabase } from './db/client.js';
import { releaseLock, waitForLock, writeLock } from './db/process-lock.js';
import { countOrganizations } from './modules/organizations/service.js';

async function main() {
  const config = loadConfig();
  const embedded = !config.databaseUrl;
  if (embedded) {
    const other = await waitForLock(config.dataDir, 15_000);
    if (other) {
      throw new ConfigError(
        other.port
          ? `Another server (pid ${other.pid}) is already using ${config.dataDir} on port ${other.port}.`
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
  const adminKey = embedded ? randomBytes(32).toString('base64url') : undefined;
  const { app } = await buildApp({ config, db: database.db, adminKey });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    await app.close();
    await database.close();
    if (embedded) releaseLock(config.dataDir);
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  const port = (app.server.address() as AddressInfo).port;
  if (embedded) writeLock(config.dataDir, { port, adminKey });
  app.log.info({ database: database.kind }, `Ready on http://localhost:${port}`);
  if ((await countOrganizations(database.db)) === 0) {
    app.log.info(
      'No organization yet. Create the first one and its admin with: ' +
        'npm run admin -- create-organization --name "Your clinic" --admin-email you@example.com',
    );
  }
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError || err instanceof WhisperSetupError || err instanceof LlamaSetupError) {
    console.error(err.message);
  } else {
    console.error(err);
  }
  releaseLock(path.resolve(process.env.DATA_DIR ?? './data'));
  process.exit(1);
});
