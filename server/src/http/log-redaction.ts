/**
 * Request logs carry the method and a redacted URL only: tokens travel in some paths
 * (/v1/reset_password/{token}, /v1/organization_invitations/{token}/accept, /autologin/{token}…) and must never
 * reach a log file. Two rules, the second a safety net for paths added later:
 *   1. the segment after a token-bearing resource is replaced, whatever it looks like;
 *   2. any segment that looks like a secret (32+ characters of hex or base64url, or a JWT) is replaced.
 * Record ids (UUIDs) and route words stay, so a log line still says which record a request touched.
 * The query string is dropped as a whole (`?[query]`): signup links carry an invitation there.
 */
const TOKEN_RESOURCES = new Set([
  'organization_invitations',
  'invitations',
  'reset_password',
  'confirm_email',
  'autologin',
  'auto_login',
  'integration',
  'signed_token_login',
]);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const LONG_RANDOM = /^[A-Za-z0-9_+=-]{32,}$/;
const JWT_LIKE = /^[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*$/;
/** Route words (lowercase words joined by _ or -): never secrets, however long. */
const ROUTE_WORDS = /^[a-z]+(?:[_-][a-z]+)*$/;

const REDACTED = '[redacted]';

// The router decodes percent-escapes (/v1/%72eset_password/… is routed), so names are compared decoded.
function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export function looksLikeSecret(segment: string): boolean {
  const s = decoded(segment);
  if (UUID.test(s) || ROUTE_WORDS.test(s)) return false;
  return LONG_RANDOM.test(s) || JWT_LIKE.test(s);
}

/** A path with its percent-escapes undone (twice-encoded ones too), so '%2F' cannot hide a token's segment. */
function decodedPath(path: string): string {
  let out = path;
  for (let i = 0; i < 3; i++) {
    const next = decoded(out);
    if (next === out) break;
    out = next;
  }
  return out;
}

export function redactUrl(url: string): string {
  const queryAt = url.search(/[?#]/);
  const pathPart = queryAt === -1 ? url : url.slice(0, queryAt);
  // The rules read the decoded path ('/v1%2Fauto_login%2F<token>' is one segment as written, three decoded); the
  // log keeps each segment as written, escapes and all (a decoded NUL or '<script>' has no place in a log), and a
  // written segment holding any part to redact goes whole.
  let previous = '';
  const segments = pathPart.split('/').map((segment) => {
    if (segment === '') return segment;
    let redact = false;
    for (const part of decodedPath(segment).split('/')) {
      if (part === '') continue;
      if (TOKEN_RESOURCES.has(previous.toLowerCase()) || looksLikeSecret(part)) redact = true;
      previous = part;
    }
    return redact ? REDACTED : segment;
  });
  const redacted = segments.join('/');
  return queryAt === -1 ? redacted : `${redacted}?[query]`;
}

export const logRedactPaths = ['req.headers.authorization', 'res.headers.authorization', 'err.config'];
