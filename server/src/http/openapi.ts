/**
 * The API described for integrators: an OpenAPI 3.1 document made from the routes' own zod schemas, served at
 * GET /v1/openapi.json, and a page to read it at /v1/docs. Registered before the routes (the description
 * records each route as it is added) and public: it holds the API's shapes, no data.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifySchema } from 'fastify';
import { createJsonSchemaTransform, createJsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiErrorSchema } from '../../../contract/errors.js';
import { PROJECT_ROOT } from '../paths.js';
import { requiresBearerToken } from './authenticate.js';
import type { App } from './context.js';
import { errorStatusDescriptions } from './responses.js';

export const OPENAPI_PATH = '/v1/openapi.json';
export const DOCS_PREFIX = '/v1/docs';

/** The name of the security scheme of the operations that demand a session token. */
export const BEARER_SCHEME = 'bearer';

const SUCCESS_DESCRIPTIONS: Record<string, string> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted; the work goes on in the background',
  204: 'Done; no content',
  301: 'Moved permanently',
  302: 'Redirect',
  303: 'See other',
  307: 'Temporary redirect',
};

/** One tag per resource: the first segment after /v1 (organizations, consultation_sessions, …). */
export function tagOf(url: string): string {
  const segments = url.split('/').filter(Boolean);
  const resource = (segments[0] === 'v1' ? segments[1] : segments[0]) ?? 'api';
  // The spec's older paths: /healthz, /assistant and /assistants, /template/{id}/reports.
  return ({ healthz: 'health', assistant: 'assistants', template: 'templates' } as Record<string, string>)[resource] ?? resource;
}

const TAG_DESCRIPTIONS: Record<string, string> = {
  health: 'Liveness and readiness of the process, for load balancers and orchestrators',
  login: 'Sign in with e-mail and password; the token also comes in the Authorization response header',
  logout: 'End the current session (revokes its token)',
  signup: 'Create an account',
  account: 'The signed-in user: profile, settings, password',
  organizations: 'Organizations, their members, roles, invitations, audit trail and record-system (FHIR) link',
  consultation_sessions: 'Consultations: creation, audio parts, transcription, documents, export to the record system',
  generated_documents: 'Documents written from a consultation',
  consultation_types: 'The kinds of consultation a clinician can start',
  research_spaces: 'Research spaces: trials, criteria, patients, screenings and their results',
  ai_engines: 'The speech-to-text and text-generation engines of this server (server administrators)',
};

const isZodType = (value: unknown): value is z.ZodType => value instanceof z.ZodType;

type ResponseObject = { description?: string; content?: Record<string, { schema: unknown }> } & Record<string, unknown>;

/** A response given with its content types (files): its zod schemas made JSON Schema here, the zod transform does not take them. */
function contentResponse(response: ResponseObject): ResponseObject {
  const content = Object.fromEntries(
    Object.entries(response.content ?? {}).map(([type, media]) => {
      if (!isZodType(media.schema)) return [type, media];
      const { $schema: _dialect, ...schema } = z.toJSONSchema(media.schema, { io: 'output', target: 'draft-2020-12', unrepresentable: 'any' });
      return [type, { ...media, schema }];
    }),
  );
  return { ...response, content };
}

const zodTransform = createJsonSchemaTransform({ skipList: [] });
type TransformInput = Parameters<typeof zodTransform>[0];

/** The zod transform, plus: file responses, a description for every status, a tag per resource, and the bearer scheme where required. */
function transform(input: TransformInput): { schema: FastifySchema; url: string } {
  const schema = (input.schema ?? {}) as FastifySchema & { hide?: boolean; response?: Record<string, unknown>; tags?: string[] };
  if (schema.hide) return { schema: { hide: true } as FastifySchema, url: input.url };
  const zodResponses: Record<string, unknown> = {};
  const fileResponses: Record<string, ResponseObject> = {};
  for (const [status, response] of Object.entries(schema.response ?? {})) {
    if (!isZodType(response) && response && typeof response === 'object' && 'content' in response)
      fileResponses[status] = contentResponse(response as ResponseObject);
    else zodResponses[status] = response;
  }
  const out = zodTransform({ ...input, schema: { ...schema, response: schema.response ? zodResponses : undefined } as FastifySchema });
  const described = out.schema as Record<string, unknown> & { response?: Record<string, Record<string, unknown>> };
  const responses: Record<string, Record<string, unknown>> = { ...described.response, ...fileResponses };
  for (const [status, response] of Object.entries(responses)) {
    if (response.description) continue;
    const description = SUCCESS_DESCRIPTIONS[status] ?? errorStatusDescriptions[Number(status) as keyof typeof errorStatusDescriptions];
    if (description) responses[status] = { ...response, description };
  }
  const route = (input as { route?: { onRequest?: unknown } }).route;
  return {
    url: out.url,
    schema: {
      ...described,
      ...(Object.keys(responses).length ? { response: responses } : {}),
      tags: schema.tags ?? [tagOf(input.url)],
      ...(requiresBearerToken(route?.onRequest) ? { security: [{ [BEARER_SCHEME]: [] }] } : {}),
    } as FastifySchema,
  };
}

const zodTransformObject = createJsonSchemaTransformObject({});

function packageInfo(): { version: string; description?: string } {
  const pkg = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string; description?: string };
  return pkg;
}

export async function registerOpenApi(app: App): Promise<void> {
  if (!z.globalRegistry.has(apiErrorSchema)) z.globalRegistry.add(apiErrorSchema, { id: 'Error' });
  const pkg = packageInfo();
  const tags = new Set<string>();
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Consultation notes API',
        version: pkg.version,
        description: [
          pkg.description ?? '',
          '',
          'Requests and answers are JSON objects keyed by what they hold (`{ "consultation_session": … }`). Every failure answers its HTTP status with ' +
            '`{ "error": { "code": "snake_case_code", "message": "…", "fields": { … } } }` (the `Error` schema); clients act on `code`, the message is a fallback in English.',
          '',
          'Protected operations need `Authorization: Bearer <token>`: the token comes from `POST /v1/login` (in the body and in the `Authorization` response header) ' +
            'and lasts until it expires or `DELETE /v1/logout` revokes it. Web clients also send `client-version`; an older one than the server supports is answered with `x-client-deprecated: true`.',
        ].join('\n'),
      },
      components: {
        securitySchemes: {
          [BEARER_SCHEME]: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'The session token from POST /v1/login' },
        },
      },
    },
    transform: (input) => {
      const out = transform(input as TransformInput);
      for (const tag of (out.schema as { tags?: string[] }).tags ?? []) tags.add(tag);
      return out;
    },
    transformObject: (documentObject) => {
      // OpenAPI 3 only (the zod transform refuses Swagger 2).
      const document = zodTransformObject(documentObject as Parameters<typeof zodTransformObject>[0]) as {
        paths?: unknown;
        components?: { schemas?: Record<string, unknown> } & Record<string, unknown>;
      } & Record<string, unknown>;
      // The registry also yields each named schema's input form; only those the operations refer to are kept.
      const used = JSON.stringify(document.paths ?? {});
      const schemas = Object.fromEntries(
        Object.entries(document.components?.schemas ?? {}).filter(([name]) => used.includes(`"#/components/schemas/${name}"`)),
      );
      // Back to the plugin's own type: only the list of schemas was narrowed.
      return {
        ...document,
        components: { ...document.components, schemas },
        tags: [...tags].sort().map((name) => ({ name, ...(TAG_DESCRIPTIONS[name] ? { description: TAG_DESCRIPTIONS[name] } : {}) })),
      } as unknown as ReturnType<typeof zodTransformObject>;
    },
  });
  // The document, made once on first request (the routes do not change once the app is ready).
  app.get(OPENAPI_PATH, { schema: { hide: true } }, async (_request, reply) => reply.type('application/json; charset=utf-8').send(app.swagger()));
  // The page loads only its own scripts and styles from this server, so it runs under the app's policy
  // (http/security.ts) without exceptions: no inline script, no validator badge from swagger.io.
  await app.register(swaggerUi, {
    routePrefix: DOCS_PREFIX,
    uiConfig: { deepLinking: true, docExpansion: 'list', defaultModelsExpandDepth: 0 },
    theme: { title: 'Consultation notes API' },
  });
}
