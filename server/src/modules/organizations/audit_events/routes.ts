import { Readable } from 'node:stream';
import { z } from 'zod';
import { auditEventsEnvelope, auditEventsFilter, auditEventsQuery, type AuditEventsFilter } from '../../../../../contract/audit-events.js';
import { toFhirAuditEvent } from '../../../audit/fhir-audit-event.js';
import { currentUser, requireUser } from '../../../http/authenticate.js';
import type { App, AppContext } from '../../../http/context.js';
import { DomainError } from '../../../http/errors.js';
import { errorResponses, fileResponse } from '../../../http/responses.js';
import { requireMembership } from '../service.js';
import { allAuditEvents, listAuditEvents } from './service.js';

const params = z.object({ organizationId: z.uuid({ error: 'invalid_id' }) });

function checkRange(f: AuditEventsFilter) {
  if (f.from && f.to && new Date(f.from) >= new Date(f.to))
    throw new DomainError(400, 'invalid_request', 'The end of the period must come after its start', { to: 'before_from' });
}

/**
 * The organization's audit log (who read or changed which patient record, when, from where), for its
 * administrators only: a member gets 403, anyone else 404 (organizations/service.ts, requireMembership).
 * As a page of events, or whole as FHIR R4 AuditEvent NDJSON.
 */
export function auditEventsRoutes(app: App, ctx: AppContext) {
  const preHandler = requireUser(ctx);
  const base = '/v1/organizations/:organizationId/audit_events';

  app.get(
    base,
    { onRequest: preHandler, schema: { params, querystring: auditEventsQuery, response: { 200: auditEventsEnvelope, ...errorResponses(400, 401, 403, 404) } } },
    async (request, reply) => {
      const m = await requireMembership(ctx.db, currentUser(request), request.params.organizationId, 'admin');
      const { cursor, limit, ...filter } = request.query;
      checkRange(filter);
      reply.header('cache-control', 'no-store');
      return listAuditEvents(ctx.db, m.organizationId, filter, { cursor, limit });
    },
  );

  app.get(
    `${base}.ndjson`,
    {
      onRequest: preHandler,
      schema: {
        params,
        querystring: auditEventsFilter,
        response: {
          200: fileResponse('The events, one FHIR R4 AuditEvent resource a line', ['application/fhir+ndjson']),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request, reply) => {
      const m = await requireMembership(ctx.db, currentUser(request), request.params.organizationId, 'admin');
      checkRange(request.query);
      const observer = { site: new URL(ctx.config.publicUrl).host, url: ctx.config.publicUrl };
      async function* lines() {
        for await (const row of allAuditEvents(ctx.db, m.organizationId, request.query)) yield `${JSON.stringify(toFhirAuditEvent(row, observer))}\n`;
      }
      return reply
        .type('application/fhir+ndjson')
        .header('content-disposition', `attachment; filename="audit-events-${new Date().toISOString().slice(0, 10)}.ndjson"`)
        .header('cache-control', 'no-store')
        .send(Readable.from(lines()));
    },
  );
}
