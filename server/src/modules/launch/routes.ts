import { z } from 'zod';
import type { App, AppContext } from '../../http/context.js';
import { describeErrorSafely } from '../../http/safe-errors.js';
import { beginLaunch, completeLaunch, LaunchError, type LaunchFailure } from './service.js';

/**
 * The record system's entry points (browser navigations, not API calls): answered with redirects, never JSON.
 * A launch that cannot go on lands on the app's page that says why (/launch_failed?reason=…).
 */
export function launchRoutes(app: App, ctx: AppContext) {
  const failed = (reason: LaunchFailure) => `${ctx.config.publicUrl}/launch_failed?reason=${reason}`;
  const reasonOf = (err: unknown): LaunchFailure => {
    if (err instanceof LaunchError) return err.reason;
    app.log.warn({ err: describeErrorSafely(err) }, 'a launch from a record system failed');
    return 'record_system_unreachable';
  };
  const limited = { rateLimit: { max: 30, timeWindow: 60_000 } };

  app.get(
    '/launch',
    { config: limited, schema: { querystring: z.object({ iss: z.string().max(2000).optional(), launch: z.string().max(2000).optional() }) } },
    async (request, reply) => {
      const { iss, launch } = request.query;
      if (!iss || !launch) return reply.redirect(failed('unknown_record_system'));
      try {
        return reply.redirect(await beginLaunch(ctx, { iss, launch }));
      } catch (err) {
        return reply.redirect(failed(reasonOf(err)));
      }
    },
  );

  app.get(
    '/launch/callback',
    {
      config: limited,
      schema: { querystring: z.object({ code: z.string().max(4000).optional(), state: z.string().max(200).optional(), error: z.string().max(200).optional() }) },
    },
    async (request, reply) => {
      const { code, state, error } = request.query;
      // The record system's authorization server said no (the clinician declined, or it refused the app).
      if (error || !code || !state) return reply.redirect(failed('refused'));
      try {
        const { token } = await completeLaunch(ctx, { code, state });
        return reply.redirect(`${ctx.config.publicUrl}/launched/${token}`);
      } catch (err) {
        return reply.redirect(failed(reasonOf(err)));
      }
    },
  );
}
