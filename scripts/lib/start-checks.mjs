/**
 * What `npm start` checks before it starts a server, so that a second start on a data folder or a port already
 * in use says so at once and stops, instead of announcing "running" (the other server answers the health check)
 * and failing on its own a little later.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';

/** The lock the server writes in DATA_DIR/db.lock (server/src/db/process-lock.ts), when its process is alive. */
export function liveDataLock(dataDir) {
  try {
    const info = JSON.parse(readFileSync(path.join(dataDir, 'db.lock'), 'utf8'));
    if (!Number.isInteger(info.pid) || info.pid === process.pid) return undefined;
    try {
      process.kill(info.pid, 0);
    } catch (err) {
      if (err.code !== 'EPERM') return undefined;
    }
    return info;
  } catch {
    return undefined;
  }
}

/** True when something already listens on the port (the server's own host, or every address by default). */
export function portInUse(port, host) {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', (err) => resolve(err.code === 'EADDRINUSE' || err.code === 'EACCES'));
    probe.listen({ port: Number(port), host, exclusive: true }, () => probe.close(() => resolve(false)));
  });
}

/** The sentence that stops the start, or undefined when the folder and the port are free. */
export async function startBlocker(env) {
  const port = env.PORT ?? '8080';
  const dataDir = path.resolve(env.DATA_DIR ?? './data');
  if (!env.DATABASE_URL) {
    const lock = liveDataLock(dataDir);
    if (lock?.port)
      return (
        `The data folder ${dataDir} is already in use by another Consultation Notes server (pid ${lock.pid}, port ${lock.port}). ` +
        `Open http://localhost:${lock.port}, or stop that server first; to run a second one, give it another folder and port (DATA_DIR=… PORT=…).`
      );
  }
  if (await portInUse(port, env.HOST ?? '0.0.0.0'))
    return `Port ${port} is already in use by another program. Stop it, or start on another port: PORT=8081 npm start`;
  return undefined;
}
