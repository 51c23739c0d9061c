/**
 * Settings › AI engines: what the routes do. Only the administrators of this server (users.server_admin, granted
 * by `npm run admin -- grant-server-admin`) reach any of it; organisation administrators do not, since the
 * engines serve every organisation of the server.
 */
import type { FastifyRequest } from 'fastify';
import type { AiEngineKind, AiEngineState, AiEnginesView, SaveAiEngineBody, TestAiEngineBody } from '../../../../contract/ai-engines.js';
import { verifyPassword } from '../../auth/passwords.js';
import type { UserRow } from '../../auth/users.js';
import { checkSpeech, checkText, discoverEngines, type CheckResult, type FoundEngine } from '../../ai/engine-check.js';
import { openApiKey, sealApiKey, type SavedEngine } from '../../ai/engine-settings.js';
import { readSavedEngines, removeEngine, saveEngine } from './saved-engines.js';
import { NO_KEY } from '../../ai/engine-switch.js';
import { currentUser } from '../../http/authenticate.js';
import type { AppContext } from '../../app-context.js';
import { DomainError } from '../../errors/domain-error.js';

export function serverAdmin(request: FastifyRequest): UserRow {
  const user = currentUser(request);
  if (!user.serverAdmin) throw new DomainError(403, 'server_admin_only', 'Only an administrator of this server can see or change its AI engines');
  return user;
}

/** An address as shown: a user, password or query the environment's setting may carry stays on the server. */
function withoutCredentials(address: string): string {
  if (!URL.canParse(address)) return '';
  const u = new URL(address);
  u.username = '';
  u.password = '';
  u.search = '';
  u.hash = '';
  return u.toString().replace(/\/+$/, '');
}

export async function enginesView(ctx: AppContext): Promise<AiEnginesView> {
  const saved = await readSavedEngines(ctx.db);
  const state = (kind: AiEngineKind): AiEngineState => {
    const a = ctx.engines.active(kind);
    const s = saved[kind];
    return {
      active: { engine: a.engine, model: a.model, base_url: a.baseUrl && withoutCredentials(a.baseUrl), source: a.source },
      problem: ctx.engines.problem(kind) ?? null,
      locked_by_environment: ctx.engines.lockedByEnvironment(kind),
      saved: s ? { base_url: s.baseUrl, model: s.model, has_key: Boolean(s.apiKeySealed), updated_at: s.updatedAt.toISOString() } : null,
    };
  };
  return { speech: state('speech'), text: state('text') };
}

async function checkPassword(user: UserRow, password: string) {
  if (!(await verifyPassword(user.passwordHash, password))) {
    throw new DomainError(400, 'invalid_current_password', 'The password is not correct', { password: 'invalid_current_password' });
  }
}

function refuseWhenLocked(ctx: AppContext, kind: AiEngineKind) {
  if (ctx.engines.lockedByEnvironment(kind)) {
    throw new DomainError(409, 'locked_by_environment', "The server's environment settings choose this engine; change them there");
  }
}

/**
 * The saved key goes only to the address it was saved for: a request naming another address without a key
 * would otherwise send the stored key wherever it pointed.
 */
function keyFor(keys: AppContext['engines']['keys'], saved: SavedEngine | undefined, baseUrl: string, given: string | undefined): string | null {
  if (given !== undefined) return given || null;
  if (saved?.apiKeySealed && saved.baseUrl === baseUrl) return openSavedKey(keys, saved.kind, saved.apiKeySealed);
  return null;
}

function openSavedKey(keys: AppContext['engines']['keys'], kind: AiEngineKind, sealed: string): string {
  try {
    return openApiKey(keys, kind, sealed);
  } catch {
    throw new DomainError(409, 'saved_key_unusable', "The saved API key cannot be opened with this server's master key: enter the key again");
  }
}

/** Every key a test may carry or an engine may echo (`saved`: this kind's saved setting): blanked out of what comes back. */
function secretsOf(ctx: AppContext, saved: SavedEngine | undefined, extra: (string | null)[]): string[] {
  let savedKey: string | undefined;
  try {
    savedKey = saved?.apiKeySealed ? openApiKey(ctx.engines.keys, saved.kind, saved.apiKeySealed) : undefined;
  } catch {
    savedKey = undefined;
  }
  return [ctx.config.openaiApiKey, savedKey, ...extra].filter((k): k is string => Boolean(k));
}

export async function saveEngineSetting(ctx: AppContext, user: UserRow, kind: AiEngineKind, body: SaveAiEngineBody) {
  await checkPassword(user, body.password);
  refuseWhenLocked(ctx, kind);
  const saved = (await readSavedEngines(ctx.db))[kind];
  const key = keyFor(ctx.engines.keys, saved, body.base_url, body.api_key);
  await saveEngine(ctx.db, {
    kind,
    baseUrl: body.base_url,
    model: body.model,
    apiKeySealed: key ? sealApiKey(ctx.engines.keys, kind, key) : null,
    updatedBy: user.id,
  });
  await ctx.engines.reload();
}

export async function resetEngineSetting(ctx: AppContext, user: UserRow, kind: AiEngineKind, password: string) {
  await checkPassword(user, password);
  refuseWhenLocked(ctx, kind);
  await removeEngine(ctx.db, kind);
  await ctx.engines.reload();
}

export async function testEngine(ctx: AppContext, kind: AiEngineKind, body: TestAiEngineBody): Promise<CheckResult> {
  // Read once: it gives both the key a test may send and the keys to blank out of the answer.
  const saved = (await readSavedEngines(ctx.db))[kind];
  if (body.base_url && body.model) {
    const key = keyFor(ctx.engines.keys, saved, body.base_url, body.api_key);
    const endpoint = { baseUrl: body.base_url, model: body.model, apiKey: key ?? NO_KEY };
    const secrets = secretsOf(ctx, saved, [key]);
    return kind === 'speech' ? checkSpeech(ctx.blobs, endpoint, secrets) : checkText(endpoint, secrets);
  }
  const secrets = secretsOf(ctx, saved, []);
  return kind === 'speech' ? checkSpeech(ctx.blobs, ctx.transcriber, secrets) : checkText(ctx.textGenerator, secrets);
}

export const discover = (ctx: AppContext): Promise<FoundEngine[]> => discoverEngines(ctx.config.aiDiscoveryUrls, ctx.config.port);
