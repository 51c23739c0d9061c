/**
 * SMART App Launch 2 from a record system (EHR launch): the record system opens `/launch?iss=…&launch=…`; this
 * server finds the organization whose record system is `iss` and that registered a launch client id, reads the
 * record system's `.well-known/smart-configuration`, and sends the browser to its authorization server with PKCE
 * (S256). Back at `/launch/callback`, the code is exchanged (back channel, through the outbound guard) for a
 * token naming the patient, the encounter and the clinician; the clinician is signed in (matched by e-mail, or
 * given an account in that organization), and the consultation for that patient is started or reopened, so that
 * its documents go to that patient's record with no further choice.
 *
 * Trust rests on the organization's own setting: only an `iss` an admin entered is followed, the token comes
 * straight from the token endpoint that `iss` names (so the ID token is taken on TLS's word, as OpenID Connect
 * allows for a token endpoint's answer), and a clinician of another organization is never signed in by it.
 */
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNotNull, isNull, lt } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { fetch } from 'undici';
import { createOneTimeToken, sha256 } from '../../auth/one-time-tokens.js';
import { hashPassword } from '../../auth/passwords.js';
import { findUserByEmail, type UserRow } from '../../auth/users.js';
import { consultationSessions, organizationFhirEndpoints, smartLaunches, users } from '../../db/schema.js';
import type { AppContext } from '../../http/context.js';
import { checkOutboundUrl, guardedDispatcher } from '../../http/outbound-guard.js';
import { readAnswer, type Answer } from '../consultation_sessions/fhir-push.js';
import { createSession } from '../consultation_sessions/service.js';
import { findActiveSession } from '../consultation_sessions/repository.js';
import { open, seal } from '../organizations/fhir_endpoint/service.js';

/** Why a launch did not sign the clinician in; the page they land on says it in their language. */
export type LaunchFailure = 'unknown_record_system' | 'record_system_unreachable' | 'refused' | 'expired' | 'not_member' | 'no_identity';
export class LaunchError extends Error {
  constructor(readonly reason: LaunchFailure) {
    super(reason);
  }
}

const LAUNCH_TTL_MS = 10 * 60_000;
const SIGN_IN_TTL_SECONDS = 120;
const REQUEST_TIMEOUT_MS = 15_000;
/** A FHIR id: letters, digits, '-' and '.', at most 64. */
const FHIR_ID = /^[A-Za-z0-9\-.]{1,64}$/;
export const LAUNCH_SCOPE = 'launch openid fhirUser patient/Patient.rs patient/Encounter.rs';

const base64url = (b: Buffer) => b.toString('base64url');
const trimmed = (url: string) => url.replace(/\/+$/, '');

async function getJson(ctx: AppContext, url: string, headers: Record<string, string> = {}, init: { method?: string; body?: string } = {}): Promise<Answer> {
  const res = await fetch(url, {
    method: init.method ?? 'GET',
    headers: { accept: 'application/json', ...headers },
    body: init.body,
    dispatcher: guardedDispatcher(ctx.config.fhirAllowPrivateNetworks),
    redirect: 'manual',
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  return readAnswer(res);
}

/** Step 1: where to send the browser (the record system's authorization server). */
export async function beginLaunch(ctx: AppContext, input: { iss: string; launch: string }): Promise<string> {
  let iss: string;
  try {
    iss = trimmed(checkOutboundUrl(input.iss, ctx.config.fhirAllowPrivateNetworks, 'iss').toString());
  } catch {
    throw new LaunchError('unknown_record_system');
  }
  // Only a record system an organization's admin entered, with a launch client id: one organization, not a guess.
  const linked = await ctx.db
    .select()
    .from(organizationFhirEndpoints)
    .where(and(eq(organizationFhirEndpoints.baseUrl, iss), isNotNull(organizationFhirEndpoints.launchClientId)));
  if (linked.length !== 1) throw new LaunchError('unknown_record_system');
  const endpoint = linked[0]!;

  const discovery = await getJson(ctx, `${iss}/.well-known/smart-configuration`).catch(() => undefined);
  const config = (discovery?.status === 200 ? discovery.body : undefined) as
    | { authorization_endpoint?: unknown; token_endpoint?: unknown; code_challenge_methods_supported?: unknown }
    | undefined;
  const { authorization_endpoint: authorize, token_endpoint: token } = config ?? {};
  if (typeof authorize !== 'string' || typeof token !== 'string') throw new LaunchError('record_system_unreachable');
  const methods = config?.code_challenge_methods_supported;
  if (Array.isArray(methods) && !methods.includes('S256')) throw new LaunchError('record_system_unreachable');
  let authorizeUrl: URL;
  try {
    checkOutboundUrl(token, ctx.config.fhirAllowPrivateNetworks, 'token_endpoint');
    authorizeUrl = checkOutboundUrl(authorize, ctx.config.fhirAllowPrivateNetworks, 'authorization_endpoint');
  } catch {
    throw new LaunchError('record_system_unreachable');
  }

  // Launches never returned from (the clinician closed the window) are not kept past their time.
  await ctx.db.delete(smartLaunches).where(lt(smartLaunches.expiresAt, new Date()));
  const state = base64url(randomBytes(32));
  const verifier = base64url(randomBytes(32));
  await ctx.db.insert(smartLaunches).values({
    stateHash: sha256(state),
    organizationId: endpoint.organizationId,
    iss,
    tokenEndpoint: token,
    verifierSealed: seal(ctx.engines.keys, endpoint.organizationId, 'launch-verifier', verifier),
    expiresAt: new Date(Date.now() + LAUNCH_TTL_MS),
  });
  const params = {
    response_type: 'code',
    client_id: endpoint.launchClientId!,
    redirect_uri: `${ctx.config.publicUrl}/launch/callback`,
    launch: input.launch,
    scope: LAUNCH_SCOPE,
    state,
    aud: iss,
    code_challenge: base64url(createHash('sha256').update(verifier).digest()),
    code_challenge_method: 'S256',
  };
  for (const [k, v] of Object.entries(params)) authorizeUrl.searchParams.set(k, v);
  return authorizeUrl.toString();
}

type Granted = { access_token?: unknown; patient?: unknown; encounter?: unknown; id_token?: unknown };

/** Step 2: the code for a token, the clinician signed in, the consultation ready. Answers a one-time sign-in token. */
export async function completeLaunch(ctx: AppContext, input: { code: string; state: string }): Promise<{ token: string; consultationId: string }> {
  // Single use and short-lived: a replayed or late return signs nobody in.
  const [launch] = await ctx.db
    .update(smartLaunches)
    .set({ usedAt: new Date() })
    .where(and(eq(smartLaunches.stateHash, sha256(input.state)), isNull(smartLaunches.usedAt), gt(smartLaunches.expiresAt, new Date())))
    .returning();
  if (!launch) throw new LaunchError('expired');
  const [endpoint] = await ctx.db.select().from(organizationFhirEndpoints).where(eq(organizationFhirEndpoints.organizationId, launch.organizationId));
  // The setting changed meanwhile (another address, launches turned off): the launch began under the old one.
  if (!endpoint?.launchClientId || endpoint.baseUrl !== launch.iss) throw new LaunchError('expired');

  const form = new URLSearchParams({
    grant_type: 'authorization_code',
    code: input.code,
    redirect_uri: `${ctx.config.publicUrl}/launch/callback`,
    client_id: endpoint.launchClientId,
    code_verifier: open(ctx.engines.keys, launch.organizationId, 'launch-verifier', launch.verifierSealed),
  });
  const answer = await getJson(ctx, launch.tokenEndpoint, { 'content-type': 'application/x-www-form-urlencoded' }, { method: 'POST', body: form.toString() }).catch(() => undefined);
  if (!answer) throw new LaunchError('record_system_unreachable');
  const granted = (answer.status === 200 ? answer.body : undefined) as Granted | undefined;
  if (typeof granted?.access_token !== 'string' || !granted.access_token) throw new LaunchError('refused');
  const patient = typeof granted.patient === 'string' && FHIR_ID.test(granted.patient) ? granted.patient : null;
  const encounter = typeof granted.encounter === 'string' && FHIR_ID.test(granted.encounter) ? granted.encounter : null;

  const who = await clinicianOf(ctx, launch.iss, granted.access_token, granted.id_token);
  if (!who) throw new LaunchError('no_identity');
  const user = await signInUser(ctx, launch.organizationId, who);

  // The consultation with this patient, reopened if it is the one under way; otherwise a new one (one under way
  // with another patient is finished, its recording and transcript kept, as a new start from the app does).
  const active = await findActiveSession(ctx.db, user.id);
  let consultationId: string;
  if (active && active.fhirPatientId === patient && active.fhirEncounterId === encounter && active.organizationId === launch.organizationId) {
    consultationId = active.id;
  } else {
    const created = await createSession(ctx, user.id, { consultation_type_id: 'general_consultation', force: true });
    await ctx.db.update(consultationSessions).set({ fhirPatientId: patient, fhirEncounterId: encounter }).where(eq(consultationSessions.id, created.id));
    consultationId = created.id;
  }
  const { token } = await createOneTimeToken(ctx.db, user.id, 'smart_launch', SIGN_IN_TTL_SECONDS);
  return { token, consultationId };
}

type Clinician = { email: string; name: string };

/** The clinician the record system names: the ID token's e-mail, or their Practitioner resource's. */
async function clinicianOf(ctx: AppContext, iss: string, accessToken: string, idToken: unknown): Promise<Clinician | undefined> {
  let claims: Record<string, unknown> = {};
  try {
    if (typeof idToken === 'string') claims = decodeJwt(idToken);
  } catch {
    claims = {};
  }
  const name = typeof claims.name === 'string' ? claims.name : undefined;
  const email = typeof claims.email === 'string' ? claims.email : undefined;
  if (email) return { email: email.toLowerCase(), name: name ?? email };
  const fhirUser = typeof claims.fhirUser === 'string' ? claims.fhirUser : undefined;
  if (!fhirUser) return undefined;
  // Only a resource of that record system, read with the token it gave.
  const url = /^https?:/.test(fhirUser) ? fhirUser : `${iss}/${fhirUser.replace(/^\/+/, '')}`;
  if (!url.startsWith(`${iss}/`) || !/\/(Practitioner|PractitionerRole|Person)\/[A-Za-z0-9\-.]{1,64}$/.test(url)) return undefined;
  const answer = await getJson(ctx, url, { accept: 'application/fhir+json', authorization: `Bearer ${accessToken}` }).catch(() => undefined);
  const resource = (answer?.status === 200 ? answer.body : undefined) as
    | { telecom?: { system?: string; value?: string }[]; name?: { text?: string; given?: string[]; family?: string }[] }
    | undefined;
  const mail = resource?.telecom?.find((t) => t.system === 'email' && typeof t.value === 'string')?.value;
  if (!mail) return undefined;
  const n = resource?.name?.[0];
  const shown = n?.text ?? [...(n?.given ?? []), n?.family].filter(Boolean).join(' ');
  return { email: mail.toLowerCase(), name: (shown || name || mail).slice(0, 200) };
}

async function signInUser(ctx: AppContext, organizationId: string, who: Clinician): Promise<UserRow> {
  if (!/^[^\s@]{1,64}@[^\s@]{1,255}$/.test(who.email)) throw new LaunchError('no_identity');
  const known = await findUserByEmail(ctx.db, who.email);
  if (known) {
    if (known.organizationId !== organizationId) throw new LaunchError('not_member');
    return known;
  }
  // New to this app: a member of the organization whose record system vouches for them. No password anyone
  // knows: they sign in from the record system, or set one with "forgot password".
  const [created] = await ctx.db
    .insert(users)
    .values({
      name: who.name.slice(0, 200),
      email: who.email,
      passwordHash: await hashPassword(base64url(randomBytes(32))),
      organizationId,
      organizationRole: 'member',
      emailConfirmedAt: new Date(),
    })
    .onConflictDoNothing()
    .returning();
  if (created) return created;
  // Two launches for a new clinician at once: the other one made the account.
  const raced = await findUserByEmail(ctx.db, who.email);
  if (!raced || raced.organizationId !== organizationId) throw new LaunchError('not_member');
  return raced;
}
