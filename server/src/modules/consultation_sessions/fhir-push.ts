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
import { fetch, type Agent, type Response } from 'undici';
import type { AppContext } from '../../http/context.js';
import { DomainError } from '../../http/errors.js';
import { checkOutboundUrl, outboundDispatcher } from '../../http/outbound-guard.js';
import type { UserRow } from '../../auth/users.js';
import { findEndpoint, openPrivateKey, openToken, SIGNING_ALG, type EndpointRow } from '../organizations/fhir_endpoint/service.js';
import { consultationBundle } from './fhir.js';
import type { SessionRow } from './repository.js';

const FHIR_JSON = 'application/fhir+json';
const RETRY_PAUSES_MS = [300, 1000];
/** Enough for an OperationOutcome or a resource echoed back; a larger answer is cut. */
const MAX_ANSWER_BYTES = 256 * 1024;
const MESSAGE_CHARS = 300;

export type PushedResource = { resource_type: string; status: number; location: string | null };
export type PushResult = { status: 'sent'; base_url: string; resources: PushedResource[] };

type Answer = { status: number; location: string | null; body: unknown };

const dispatchers = new Map<boolean, Agent>();
const dispatcherFor = (allowPrivate: boolean) => {
  let d = dispatchers.get(allowPrivate);
  if (!d) dispatchers.set(allowPrivate, (d = outboundDispatcher(allowPrivate)));
  return d;
};

/** Access tokens of backend services, per organization and settings version, until shortly before they expire. */
const tokens = new Map<string, { token: string; until: number }>();
const tokenKey = (row: EndpointRow) => `${row.organizationId}:${row.updatedAt.getTime()}`;

async function readAnswer(res: Response): Promise<Answer> {
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

/** The record system's message: an OperationOutcome's issues, or the start of whatever it said. */
function messageOf(answer: Answer): string {
  const outcome = answer.body as OperationOutcome | undefined;
  if (outcome && typeof outcome === 'object' && outcome.resourceType === 'OperationOutcome') {
    const text = (outcome.issue ?? []).map((i) => i.details?.text ?? i.diagnostics ?? i.code).filter(Boolean).join('; ');
    if (text) return text.slice(0, MESSAGE_CHARS);
  }
  return typeof answer.body === 'string' ? answer.body : '';
}

const retriable = (status: number) => status === 429 || status >= 500;

function refused(answer: Answer | undefined, what: string, cause?: unknown): DomainError {
  const detail = answer ? `${answer.status}${messageOf(answer) ? `: ${messageOf(answer)}` : ''}` : cause instanceof Error ? cause.message : 'no answer';
  return new DomainError(502, 'fhir_push_failed', `The record system did not accept the ${what} (${detail})`, { record_system: detail.slice(0, MESSAGE_CHARS) });
}

export async function pushToRecord(ctx: AppContext, session: SessionRow, user: UserRow): Promise<PushResult> {
  const endpoint = user.organizationId ? await findEndpoint(ctx.db, user.organizationId) : undefined;
  if (!endpoint) throw new DomainError(409, 'fhir_not_configured', 'Your organization has not set up a record system to send documents to');
  const allowPrivate = ctx.config.fhirAllowPrivateNetworks;
  // Checked again at every push: the server's setting may have changed since the address was saved.
  checkOutboundUrl(endpoint.baseUrl, allowPrivate);
  const dispatcher = dispatcherFor(allowPrivate);
  const { bundle, documentReferences } = await consultationBundle(ctx, session);

  async function request(url: string, init: { method: string; headers?: Record<string, string>; body?: string }): Promise<Answer> {
    const res = await fetch(url, { ...init, dispatcher, redirect: 'manual', signal: AbortSignal.timeout(30_000) });
    return readAnswer(res);
  }

  async function accessToken(fresh = false): Promise<string | undefined> {
    if (endpoint!.auth === 'bearer') return openToken(ctx.engines.keys, endpoint!);
    if (endpoint!.auth !== 'backend_services') return undefined;
    const key = tokenKey(endpoint!);
    const cached = tokens.get(key);
    if (!fresh && cached && cached.until > Date.now()) return cached.token;
    const discovery = await request(`${endpoint!.baseUrl}/.well-known/smart-configuration`, { method: 'GET', headers: { accept: 'application/json' } }).catch((err: unknown) => {
      throw refused(undefined, 'sign-in (SMART configuration)', err);
    });
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
    const answer = await request(tokenEndpoint, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' }, body: form.toString() }).catch(
      (err: unknown) => {
        throw refused(undefined, 'sign-in', err);
      },
    );
    const granted = answer.body as { access_token?: unknown; expires_in?: unknown } | undefined;
    if (answer.status !== 200 || typeof granted?.access_token !== 'string') throw refused(answer, 'sign-in');
    const seconds = typeof granted.expires_in === 'number' ? granted.expires_in : 300;
    tokens.set(key, { token: granted.access_token, until: Date.now() + Math.max(0, seconds - 30) * 1000 });
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
          headers: { 'content-type': `${FHIR_JSON}; charset=utf-8`, accept: FHIR_JSON, prefer: 'return=minimal', ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
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
      const again = !answer || retriable(answer.status);
      if (!again || attempt >= RETRY_PAUSES_MS.length) throw refused(answer, what, failure);
      await new Promise((r) => setTimeout(r, RETRY_PAUSES_MS[attempt]));
    }
  }

  const resources: PushedResource[] = [];
  for (const reference of documentReferences) {
    const answer = await create('DocumentReference', standalone(reference), 'document', {
      'if-none-exist': `identifier=${encodeURIComponent(`${reference.masterIdentifier!.system}|${reference.masterIdentifier!.value}`)}`,
    });
    resources.push({ resource_type: 'DocumentReference', status: answer.status, location: answer.location });
  }
  if (await takesBundles()) {
    const answer = await create('Bundle', bundle, 'document bundle');
    resources.push({ resource_type: 'Bundle', status: answer.status, location: answer.location });
  }
  return { status: 'sent', base_url: endpoint.baseUrl, resources };

  async function takesBundles(): Promise<boolean> {
    try {
      const token = await accessToken();
      const answer = await request(`${endpoint!.baseUrl}/metadata`, { method: 'GET', headers: { accept: FHIR_JSON, ...(token ? { authorization: `Bearer ${token}` } : {}) } });
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
    author: reference.author?.map((a) => logical(a, 'urn:consultation-notes:user')!),
    ...(reference.custodian ? { custodian: logical(reference.custodian, 'urn:consultation-notes:organization') } : {}),
  };
}

