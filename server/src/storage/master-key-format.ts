/**
 * How a master key is written in the settings (ENCRYPTION_KEY): 32 bytes as 64 hex digits or as base64 (with or
 * without padding, standard or URL alphabet). Apart from storage/master-keys.ts so the settings can check it
 * without loading the key ring.
 */
export const MASTER_KEY_BYTES = 32;

export function parseMasterKey(text: string): Buffer | undefined {
  const s = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(s)) return Buffer.from(s, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}={0,1}$/.test(s)) {
    const key = Buffer.from(s.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    if (key.length === MASTER_KEY_BYTES) return key;
  }
  return undefined;
}
