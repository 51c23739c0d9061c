import { z } from 'zod';
import {
  AI_ENGINE_KINDS,
  aiEnginesView,
  aiEngineTestResult,
  foundEngines,
  resetAiEngineBody,
  saveAiEngineBody,
  testAiEngineBody,
} from '../../../../contract/ai-engines.js';
import { apiErrorSchema } from '../../../../contract/errors.js';
import { requireUser } from '../../http/authenticate.js';
import type { App, AppContext } from '../../http/context.js';
import { discover, enginesView, resetEngineSetting, saveEngineSetting, serverAdmin, testEngine } from './service.js';

const kindParams = z.object({ kind: z.enum(AI_ENGINE_KINDS, { error: 'not_found' }) });
/** Password checks and calls to other servers: a stolen session must not turn them into a guessing or scanning tool. */
const passwordChecked = { rateLimit: { max: 20, timeWindow: 60_000 } };
const callsOut = { rateLimit: { max: 30, timeWindow: 60_000 } };

export function aiEnginesRoutes(app: App, ctx: AppContext) {
  const onRequest = requireUser(ctx);
  const errors = { 400: apiErrorSchema, 401: apiErrorSchema, 403: apiErrorSchema, 404: apiErrorSchema, 409: apiErrorSchema, 429: apiErrorSchema };

  app.get('/v1/ai_engines', { onRequest, schema: { response: { 200: aiEnginesView, ...errors } } }, async (request) => {
    serverAdmin(request);
    return enginesView(ctx);
  });

  app.get('/v1/ai_engines/discover', { onRequest, config: callsOut, schema: { response: { 200: foundEngines, ...errors } } }, async (request) => {
    serverAdmin(request);
    return { found: await discover(ctx) };
  });

  app.put(
    '/v1/ai_engines/:kind',
    { onRequest, config: passwordChecked, schema: { params: kindParams, body: saveAiEngineBody, response: { 200: aiEnginesView, ...errors } } },
    async (request) => {
      const user = serverAdmin(request);
      await saveEngineSetting(ctx, user, request.params.kind, request.body);
      // Where patients' words now go (never the key): the audit log keeps who and when.
      request.log.info({ kind: request.params.kind, host: new URL(request.body.base_url).host, model: request.body.model }, 'AI engine changed in the app');
      return enginesView(ctx);
    },
  );

  app.post(
    '/v1/ai_engines/:kind/reset',
    { onRequest, config: passwordChecked, schema: { params: kindParams, body: resetAiEngineBody, response: { 200: aiEnginesView, ...errors } } },
    async (request) => {
      const user = serverAdmin(request);
      await resetEngineSetting(ctx, user, request.params.kind, request.body.password);
      request.log.info({ kind: request.params.kind }, 'AI engine set back to the default');
      return enginesView(ctx);
    },
  );

  app.post(
    '/v1/ai_engines/:kind/test',
    { onRequest, config: callsOut, schema: { params: kindParams, body: testAiEngineBody, response: { 200: aiEngineTestResult, ...errors } } },
    async (request) => {
      serverAdmin(request);
      if (request.body.base_url)
        request.log.info({ kind: request.params.kind, host: new URL(request.body.base_url).host, model: request.body.model }, 'AI engine tested');
      return testEngine(ctx, request.params.kind, request.body);
    },
  );
}
