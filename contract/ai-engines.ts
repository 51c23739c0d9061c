import { z } from 'zod';
import { isMetadataAddress } from './ip-address.js';

/**
 * Settings › AI engines (for the administrators of this server): which engines run, the OpenAI-compatible
 * endpoints saved in the app, engines found on this machine, and a test of either. API keys go in, never out.
 */
export const AI_ENGINE_KINDS = ['speech', 'text'] as const;
export type AiEngineKind = (typeof AI_ENGINE_KINDS)[number];

const activeEngine = z.object({
  /** speech: local | openai | none; text: composer | local | openai */
  engine: z.string(),
  model: z.string().nullable(),
  base_url: z.string().nullable(),
  /** environment: the server's settings chose it and win; app: saved here; default: the embedded engine. */
  source: z.enum(['environment', 'app', 'default']),
});

const savedEngine = z.object({ base_url: z.string(), model: z.string(), has_key: z.boolean(), updated_at: z.string() });

export const aiEngineState = z.object({
  active: activeEngine,
  /** The saved setting could not be used (its key does not open here): the default runs meanwhile. */
  problem: z.string().nullable(),
  locked_by_environment: z.boolean(),
  saved: savedEngine.nullable(),
});

export const aiEnginesView = z.object({ speech: aiEngineState, text: aiEngineState });
export type AiEnginesView = z.infer<typeof aiEnginesView>;
export type AiEngineState = z.infer<typeof aiEngineState>;

/** An OpenAI-compatible base address: http(s), no user or password in it (the key has its own field). */
export const engineBaseUrl = z
  .string()
  .trim()
  .max(500, { error: 'too_long' })
  .refine(
    (v) => {
      if (!URL.canParse(v)) return false;
      const u = new URL(v);
      // No query or fragment: the SDK appends its paths to the address as text, and a query would swallow them.
      return (u.protocol === 'http:' || u.protocol === 'https:') && !u.username && !u.password && !u.search && !u.hash && !v.includes('?') && !v.includes('#');
    },
    { error: 'invalid_url' },
  )
  .refine((v) => !URL.canParse(v) || !isMetadataAddress(new URL(v).hostname), { error: 'link_local_address' })
  .transform((v) => v.replace(/\/+$/, ''));

const model = z
  .string()
  .trim()
  .min(1, { error: 'required' })
  .max(200, { error: 'too_long' })
  .regex(/^[\w.:/@+-]+$/, { error: 'invalid_model' });
const apiKey = z
  .string()
  .trim()
  .max(1000, { error: 'too_long' })
  .regex(/^[\x21-\x7e]*$/, { error: 'invalid_key' });
const password = z.string().min(1, { error: 'required' }).max(256, { error: 'too_long' });

export const saveAiEngineBody = z
  .object({
    base_url: engineBaseUrl,
    model,
    /** A new key; absent keeps the saved one (for the same address), empty removes it. */
    api_key: apiKey.optional(),
    /** The administrator's password, asked again: this setting decides where patients' words are sent. */
    password,
  })
  .strict();
export type SaveAiEngineBody = z.infer<typeof saveAiEngineBody>;

export const resetAiEngineBody = z.object({ password }).strict();

export const testAiEngineBody = z
  .object({
    /** Absent: tests the engine that runs now. */
    base_url: engineBaseUrl.optional(),
    model: model.optional(),
    /** Absent: the saved key, only when the address is the saved one. */
    api_key: apiKey.optional(),
  })
  .strict()
  .refine((b) => !b.base_url === !b.model, { error: 'base_url and model go together', path: ['model'] });
export type TestAiEngineBody = z.infer<typeof testAiEngineBody>;

export const aiEngineTestResult = z.union([
  z.object({ ok: z.literal(true), latency_ms: z.number(), answer: z.string(), expected: z.string().optional() }),
  z.object({
    ok: z.literal(false),
    latency_ms: z.number(),
    error: z.enum(['unreachable', 'address_not_allowed', 'unauthorized', 'not_found', 'timeout', 'failed']),
    status: z.number().nullable(),
    message: z.string(),
  }),
]);
export type AiEngineTestResult = z.infer<typeof aiEngineTestResult>;

export const foundEngines = z.object({
  found: z.array(z.object({ base_url: z.string(), name: z.string(), speech_models: z.array(z.string()), text_models: z.array(z.string()) })),
});
export type FoundEngines = z.infer<typeof foundEngines>;
