import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { cleanDictation } from '../../ai/offline-composer.js';
import { transcribeUpload } from '../../ai/transcribe-upload.js';
import { TranscriptionUnavailableError } from '../../ai/transcriber.js';
import type { Language } from '../../../../contract/constants.js';
import { currentUser, requireUser } from '../../http/authenticate.js';
import type { App, AppContext } from '../../http/context.js';
import { DomainError } from '../../http/errors.js';
import { readMultipart } from '../../http/multipart.js';
import { errorResponses } from '../../http/responses.js';

export const DEFAULT_AUDIO_MODEL = 'whisper-1';

/**
 * Spec §7: multipart {prompt, clean, model, audio} → the text. `clean` removes hesitations; `model` defaults to
 * whisper-1 and matters only to engines that offer several (the server's engine decides).
 */
export function audioToTextRoutes(app: App, ctx: AppContext) {
  const handler = async (request: FastifyRequest) => {
    const user = currentUser(request);
    const { fields, file } = await readMultipart(request, { maxFileBytes: ctx.config.maxAudioChunkBytes, fileFields: ['audio'] });
    const audio = file?.data;
    if (!audio?.length) throw new DomainError(400, 'audio_missing', 'No audio received', { audio: 'required' });
    const options = z
      .object({ prompt: z.string().max(2000).optional(), clean: z.enum(['true', 'false', '1', '0']).optional(), model: z.string().max(100).optional() })
      .safeParse(fields);
    if (!options.success) throw new DomainError(400, 'invalid_request', 'Invalid fields', { fields: 'invalid' });
    try {
      const text = await transcribeUpload(ctx.transcriber, ctx.blobs, { data: audio, language: user.language, prompt: options.data.prompt });
      const clean = options.data.clean === 'true' || options.data.clean === '1';
      return { text: clean ? cleanDictation(text, user.language as Language) : text, model: options.data.model ?? DEFAULT_AUDIO_MODEL };
    } catch (err) {
      if (err instanceof TranscriptionUnavailableError) throw new DomainError(503, 'internal_error', 'No speech engine is available on this server');
      throw err;
    }
  };
  const schema = {
    response: {
      200: z.object({ text: z.string(), model: z.string().describe("The model asked for (whisper-1 by default); the server's engine decides") }),
      ...errorResponses(400, 401, 413, 415, 429, 503),
    },
  };
  app.post('/audio-to-text', { onRequest: requireUser(ctx), schema, config: { rateLimit: { max: 60, timeWindow: 60_000 } } }, handler);
  app.post('/audio-to-text-upload', { onRequest: requireUser(ctx), schema, config: { rateLimit: { max: 60, timeWindow: 60_000 } } }, handler);
}
