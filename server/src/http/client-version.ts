import type { App } from './context.js';

/** Compares dotted versions numerically: "0.0.9" < "0.0.20". */
export function isOlderVersion(version: string, minimum: string): boolean {
  const a = version.split('.').map((n) => Number.parseInt(n, 10) || 0);
  const b = minimum.split('.').map((n) => Number.parseInt(n, 10) || 0);
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d < 0;
  }
  return false;
}

/** Tells an outdated web app to reload itself (it does so once per outdated version, across its tabs). */
export function registerClientVersionCheck(app: App, minimum: string) {
  app.addHook('onSend', async (request, reply) => {
    const version = request.headers['client-version'];
    if (typeof version === 'string' && isOlderVersion(version, minimum)) {
      reply.header('x-client-deprecated', 'true');
    }
  });
}
