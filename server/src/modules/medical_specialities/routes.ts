import { medicalSpecialitiesEnvelope } from '../../../../contract/account.js';
import { medicalSpecialities } from '../../db/schema.js';
import { requireUser } from '../../http/authenticate.js';
import type { App, AppContext } from '../../http/context.js';
import { requestLanguage } from '../../http/language.js';
import { errorResponses } from '../../http/responses.js';

export function medicalSpecialitiesRoutes(app: App, ctx: AppContext) {
  app.get(
    '/v1/medical_specialities',
    { onRequest: requireUser(ctx), schema: { response: { 200: medicalSpecialitiesEnvelope, ...errorResponses(401) } } },
    async (request) => {
      const language = requestLanguage(request);
      const rows = await ctx.db.select().from(medicalSpecialities);
      const list = rows.map((r) => ({ id: r.id, name: r.names[language] ?? r.names.en ?? r.id }));
      list.sort((a, b) => (a.id === 'other' ? 1 : b.id === 'other' ? -1 : a.name.localeCompare(b.name, language)));
      return { medical_specialities: list };
    },
  );
}
