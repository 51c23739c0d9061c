import { currentUser, requireUser } from '../../http/authenticate.js';
import { z } from 'zod';
import type { App, AppContext } from '../../http/context.js';
import { errorResponses } from '../../http/responses.js';

const creditsEnvelope = z.object({
  credits: z.object({
    balance: z.number(),
    shared_with_organization: z.boolean(),
    ledger: z.array(
      z.object({
        id: z.uuid(),
        amount: z.number().int(),
        reason: z.string(),
        note: z.string().nullable(),
        user_name: z.string().nullable(),
        created_at: z.iso.datetime(),
      }),
    ),
  }),
});
import { accountOf, balanceOf, ledgerOf } from './service.js';

/** The shared balance and who used what. Buying more goes through support, not through the app. */
export function creditsRoutes(app: App, ctx: AppContext) {
  app.get('/v1/credits', { onRequest: requireUser(ctx), schema: { response: { 200: creditsEnvelope, ...errorResponses(401) } } }, async (request) => {
    const account = accountOf(currentUser(request));
    const rows = await ledgerOf(ctx.db, account);
    return {
      credits: {
        balance: await balanceOf(ctx.db, account),
        shared_with_organization: 'organizationId' in account,
        ledger: rows.map((r) => ({ id: r.id, amount: r.amount, reason: r.reason, note: r.note, user_name: r.userName, created_at: r.createdAt.toISOString() })),
      },
    };
  });
}
