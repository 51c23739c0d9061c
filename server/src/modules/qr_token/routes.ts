import { qrTokenEnvelope } from '../../../../contract/account.js';
import { createOneTimeToken } from '../../auth/one-time-tokens.js';
import { currentUser, requireUser } from '../../http/authenticate.js';
import type { App, AppContext } from '../../http/context.js';
import { errorResponses } from '../../http/responses.js';

/** Long enough to point a phone's camera at the screen, short enough that a photo of it is soon useless. */
export const QR_TOKEN_TTL_SECONDS = 120;

export function qrTokenRoutes(app: App, ctx: AppContext) {
  app.post('/v1/qr_token', { onRequest: requireUser(ctx), schema: { response: { 201: qrTokenEnvelope, ...errorResponses(401) } } }, async (request, reply) => {
    const { token, expiresAt } = await createOneTimeToken(ctx.db, currentUser(request).id, 'qr_login', QR_TOKEN_TTL_SECONDS);
    return reply.status(201).send({ token, url: `${ctx.config.publicUrl}/autologin/${token}`, expires_at: expiresAt.toISOString() });
  });
}
