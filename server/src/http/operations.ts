/**
 * What the operator's tools read, in every role (api, worker, all): the probes /livez and /readyz
 * (modules/health) and the Prometheus metrics at /metrics (http/metrics.ts). Unauthenticated and outside the rate limits.
 */
import type { App, AppContext } from './context.js';
import { healthRoutes } from '../modules/health/routes.js';
import { registerMetrics } from './metrics.js';

export function registerOperations(app: App, ctx: AppContext): void {
  healthRoutes(app, ctx);
  registerMetrics(app, ctx);
}
