/**
 * Mails that anyone can cause to be sent to any address (a sign-up or a sign-in attempt telling the owner about it)
 * go out at most once per window for each address and kind: without it, one client could send an inbox thousands
 * a day through a route that always answers the same. Counted per process, in memory (a restart or a second
 * process allows one more), keyed by a hash so the addresses themselves are not kept.
 */
import { createHash } from 'node:crypto';

export const RECIPIENT_WINDOW_MS = 15 * 60_000;

export function createRecipientCap(windowMs = RECIPIENT_WINDOW_MS) {
  const lastSent = new Map<string, number>();
  return {
    /** True, and counted, when a mail of this kind may go to this address now. */
    allow(kind: string, address: string, now = Date.now()): boolean {
      if (lastSent.size > 10_000) for (const [key, at] of lastSent) if (now - at >= windowMs) lastSent.delete(key);
      const key = createHash('sha256').update(`${kind}\n${address.toLowerCase()}`).digest('base64url');
      const last = lastSent.get(key);
      if (last !== undefined && now - last < windowMs) return false;
      lastSent.set(key, now);
      return true;
    },
  };
}
export type RecipientCap = ReturnType<typeof createRecipientCap>;
