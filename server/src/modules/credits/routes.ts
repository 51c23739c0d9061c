import { currentUser, requireUser } from '../../http/authenticate.js';
import type { App, AppContext } from '../../http/context.js';
import { accountOf, balanceOf, ledgerOf } from './service.js';

/** The shared balance and who used what. Buying more goes through support, not through the app. */
export function creditsRoutes(app: App, ctx: AppContext) {
  app.get('/v1/credits', { onRequest: requireUser(ctx) }, async (request) => {
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
