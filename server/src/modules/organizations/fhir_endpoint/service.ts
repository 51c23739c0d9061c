/**
 * An organization's record system (FHIR R4 server) and how this server signs in to it, set by the organization's
 * admins. Secrets never leave sealed: a view says whether a token is kept, never the token. For SMART Backend
 * Services the organization gets its own signing key (ES384), made here; the record system's admin registers the
 * public half, published as a JWKS at /v1/organizations/{id}/fhir_endpoint/jwks.json.
 */
import { and, eq } from 'drizzle-orm';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK } from 'jose';
import type { Database } from '../../../db/client.js';
import { organizationFhirEndpoints } from '../../../db/schema.js';
import type { AppContext } from '../../../app-context.js';
import { DomainError } from '../../../errors/domain-error.js';
import { checkOutboundUrl } from '../../../security/outbound-guard.js';
import { decryptBlob, encryptBlob, storedKeyId } from '../../../storage/blob-encryption.js';
import type { KeyRing } from '../../../storage/master-keys.js';

export type FhirAuth = 'none' | 'bearer' | 'backend_services';
export type EndpointRow = typeof organizationFhirEndpoints.$inferSelect;
export const SIGNING_ALG = 'ES384';
/** SMART v2 scopes to create the two resources a push sends. */
export const DEFAULT_SCOPE = 'system/DocumentReference.c system/Bundle.c';

type Sealed = 'token' | 'private-key' | 'launch-verifier';
const sealName = (organizationId: string, what: Sealed) => `settings/organizations/${organizationId}/fhir/${what}`;
export const seal = (keys: KeyRing, organizationId: string, what: Sealed, secret: string) =>
  encryptBlob(sealName(organizationId, what), Buffer.from(secret, 'utf8'), keys.current()).toString('base64');
export const open = (keys: KeyRing, organizationId: string, what: Sealed, sealed: string) =>
  decryptBlob(sealName(organizationId, what), Buffer.from(sealed, 'base64'), (id) => keys.find(id)).toString('utf8');

export async function findEndpoint(db: Database, organizationId: string): Promise<EndpointRow | undefined> {
  const [row] = await db.select().from(organizationFhirEndpoints).where(eq(organizationFhirEndpoints.organizationId, organizationId));
  return row;
}

export function jwksUrl(publicUrl: string, organizationId: string) {
  return `${publicUrl}/v1/organizations/${organizationId}/fhir_endpoint/jwks.json`;
}

export function endpointView(row: EndpointRow | undefined, publicUrl: string) {
  if (!row) return null;
  return {
    base_url: row.baseUrl,
    auth: row.auth as FhirAuth,
    client_id: row.clientId,
    scope: row.scope,
    has_token: Boolean(row.tokenSealed),
    jwks_url: row.publicJwk ? jwksUrl(publicUrl, row.organizationId) : null,
    launch_client_id: row.launchClientId,
    require_sign_off: row.requireSignOff,
    // What the record system's admin registers for launches: where it opens this app, and where it sends it back.
    launch_url: `${publicUrl}/launch/${row.organizationId}`,
    redirect_url: `${publicUrl}/launch/callback`,
    updated_at: row.updatedAt.toISOString(),
  };
}

export type EndpointInput = {
  base_url: string;
  auth: FhirAuth;
  token?: string;
  client_id?: string;
  scope?: string;
  launch_client_id?: string;
  require_sign_off?: boolean;
};

export async function saveEndpoint(ctx: AppContext, organizationId: string, userId: string, input: EndpointInput): Promise<EndpointRow> {
  const url = checkOutboundUrl(input.base_url, ctx.config.fhirAllowPrivateNetworks);
  // Resource paths are appended to it: a query or fragment would swallow them.
  if (url.search || url.hash) throw new DomainError(400, 'invalid_request', 'The FHIR base address takes no query or fragment', { base_url: 'invalid_url' });
  const baseUrl = url.toString().replace(/\/+$/, '');
  const saved = await findEndpoint(ctx.db, organizationId);
  const keys = ctx.engines.keys;
  let tokenSealed: string | null = null;
  if (input.auth === 'bearer') {
    // A token kept for the same server stays when the form leaves it empty; a new server needs its own.
    if (input.token) tokenSealed = seal(keys, organizationId, 'token', input.token);
    else if (saved?.tokenSealed && saved.baseUrl === baseUrl && saved.auth === 'bearer') tokenSealed = saved.tokenSealed;
    else throw new DomainError(400, 'invalid_request', 'A bearer token is needed', { token: 'required' });
  }
  if (input.auth === 'backend_services' && !input.client_id)
    throw new DomainError(400, 'invalid_request', 'The client id the record system gave is needed', { client_id: 'required' });
  // The key belongs to one record system and one client registration. Pointed elsewhere, the organization gets a
  // new key (to register there): otherwise whoever controls the new address could name the old record system's
  // token endpoint as its own and receive tokens this server obtained with the key that system trusts.
  const sameRegistration = saved?.auth === 'backend_services' && saved.baseUrl === baseUrl && saved.clientId === input.client_id;
  let { privateKeySealed, publicJwk } = sameRegistration ? saved : { privateKeySealed: null, publicJwk: null };
  if (input.auth === 'backend_services' && !privateKeySealed) {
    const pair = await generateKeyPair(SIGNING_ALG, { extractable: true });
    const publicPart = await exportJWK(pair.publicKey);
    const kid = await calculateJwkThumbprint(publicPart);
    publicJwk = { ...(publicPart as Record<string, string>), kid, alg: SIGNING_ALG, use: 'sig' };
    privateKeySealed = seal(keys, organizationId, 'private-key', JSON.stringify({ ...(await exportJWK(pair.privateKey)), kid, alg: SIGNING_ALG }));
  }
  const values = {
    baseUrl,
    auth: input.auth,
    clientId: input.auth === 'backend_services' ? input.client_id! : null,
    scope: input.auth === 'backend_services' ? input.scope?.trim() || DEFAULT_SCOPE : null,
    tokenSealed,
    privateKeySealed,
    publicJwk,
    launchClientId: input.launch_client_id?.trim() || null,
    // Left as it was when the form does not say (a client that does not know the setting never turns it off).
    requireSignOff: input.require_sign_off ?? saved?.requireSignOff ?? false,
    updatedBy: userId,
    updatedAt: new Date(),
  };
  const [row] = await ctx.db
    .insert(organizationFhirEndpoints)
    .values({ organizationId, ...values })
    .onConflictDoUpdate({ target: organizationFhirEndpoints.organizationId, set: values })
    .returning();
  return row!;
}

export async function deleteEndpoint(db: Database, organizationId: string): Promise<void> {
  await db.delete(organizationFhirEndpoints).where(eq(organizationFhirEndpoints.organizationId, organizationId));
}

export const openToken = (keys: KeyRing, row: EndpointRow) => (row.tokenSealed ? open(keys, row.organizationId, 'token', row.tokenSealed) : undefined);
export const openPrivateKey = (keys: KeyRing, row: EndpointRow): JWK | undefined =>
  row.privateKeySealed ? (JSON.parse(open(keys, row.organizationId, 'private-key', row.privateKeySealed)) as JWK) : undefined;

/** After a master key rotation: every sealed token and key under the new key (the old one can then be retired). */
export async function resealFhirSecrets(db: Database, keys: KeyRing): Promise<number> {
  let changed = 0;
  for (const row of await db.select().from(organizationFhirEndpoints)) {
    const current = keys.current().id;
    const reseal = (what: 'token' | 'private-key', sealed: string | null) =>
      sealed && storedKeyId(Buffer.from(sealed, 'base64')) !== current
        ? seal(keys, row.organizationId, what, open(keys, row.organizationId, what, sealed))
        : sealed;
    const tokenSealed = reseal('token', row.tokenSealed);
    const privateKeySealed = reseal('private-key', row.privateKeySealed);
    if (tokenSealed === row.tokenSealed && privateKeySealed === row.privateKeySealed) continue;
    // Only if the row is still what was read: a save in between keeps its own secrets.
    const done = await db
      .update(organizationFhirEndpoints)
      .set({ tokenSealed, privateKeySealed })
      .where(and(eq(organizationFhirEndpoints.organizationId, row.organizationId), eq(organizationFhirEndpoints.updatedAt, row.updatedAt)))
      .returning({ id: organizationFhirEndpoints.organizationId });
    if (done.length) changed++;
  }
  return changed;
}
