/**
 * What the operator's tools read, in every role (api, worker, all): the probes /livez and /readyz
 * (modules/health). Unauthenticated and outside the rate limits.
 */
import type { App, AppContext } from './context.js';
import { healthRoutes } from '../modules/health/routes.js';

export function registerOperations(app: App, ctx: AppContext): void {
  healthRoutes(app, ctx);
}
