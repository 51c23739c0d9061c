/**
 * Request logs carry the method and a redacted URL only: tokens travel in some paths
 * (/v1/reset_password/{token}, /autologin/{token}…) and must never reach a log file.
 */
const TOKEN_SEGMENTS = /\/(reset_password|confirm_email|autologin|integration|invitations)\/[^/?#]+/g;

export function redactUrl(url: string): string {
  const [pathPart, query] = url.split('?', 2);
  const redacted = (pathPart ?? '').replace(TOKEN_SEGMENTS, '/$1/[redacted]');
  return query === undefined ? redacted : `${redacted}?[query]`;
}

export const logRedactPaths = [
  'req.headers.authorization',
  'res.headers.authorization',
  'err.config',
];
