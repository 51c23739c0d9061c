import { z } from 'zod';
import { currentUser, requireUser } from '../../http/authenticate.js';
import type { App, AppContext } from '../../http/context.js';
import { errorResponses } from '../../http/responses.js';
import { listUserOrganizations } from '../organizations/service.js';

const body = z.object({ subject: z.string().trim().min(3).max(200), message: z.string().trim().min(10).max(10_000) }).strict();

/**
 * The support contact form: a mail to the configured support address with who is asking (name, e-mail,
 * organization, language), so support can answer and, for credits, grant them with the admin CLI.
 */
export function supportRoutes(app: App, ctx: AppContext) {
  app.post(
    '/v1/support',
    {
      onRequest: requireUser(ctx),
      schema: {
        body,
        response: { 202: z.object({ sent: z.literal(true) }).describe('The message was handed to the mail server'), ...errorResponses(400, 401, 429) },
      },
      config: { rateLimit: { max: 5, timeWindow: 60_000 } },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const [org] = await listUserOrganizations(ctx.db, user.id);
      const text = [
        `From: ${user.name} <${user.email}>`,
        `User id: ${user.id}`,
        `Organization: ${org ? `${org.name} (${org.id}, ${org.role})` : 'none'}`,
        `Language: ${user.language}`,
        `Phone: ${user.phoneNumber ?? 'not given'}`,
        '',
        request.body.message,
        '',
      ].join('\n');
      await ctx.mailer.send({ to: ctx.config.supportEmail, subject: `[Support] ${request.body.subject}`, text });
      return reply.status(202).send({ sent: true });
    },
  );
}
