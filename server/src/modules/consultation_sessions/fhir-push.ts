/**
 * "Send to record": a consultation's finished documents posted to the record system of the clinician's
 * organization. Each DocumentReference is created with `If-None-Exist` on its master identifier (the version's
 * id), so sending again never files a document twice; the document Bundle follows when the server's
 * CapabilityStatement says it creates Bundles. Outside the Bundle the references to the author and the custodian
 * are logical (identifier and name), since their `urn:uuid:` addresses mean nothing on their own.
 *
 * Failures the record system may get over (5xx, 429, a dropped connection) are retried a few times with a growing
 * pause; a refusal (4xx) is not. Every request goes through the outbound guard, is not redirected and reads at
 * most a small answer. What the clinician sees is the record system's own answer: the address of what it filed,
 * or its status and message.
 */
import { randomUUID } from 'node:crypto';
import type { CapabilityStatement, DocumentReference, OperationOutcome, Reference, Resource } from '@medplum/fhirtypes';
import { importJWK, SignJWT } from 'jose';
import { fetch, type Response } from 'undici';
import { idSystem } from '../../audit/fhir-audit-event.js';
import type { AppContext } from '../../app-context.js';
import { DomainError } from '../../errors/domain-error.js';
import { checkOutboundUrl, guardedDispatcher } from '../../security/outbound-guard.js';
import type { UserRow } from '../../auth/users.js';
import { findEndpoint, openPrivateKey, openToken, SIGNING_ALG, type EndpointRow } from '../organizations/fhir_endpoint/service.js';
import { consultationBundle } from './fhir.js';
import type { SessionRow } from './repository.js';

const FHIR_JSON = 'application/fhir+json';
const RETRY_PAUSES_MS = [300, 1000];
/** A whole push (sign-in, documents, Bundle) within the browser's patience, however slow the record system. */
const PUSH_DEADLINE_MS = 90_000;
const REQUEST_TIMEOUT_MS = 30_000;
/** Longer tokens are refused; lifetimes beyond an hour are cut to an hour. */
const MAX_TOKEN_CHARS = 8192;
const MAX_TOKEN_SECONDS = 3600;
/** Enough for an OperationOutcome or a resource echoed back; a larger answer is cut. */
const MAX_ANSWER_BYTES = 256 * 1024;
const MESSAGE_CHARS = 300;

export type PushedResource = { resource_type: string; status: number; location: string | null; error?: string };
/**
 * `partial`: some of it was filed and the rest refused (a later document, or the Bundle after every document):
 * what was filed stays filed, the answer says what was not, and the audit log records a partial outcome.
 */
export type PushResult = { status: 'sent' | 'partial'; base_url: string; resources: PushedResource[]; error?: string };

export type Answer = { status: number; location: string | null; body: unknown };

/** Access tokens of backend services, one per organization (for its settings of that moment), until shortly before they expire. */
const tokens = new Map<string, { settings: number; token: string; until: number }>();
/** Consultations being sent by this process: a second click waits for the first push's answer instead. */
const sending = new Set<string>();

/** An answer read up to a bound: JSON when it is, else the start of its text. */
export async function readAnswer(res: Response): Promise<Answer> {
  const chunks: Buffer[] = [];
  let size = 0;
  if (res.body) {
    for await (const chunk of res.body) {
      const buf = Buffer.from(chunk as Uint8Array);
      size += buf.length;
      if (size > MAX_ANSWER_BYTES) break;
      chunks.push(buf);
    }
  }
  const text = Buffer.concat(chunks).toString('utf8');
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = text.slice(0, MESSAGE_CHARS);
  }
  return { status: res.status, location: res.headers.get('location') ?? res.headers.get('content-location'), body };
}

/** The record system's message: an OperationOutcome's issues, or the start of whatever it said; never more than a line. */
function messageOf(answer: Answer): string {
  const body = answer.body as { resourceType?: unknown; issue?: unknown } | undefined;
  let text = '';
  if (body && typeof body === 'object' && body.resourceType === 'OperationOutcome' && Array.isArray(body.issue)) {
    const texts = (body.issue as unknown[]).map((i) => {
      const issue = (i && typeof i === 'object' ? i : {}) as Partial<OperationOutcome['issue'][number]>;
      const said = issue.details?.text ?? issue.diagnostics ?? issue.code;
      return typeof said === 'string' ? said : '';
    });
    text = texts.filter(Boolean).join('; ');
  } else if (typeof body === 'string') text = body;
  // One line of printable text: the record system's answer is shown to a clinician as it is.
  return text
    .replace(/[\u0000-\u001f\u007f]+/g, ' ')
    .trim()
    .slice(0, MESSAGE_CHARS);
}

const retriable = (status: number) => status === 429 || status >= 500;

/** Why a request got no answer: the connection's own code (refused address, timeout, DNS) rather than "fetch failed". */
function failureOf(cause: unknown): string {
  const inner = cause instanceof Error ? (cause.cause as { code?: unknown; message?: unknown } | undefined) : undefined;
  if (inner && typeof inner.code === 'string') return inner.code;
  if (cause instanceof Error && (cause.name === 'TimeoutError' || cause.name === 'AbortError')) return 'timeout';
  return cause instanceof Error ? cause.message.slice(0, MESSAGE_CHARS) : 'no answer';
}

function refused(answer: Answer | undefined, what: string, cause?: unknown): DomainError {
  const detail = answer ? `${answer.status}${messageOf(answer) ? `: ${messageOf(answer)}` : ''}` : failureOf(cause);
  return new DomainError(502, 'fhir_push_failed', `The record system did not accept the ${what} (${detail})`, {
    record_system: detail.slice(0, MESSAGE_CHARS),
  });
}

export async function pushToRecord(ctx: AppContext, session: SessionRow, user: UserRow, documentKey?: string): Promise<PushResult> {
  // The record system of the organization the consultation was held for, and only while the clinician still
  // belongs to it: a consultation from before a move never goes to the new organization's record.
  const organizationId = session.organizationId !== null && session.organizationId === user.organizationId ? session.organizationId : undefined;
  const endpoint = organizationId ? await findEndpoint(ctx.db, organizationId) : undefined;
  if (!endpoint) throw new DomainError(409, 'fhir_not_configured', 'Your organization has not set up a record system to send documents to');
  if (sending.has(session.id)) throw new DomainError(409, 'fhir_push_in_progress', 'These documents are already being sent to the record');
  sending.add(session.id);
  try {
    return await push(ctx, session, endpoint, documentKey);
  } finally {
    sending.delete(session.id);
  }
}

async function push(ctx: AppContext, session: SessionRow, endpoint: EndpointRow, documentKey: string | undefined): Promise<PushResult> {
  const allowPrivate = ctx.config.fhirAllowPrivateNetworks;
  // Checked again at every push: the server's setting may have changed since the address was saved.
  checkOutboundUrl(endpoint.baseUrl, allowPrivate);
  const dispatcher = guardedDispatcher(allowPrivate);
  const { bundle, documentReferences } = await consultationBundle(ctx, session, documentKey);
  // The organization sends only what its clinicians signed: a draft never reaches the record.
  if (endpoint.requireSignOff && documentReferences.some((d) => d.docStatus !== 'final')) {
    throw new DomainError(409, 'sign_off_required', 'Sign every document before sending it to the record');
  }
  const deadline = AbortSignal.timeout(PUSH_DEADLINE_MS);

  async function request(url: string, init: { method: string; headers?: Record<string, string>; body?: string }): Promise<Answer> {
    const res = await fetch(url, { ...init, dispatcher, redirect: 'manual', signal: AbortSignal.any([deadline, AbortSignal.timeout(REQUEST_TIMEOUT_MS)]) });
    return readAnswer(res);
  }

  async function accessToken(fresh = false): Promise<string | undefined> {
    if (endpoint!.auth === 'bearer') return openToken(ctx.engines.keys, endpoint!);
    if (endpoint!.auth !== 'backend_services') return undefined;
    const settings = endpoint!.updatedAt.getTime();
    const cached = tokens.get(endpoint!.organizationId);
    if (!fresh && cached && cached.settings === settings && cached.until > Date.now()) return cached.token;
    const discovery = await request(`${endpoint!.baseUrl}/.well-known/smart-configuration`, { method: 'GET', headers: { accept: 'application/json' } }).catch(
      (err: unknown) => {
        throw refused(undefined, 'sign-in (SMART configuration)', err);
      },
    );
    const tokenEndpoint = (discovery.body as { token_endpoint?: unknown } | undefined)?.token_endpoint;
    if (discovery.status !== 200 || typeof tokenEndpoint !== 'string') throw refused(discovery, 'sign-in (SMART configuration)');
    checkOutboundUrl(tokenEndpoint, allowPrivate, 'token_endpoint');
    const jwk = openPrivateKey(ctx.engines.keys, endpoint!)!;
    const assertion = await new SignJWT({})
      .setProtectedHeader({ alg: SIGNING_ALG, kid: jwk.kid!, typ: 'JWT' })
      .setIssuer(endpoint!.clientId!)
      .setSubject(endpoint!.clientId!)
      .setAudience(tokenEndpoint)
      .setJti(randomUUID())
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(await importJWK(jwk, SIGNING_ALG));
    const form = new URLSearchParams({
      grant_type: 'client_credentials',
      scope: endpoint!.scope ?? '',
      client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
      client_assertion: assertion,
    });
    const answer = await request(tokenEndpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: form.toString(),
    }).catch((err: unknown) => {
      throw refused(undefined, 'sign-in', err);
    });
    const granted = answer.body as { access_token?: unknown; expires_in?: unknown } | undefined;
    if (answer.status !== 200 || typeof granted?.access_token !== 'string' || !granted.access_token || granted.access_token.length > MAX_TOKEN_CHARS)
      throw refused(answer, 'sign-in');
    const seconds = typeof granted.expires_in === 'number' && Number.isFinite(granted.expires_in) ? Math.min(granted.expires_in, MAX_TOKEN_SECONDS) : 300;
    tokens.set(endpoint!.organizationId, { settings, token: granted.access_token, until: Date.now() + Math.max(0, seconds - 30) * 1000 });
    return granted.access_token;
  }

  /** A create, retried while the failure may pass; a 401 with backend services gets one new token. */
  async function create(path: string, resource: object, what: string, headers: Record<string, string> = {}): Promise<Answer> {
    let renewed = false;
    for (let attempt = 0; ; attempt++) {
      const token = await accessToken(renewed);
      let answer: Answer | undefined;
      let failure: unknown;
      try {
        answer = await request(`${endpoint!.baseUrl}/${path}`, {
          method: 'POST',
          headers: {
            'content-type': `${FHIR_JSON}; charset=utf-8`,
            accept: FHIR_JSON,
            prefer: 'return=minimal',
            ...(token ? { authorization: `Bearer ${token}` } : {}),
            ...headers,
          },
          body: JSON.stringify(resource),
        });
      } catch (err) {
        failure = err;
      }
      if (answer && answer.status >= 200 && answer.status < 300) return answer;
      if (answer?.status === 401 && endpoint!.auth === 'backend_services' && !renewed) {
        renewed = true;
        continue;
      }
      const again = (!answer && !deadline.aborted) || (answer !== undefined && retriable(answer.status));
      if (!again || attempt >= RETRY_PAUSES_MS.length) throw refused(answer, what, failure);
      await new Promise((r) => setTimeout(r, RETRY_PAUSES_MS[attempt]));
    }
  }

  const resources: PushedResource[] = [];
  const whyNot = (err: unknown) => (err instanceof DomainError ? (err.fields?.record_system ?? err.message) : 'not sent');
  for (const reference of documentReferences) {
    try {
      const answer = await create('DocumentReference', standalone(reference), 'document', {
        'if-none-exist': `identifier=${encodeURIComponent(`${reference.masterIdentifier!.system}|${reference.masterIdentifier!.value}`)}`,
      });
      resources.push({ resource_type: 'DocumentReference', status: answer.status, location: answer.location });
    } catch (err) {
      // Nothing filed yet: the push failed as a whole. Once a document is filed, the answer says so (sending again
      // files only the rest: If-None-Exist).
      if (!resources.length) throw err;
      resources.push({ resource_type: 'DocumentReference', status: 0, location: null, error: whyNot(err) });
      return { status: 'partial', base_url: endpoint.baseUrl, resources, error: whyNot(err) };
    }
  }
  if (await takesBundles()) {
    try {
      const answer = await create('Bundle', bundle, 'document bundle', {
        'if-none-exist': `identifier=${encodeURIComponent(`${bundle.identifier!.system}|${bundle.identifier!.value}`)}`,
      });
      resources.push({ resource_type: 'Bundle', status: answer.status, location: answer.location });
    } catch (err) {
      resources.push({ resource_type: 'Bundle', status: 0, location: null, error: whyNot(err) });
      return { status: 'partial', base_url: endpoint.baseUrl, resources, error: whyNot(err) };
    }
  }
  return { status: 'sent', base_url: endpoint.baseUrl, resources };

  async function takesBundles(): Promise<boolean> {
    try {
      const token = await accessToken();
      const answer = await request(`${endpoint!.baseUrl}/metadata`, {
        method: 'GET',
        headers: { accept: FHIR_JSON, ...(token ? { authorization: `Bearer ${token}` } : {}) },
      });
      const capability = answer.body as CapabilityStatement | undefined;
      return Boolean(capability?.rest?.some((r) => r.resource?.some((res) => res.type === 'Bundle' && res.interaction?.some((i) => i.code === 'create'))));
    } catch {
      // No CapabilityStatement: the DocumentReferences are what was asked for, and they are filed.
      return false;
    }
  }
}

/** A DocumentReference of the Bundle made to stand alone: its author and custodian named, not pointed at. */
function standalone(reference: DocumentReference): DocumentReference {
  const logical = <T extends Resource>(r: Reference<T> | undefined, system: string): Reference<T> | undefined =>
    r && { type: r.type, display: r.display, identifier: { system, value: r.reference!.replace(/^urn:uuid:/, '') } };
  return {
    ...reference,
    author: reference.author?.map((a) => logical(a, idSystem('user'))!),
    ...(reference.authenticator ? { authenticator: logical(reference.authenticator, idSystem('user')) } : {}),
    ...(reference.custodian ? { custodian: logical(reference.custodian, idSystem('organization')) } : {}),
  };
}
