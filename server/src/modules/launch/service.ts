/**
 * SMART App Launch 2 from a record system (EHR launch): the record system opens `/launch/{organization}?iss=…&launch=…`
 * (each organization registers its own launch address, so no organization can take another's launches); this
 * server checks that `iss` is that organization's record system with a launch client id, reads the
 * record system's `.well-known/smart-configuration` (its authorization server, and the issuer and key set of its ID
 * tokens), and sends the browser to its authorization server with PKCE (S256) and a fresh OpenID nonce, with another
 * nonce in an HttpOnly cookie of the launching browser. Back at `/launch/callback` (that browser only), the code is
 * exchanged (back channel, through the outbound guard) for a token naming the patient, the encounter and the
 * clinician, whose ID token is believed only once verified (id-token.ts: signature by the record system's published
 * keys, issuer, audience, lifetime, and this launch's nonce), and the consultation for that patient is started or
 * reopened, so that its documents go to that patient's record with no further choice. The browser is handed a
 * sign-in through a short-lived HttpOnly cookie that only POST /v1/launch_session spends, never through an address.
 *
 * Who signs in: the record system's user (its `sub`, or fhirUser) linked to one account here. A clinician new to
 * the app gets an account in that organization, linked at once. An account that existed before is never taken
 * over on the record system's word (its ID token is verified, but whoever runs the record system signs it and writes
 * its e-mail): such a launch becomes a link request, and the link is made only once the clinician enters that
 * account's password (linkAccount). An organization's admin enters it at every launch.
 * Server admins are never signed in from a record system.
 */
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import type { JWTPayload } from 'jose';
import type { Language } from '../../../../contract/constants.js';
import { PATIENT_LABEL_MAX } from '../../../../contract/consultations.js';
import { fetch } from 'undici';
import type { LoginSource } from '../../auth/login-limiter.js';
import { createOneTimeToken, sha256 } from '../../auth/one-time-tokens.js';
import { hashPassword, verifyPassword } from '../../auth/passwords.js';
import { findUserByEmail, findUserById, type UserRow } from '../../auth/users.js';
import { consultationSessions, organizationFhirEndpoints, recordSystemIdentities, recordSystemLinkRequests, smartLaunches, users } from '../../db/schema.js';
import type { AppContext } from '../../app-context.js';
import { checkOutboundUrl, guardedDispatcher, refuseMetadataUrl, strictGuardedDispatcher } from '../../security/outbound-guard.js';
import { readAnswer, type Answer } from '../consultation_sessions/fhir-push.js';
import { createSession } from '../consultation_sessions/service.js';
import { findActiveSession } from '../consultation_sessions/repository.js';
import { open, seal } from '../organizations/fhir_endpoint/service.js';
import { IdTokenRefused, verifyIdToken } from './id-token.js';

/** Why a launch did not sign the clinician in; the page they land on says it in their language. */
export type LaunchFailure =
  | 'unknown_record_system'
  | 'record_system_unreachable'
  | 'refused'
  | 'expired'
  | 'not_member'
  | 'no_identity'
  | 'recording_elsewhere';
export class LaunchError extends Error {
  constructor(
    readonly reason: LaunchFailure,
    /** For the server log: which check failed (never a token). */
    readonly detail?: string,
  ) {
    super(reason);
  }
}

const LAUNCH_TTL_MS = 10 * 60_000;
const LINK_TTL_MS = 10 * 60_000;
/** Wrong passwords a link request survives; the account's sign-in back-off counts them as well. */
const LINK_ATTEMPTS = 5;
const SIGN_IN_TTL_SECONDS = 120;
const REQUEST_TIMEOUT_MS = 15_000;
/** A FHIR id: letters, digits, '-' and '.', at most 64. */
const FHIR_ID = /^(?!\.+$)[A-Za-z0-9\-.]{1,64}$/;
export const LAUNCH_SCOPE = 'launch openid fhirUser patient/Patient.rs patient/Encounter.rs';

const base64url = (b: Buffer) => b.toString('base64url');
const trimmed = (url: string) => url.replace(/\/+$/, '');

async function getJson(
  ctx: AppContext,
  url: string,
  headers: Record<string, string> = {},
  init: { method?: string; body?: string; dispatcher?: ReturnType<typeof guardedDispatcher> } = {},
): Promise<Answer> {
  const res = await fetch(url, {
    method: init.method ?? 'GET',
    headers: { accept: 'application/json', ...headers },
    body: init.body,
    dispatcher: init.dispatcher ?? guardedDispatcher(ctx.config.fhirAllowPrivateNetworks),
    redirect: 'manual',
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  return readAnswer(res);
}

/** Step 1: where to send the browser (the record system's authorization server), and the browser's nonce. */
export async function beginLaunch(
  ctx: AppContext,
  input: { organizationId: string; iss: string; launch: string },
): Promise<{ location: string; nonce: string }> {
  let iss: string;
  try {
    iss = trimmed(checkOutboundUrl(input.iss, ctx.config.fhirAllowPrivateNetworks, 'iss').toString());
  } catch {
    throw new LaunchError('unknown_record_system');
  }
  // Only the record system this organization's admin entered, with a launch client id.
  const [endpoint] = await ctx.db
    .select()
    .from(organizationFhirEndpoints)
    .where(
      and(
        eq(organizationFhirEndpoints.organizationId, input.organizationId),
        eq(organizationFhirEndpoints.baseUrl, iss),
        isNotNull(organizationFhirEndpoints.launchClientId),
      ),
    );
  if (!endpoint) throw new LaunchError('unknown_record_system');

  const discovery = await getJson(ctx, `${iss}/.well-known/smart-configuration`).catch(() => undefined);
  const config = (discovery?.status === 200 ? discovery.body : undefined) as
    | { authorization_endpoint?: unknown; token_endpoint?: unknown; code_challenge_methods_supported?: unknown; issuer?: unknown; jwks_uri?: unknown }
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
  const keys = await idTokenKeysOf(ctx, iss, config?.issuer, config?.jwks_uri);

  // Launches never returned from (the clinician closed the window) are read only before their time and deleted by the retention sweep.
  const state = base64url(randomBytes(32));
  const verifier = base64url(randomBytes(32));
  const nonce = base64url(randomBytes(32));
  // Another nonce than the browser's: this one travels in the authorization request's address, for the ID token.
  const idTokenNonce = base64url(randomBytes(32));
  await ctx.db.insert(smartLaunches).values({
    stateHash: sha256(state),
    organizationId: endpoint.organizationId,
    iss,
    tokenEndpoint: token,
    verifierSealed: seal(ctx.engines.keys, endpoint.organizationId, 'launch-verifier', verifier),
    browserHash: sha256(nonce),
    idTokenIssuer: keys.issuer,
    jwksUri: keys.jwksUri,
    idTokenNonceHash: sha256(idTokenNonce),
    expiresAt: new Date(Date.now() + LAUNCH_TTL_MS),
  });
  const params = {
    response_type: 'code',
    client_id: endpoint.launchClientId!,
    redirect_uri: `${ctx.config.publicUrl}/launch/callback`,
    launch: input.launch,
    scope: LAUNCH_SCOPE,
    state,
    nonce: idTokenNonce,
    aud: iss,
    code_challenge: base64url(createHash('sha256').update(verifier).digest()),
    code_challenge_method: 'S256',
  };
  for (const [k, v] of Object.entries(params)) authorizeUrl.searchParams.set(k, v);
  return { location: authorizeUrl.toString(), nonce };
}

/** Longest issuer or key set address taken from a record system's configuration. */
const DISCOVERED_URL_MAX = 2000;

/**
 * Who issues the record system's ID tokens and where its keys are: from its SMART configuration (`issuer`,
 * `jwks_uri`, which SMART requires of a server offering OpenID Connect); when it names no key set, from its
 * issuer's OpenID configuration, which must name the same issuer. With no issuer named, the issuer is the record
 * system's own address. A launch that could not verify the ID token at its end does not begin.
 */
async function idTokenKeysOf(ctx: AppContext, iss: string, issuerNamed: unknown, jwksNamed: unknown): Promise<{ issuer: string; jwksUri: string }> {
  const allowPrivate = ctx.config.fhirAllowPrivateNetworks;
  const url = (v: unknown) => (typeof v === 'string' && v.length > 0 && v.length <= DISCOVERED_URL_MAX ? v : undefined);
  const issuer = issuerNamed === undefined ? iss : url(issuerNamed);
  if (!issuer) throw new LaunchError('record_system_unreachable', 'its SMART configuration names an unusable issuer');
  let jwksUri = url(jwksNamed);
  if (!jwksUri && jwksNamed === undefined) {
    let answer: Answer | undefined;
    try {
      const at = `${trimmed(checkOutboundUrl(issuer, allowPrivate, 'issuer').toString())}/.well-known/openid-configuration`;
      refuseMetadataUrl(at);
      answer = await getJson(ctx, at, {}, { dispatcher: strictGuardedDispatcher(allowPrivate) });
    } catch {
      answer = undefined;
    }
    const openid = (answer?.status === 200 ? answer.body : undefined) as { issuer?: unknown; jwks_uri?: unknown } | undefined;
    if (openid?.issuer === issuer) jwksUri = url(openid.jwks_uri);
  }
  if (!jwksUri) throw new LaunchError('record_system_unreachable', 'the record system publishes no key set for its ID tokens');
  try {
    refuseMetadataUrl(checkOutboundUrl(jwksUri, allowPrivate, 'jwks_uri'));
  } catch {
    throw new LaunchError('record_system_unreachable', 'the key set address is not allowed');
  }
  return { issuer, jwksUri };
}

type Granted = { access_token?: unknown; patient?: unknown; encounter?: unknown; id_token?: unknown };

/** The consultation a launch opened, and for whom. */
export type Opened = { consultationId: string; created: boolean; userId: string; organizationId: string };

/**
 * Step 2: the code for a token, the clinician signed in, the consultation ready. Or, when the record system's user
 * names an account that existed before, a link request the clinician confirms with its password.
 * `language`: the browser's, for an account made by this launch.
 */
export async function completeLaunch(
  ctx: AppContext,
  input: { code: string; state: string; nonce: string; language: Language },
): Promise<({ kind: 'signed_in'; token: string } & Opened) | { kind: 'link_required'; linkToken: string }> {
  // Single use, short-lived, and in the browser that began it: a replayed, late or forwarded return signs nobody in.
  const [launch] = await ctx.db
    .update(smartLaunches)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(smartLaunches.stateHash, sha256(input.state)),
        eq(smartLaunches.browserHash, sha256(input.nonce)),
        isNull(smartLaunches.usedAt),
        gt(smartLaunches.expiresAt, new Date()),
      ),
    )
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
  const answer = await getJson(
    ctx,
    launch.tokenEndpoint,
    { 'content-type': 'application/x-www-form-urlencoded' },
    { method: 'POST', body: form.toString() },
  ).catch(() => undefined);
  if (!answer) throw new LaunchError('record_system_unreachable');
  const granted = (answer.status === 200 ? answer.body : undefined) as Granted | undefined;
  if (typeof granted?.access_token !== 'string' || !granted.access_token) throw new LaunchError('refused');
  const patient = typeof granted.patient === 'string' && FHIR_ID.test(granted.patient) ? granted.patient : null;
  const encounter = typeof granted.encounter === 'string' && FHIR_ID.test(granted.encounter) ? granted.encounter : null;

  // No ID token: nobody named (as before). One that fails verification: the launch is refused, whatever it says.
  let claims: JWTPayload = {};
  if (granted.id_token !== undefined) {
    if (typeof granted.id_token !== 'string') throw new LaunchError('refused', 'the ID token is not a string');
    try {
      claims = await verifyIdToken(granted.id_token, {
        issuer: launch.idTokenIssuer,
        jwksUri: launch.jwksUri,
        clientId: endpoint.launchClientId,
        nonceHash: launch.idTokenNonceHash,
        allowPrivate: ctx.config.fhirAllowPrivateNetworks,
      });
    } catch (err) {
      if (!(err instanceof IdTokenRefused)) throw err;
      throw new LaunchError(err.unreachable ? 'record_system_unreachable' : 'refused', err.detail);
    }
  }
  const who = await clinicianOf(ctx, launch.iss, granted.access_token, claims);
  if (!who) throw new LaunchError('no_identity');
  const found = await signInUser(ctx, launch.organizationId, launch.iss, who, input.language);
  // Read only once someone is known to be let in (or asked for a password): a refused launch reads no patient.
  const patientLabel = patient ? await patientNameOf(ctx, launch.iss, granted.access_token, patient) : null;
  if ('linkTo' in found) {
    const linkToken = base64url(randomBytes(32));
    await ctx.db.insert(recordSystemLinkRequests).values({
      tokenHash: sha256(linkToken),
      iss: launch.iss,
      subject: who.subject,
      subjectName: who.name || null,
      userId: found.linkTo.id,
      organizationId: launch.organizationId,
      fhirPatientId: patient,
      fhirEncounterId: encounter,
      patientLabel,
      expiresAt: new Date(Date.now() + LINK_TTL_MS),
    });
    return { kind: 'link_required', linkToken };
  }
  const opened = await openConsultation(ctx, found.user, launch.organizationId, patient, encounter, patientLabel);
  const { token } = await createOneTimeToken(ctx.db, found.user.id, 'smart_launch', SIGN_IN_TTL_SECONDS);
  return { kind: 'signed_in', token, ...opened };
}

/**
 * The consultation with this patient, reopened if it is the one under way; otherwise a new one (one under way
 * with another patient is finished, its recording and transcript kept, as a new start from the app does), unless
 * it is being recorded: a launch never stops a recording.
 */
async function openConsultation(
  ctx: AppContext,
  user: UserRow,
  organizationId: string,
  patient: string | null,
  encounter: string | null,
  patientLabel: string | null,
): Promise<Opened> {
  const active = await findActiveSession(ctx.db, user.id);
  let consultationId: string;
  let created = true;
  if (active && active.fhirPatientId === patient && active.fhirEncounterId === encounter && active.organizationId === organizationId) {
    consultationId = active.id;
    created = false;
  } else if (active && active.recordingState === 'recording') {
    throw new LaunchError('recording_elsewhere');
  } else {
    const created = await createSession(ctx, user.id, { consultation_type_id: 'general_consultation', force: true });
    await ctx.db
      .update(consultationSessions)
      .set({ fhirPatientId: patient, fhirEncounterId: encounter, patientLabel })
      .where(eq(consultationSessions.id, created.id));
    consultationId = created.id;
  }
  return { consultationId, created, userId: user.id, organizationId };
}

/** Why a link request was not carried out; the route answers each with its own status. */
export class LinkError extends Error {
  constructor(
    readonly reason: 'expired' | 'wrong_password' | 'paused' | 'recording_elsewhere' | 'taken',
    readonly retryAfterSeconds = 0,
    /** Whose password was wrong, for the audit log. */
    readonly user?: UserRow,
  ) {
    super(reason);
  }
}

/** The live link request behind a token (for the page that asks for the password: whose account it is). */
export async function findLinkRequest(ctx: AppContext, token: string) {
  const [request] = await ctx.db
    .select({ request: recordSystemLinkRequests, email: users.email, admin: sql<boolean>`${users.organizationRole} = 'admin'` })
    .from(recordSystemLinkRequests)
    .innerJoin(users, eq(users.id, recordSystemLinkRequests.userId))
    .where(
      and(
        eq(recordSystemLinkRequests.tokenHash, sha256(token)),
        gt(recordSystemLinkRequests.expiresAt, new Date()),
        lt(recordSystemLinkRequests.attempts, LINK_ATTEMPTS),
      ),
    );
  return request;
}

/**
 * Step 3, for an account that existed before (and at every launch for an organization's admin): its password proves
 * it is the clinician's, and then the record system's user is linked to it (later launches of a member sign in at
 * once) and the consultation is opened. Every attempt is counted twice before the password is checked: against this
 * request (five wrong passwords spend it) and against the account's sign-in back-off, so this is no way round the
 * limits of the sign-in form. An attempt that never reached the password check (a pause, a recording under way) is
 * given back to the request.
 */
export async function linkAccount(
  ctx: AppContext,
  input: { token: string; password: string; source: LoginSource },
): Promise<Opened & { linked: boolean; iss: string }> {
  const tokenHash = sha256(input.token);
  const [request] = await ctx.db
    .update(recordSystemLinkRequests)
    .set({ attempts: sql`${recordSystemLinkRequests.attempts} + 1` })
    .where(
      and(
        eq(recordSystemLinkRequests.tokenHash, tokenHash),
        gt(recordSystemLinkRequests.expiresAt, new Date()),
        lt(recordSystemLinkRequests.attempts, LINK_ATTEMPTS),
      ),
    )
    .returning();
  if (!request) throw new LinkError('expired');
  const giveBack = () =>
    ctx.db
      .update(recordSystemLinkRequests)
      .set({ attempts: sql`greatest(${recordSystemLinkRequests.attempts} - 1, 0)` })
      .where(eq(recordSystemLinkRequests.tokenHash, tokenHash));
  const user = await findUserById(ctx.db, request.userId);
  // Moved to another organization or made a server admin meanwhile: the launch no longer applies to it.
  if (!user || user.organizationId !== request.organizationId || user.serverAdmin) throw new LinkError('expired');
  // Launches turned off, or another record system entered, since this launch began.
  const [endpoint] = await ctx.db.select().from(organizationFhirEndpoints).where(eq(organizationFhirEndpoints.organizationId, request.organizationId));
  if (!endpoint?.launchClientId || endpoint.baseUrl !== request.iss) throw new LinkError('expired');

  const trust = await ctx.loginLimiter.trustOf(user.id, input.source);
  const attempt = await ctx.loginLimiter.reserveAttempt(user.email, trust);
  if (!attempt.allowed) {
    await giveBack();
    throw new LinkError('paused', attempt.retryAfterSeconds);
  }
  if (!(await verifyPassword(user.passwordHash, input.password))) throw new LinkError('wrong_password', 0, user);
  await ctx.loginLimiter.recordSuccess(user.email, user.id, trust, input.source);

  // Spent and linked together, and only while no recording of another consultation is under way (a launch never
  // stops one; the request then stays for when it is paused or finished).
  const result = await ctx.db.transaction(async (tx) => {
    const active = await findActiveSession(tx as unknown as typeof ctx.db, user.id);
    const reopens =
      active?.fhirPatientId === request.fhirPatientId &&
      active?.fhirEncounterId === request.fhirEncounterId &&
      active?.organizationId === request.organizationId;
    if (active && !reopens && active.recordingState === 'recording') return 'recording' as const;
    const spent = await tx.delete(recordSystemLinkRequests).where(eq(recordSystemLinkRequests.tokenHash, tokenHash)).returning();
    if (spent.length === 0) return 'spent' as const;
    const [identity] = await tx
      .insert(recordSystemIdentities)
      .values({ iss: request.iss, subject: request.subject, userId: user.id, organizationId: request.organizationId })
      .onConflictDoNothing()
      .returning();
    if (identity) return 'linked' as const;
    // Linked before (an admin asked again, or a second request): fine if to this account, never moved.
    const [existing] = await tx
      .select()
      .from(recordSystemIdentities)
      .where(and(eq(recordSystemIdentities.iss, request.iss), eq(recordSystemIdentities.subject, request.subject)));
    return existing?.userId === user.id ? ('already' as const) : ('taken' as const);
  });
  if (result === 'recording') {
    await giveBack();
    throw new LinkError('recording_elsewhere');
  }
  if (result === 'spent') throw new LinkError('expired');
  if (result === 'taken') throw new LinkError('taken');
  try {
    const opened = await openConsultation(ctx, user, request.organizationId, request.fhirPatientId, request.fhirEncounterId, request.patientLabel);
    return { ...opened, linked: result === 'linked', iss: request.iss };
  } catch (err) {
    // A recording began in the instant since the check: the link stands, and the next launch signs in at once.
    if (err instanceof LaunchError && err.reason === 'recording_elsewhere') throw new LinkError('recording_elsewhere');
    throw err;
  }
}

/** `subject`: who the record system says this is, in its own terms (the ID token's `sub`, or fhirUser). */
type Clinician = { subject: string; email: string | undefined; name: string };

/** The clinician the record system names: the verified ID token's subject, e-mail and name, or their Practitioner resource's. */
async function clinicianOf(ctx: AppContext, iss: string, accessToken: string, claims: JWTPayload): Promise<Clinician | undefined> {
  const str = (v: unknown) => (typeof v === 'string' && v.length <= 500 ? v : undefined);
  const fhirUser = str(claims.fhirUser);
  const subject = str(claims.sub) ?? fhirUser;
  if (!subject) return undefined;
  const email = str(claims.email)?.toLowerCase();
  if (email || !fhirUser) return { subject, email, name: cleanName(str(claims.name) ?? email ?? '') };
  // Only a resource of that record system (the address as resolved, not as written), read with the token it gave.
  let url: URL;
  try {
    url = new URL(/^https?:/.test(fhirUser) ? fhirUser : `${iss}/${fhirUser.replace(/^\/+/, '')}`);
  } catch {
    return undefined;
  }
  if (!url.href.startsWith(`${iss}/`) || url.search || !/\/(Practitioner|PractitionerRole|Person)\/[A-Za-z0-9\-.]{1,64}$/.test(url.pathname)) return undefined;
  const answer = await getJson(ctx, url.href, { accept: 'application/fhir+json', authorization: `Bearer ${accessToken}` }).catch(() => undefined);
  const resource = (answer?.status === 200 ? answer.body : undefined) as
    | { telecom?: { system?: string; value?: string }[]; name?: { text?: string; given?: string[]; family?: string }[] }
    | undefined;
  const mail = resource?.telecom?.find((t) => t.system === 'email' && typeof t.value === 'string')?.value?.toLowerCase();
  const n = resource?.name?.[0];
  const shown = n?.text ?? [...(n?.given ?? []), n?.family].filter((x) => typeof x === 'string').join(' ');
  return { subject, email: mail, name: cleanName(shown || str(claims.name) || mail || '') };
}

/**
 * The patient's name from the record system (read with the token the launch gave, scope patient/Patient.rs), for
 * the consultation's label; none when it cannot be read, which never stops a launch.
 */
async function patientNameOf(ctx: AppContext, iss: string, accessToken: string, patient: string): Promise<string | null> {
  const answer = await getJson(ctx, `${iss}/Patient/${patient}`, { accept: 'application/fhir+json', authorization: `Bearer ${accessToken}` }).catch(
    () => undefined,
  );
  const resource = (answer?.status === 200 ? answer.body : undefined) as
    | { resourceType?: unknown; name?: { use?: string; text?: unknown; given?: unknown[]; family?: unknown }[] }
    | undefined;
  if (resource?.resourceType !== 'Patient' || !Array.isArray(resource.name)) return null;
  const n = resource.name.find((x) => x?.use === 'official') ?? resource.name[0];
  const parts = typeof n?.text === 'string' ? [n.text] : [...(Array.isArray(n?.given) ? n.given : []), n?.family];
  // Cut by characters, not UTF-16 units, so a name never ends in half a character.
  const shown = Array.from(cleanName(parts.filter((x): x is string => typeof x === 'string').join(' ')))
    .slice(0, PATIENT_LABEL_MAX)
    .join('');
  return shown || null;
}

/** A name as the record system wrote it, without control or direction-changing characters, bounded. */
const cleanName = (name: string) =>
  name
    .replace(/[\p{Cc}\p{Cf}]/gu, '')
    .trim()
    .slice(0, 200);

async function signInUser(
  ctx: AppContext,
  organizationId: string,
  iss: string,
  who: Clinician,
  language: Language,
): Promise<{ user: UserRow } | { linkTo: UserRow }> {
  const [linked] = await ctx.db
    .select({ user: users })
    .from(recordSystemIdentities)
    .innerJoin(users, eq(users.id, recordSystemIdentities.userId))
    .where(and(eq(recordSystemIdentities.iss, iss), eq(recordSystemIdentities.subject, who.subject)));
  if (linked) {
    if (linked.user.organizationId !== organizationId || linked.user.serverAdmin) throw new LaunchError('not_member');
    // An organization's admin is asked for the password at every launch: whoever controls the record system signs
    // its ID tokens, and must not reach an admin account on its word alone.
    if (linked.user.organizationRole === 'admin') return { linkTo: linked.user };
    return { user: linked.user };
  }
  if (!who.email || !/^[^\s@]{1,64}@[^\s@]{1,255}$/.test(who.email)) throw new LaunchError('no_identity');
  const known = await findUserByEmail(ctx.db, who.email);
  // An account that existed before: not on the record system's word, only with its password (see above).
  if (known) {
    if (known.organizationId !== organizationId || known.serverAdmin) throw new LaunchError('not_member');
    return { linkTo: known };
  }
  // New to this app: a member of the organization whose record system vouches for them, linked to that record
  // system's user. No password anyone knows and the address not confirmed: they sign in from the record system,
  // or prove the address with "forgot password".
  const created = await ctx.db.transaction(async (tx) => {
    const [user] = await tx
      .insert(users)
      .values({
        name: who.name || who.email!,
        email: who.email!,
        passwordHash: await hashPassword(base64url(randomBytes(32))),
        language,
        organizationId,
        organizationRole: 'member',
      })
      .onConflictDoNothing()
      .returning();
    if (!user) return undefined;
    const [identity] = await tx
      .insert(recordSystemIdentities)
      .values({ iss, subject: who.subject, userId: user.id, organizationId })
      .onConflictDoNothing()
      .returning();
    // The same record system user was linked meanwhile by a launch racing this one: that one stands.
    if (!identity) throw new LaunchError('expired');
    return user;
  });
  // Two launches for a new clinician at once: the other one made the account.
  if (!created) throw new LaunchError('expired');
  return { user: created };
}
