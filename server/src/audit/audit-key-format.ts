/**
 * How an audit key is written (AUDIT_KEY, the lines of DATA_DIR/audit-key): at least 32 bytes as hex (an even
 * number of digits) or base64 (standard or URL alphabet). Apart from audit/audit-key.ts so the settings can check
 * it without loading the key file.
 */
export const MIN_AUDIT_KEY_BYTES = 32;

export function parseAuditKey(text: string): Buffer | undefined {
  const s = text.trim();
  let key: Buffer | undefined;
  if (/^(?:[0-9a-fA-F]{2})+$/.test(s)) key = Buffer.from(s, 'hex');
  else if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(s)) key = Buffer.from(s.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  return key && key.length >= MIN_AUDIT_KEY_BYTES ? key : undefined;
}
