/**
 * Single-use tokens mailed or shown as a QR code. Only their SHA-256 is stored, so a database leak does not
 * leak working links; consuming is one conditional UPDATE, so two concurrent uses cannot both succeed.
 */
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, inArray, isNull } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { oneTimeTokens } from '../db/schema.js';

/** `smart_launch`: the hand-over from a launch by the record system to the browser it opened (two minutes). */
export type TokenPurpose = 'confirm_email' | 'reset_password' | 'qr_login' | 'smart_launch';
/** The purposes whose token opens a session when used: a QR code shown to a phone, the mailed confirmation link. */
export const SIGN_IN_PURPOSES = ['qr_login', 'confirm_email', 'smart_launch'] as const satisfies readonly TokenPurpose[];

export const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
// Hex, because the signup rule of the web app accepts only letters, digits and hyphens in an invitation ref.
export const newRandomToken = () => randomBytes(32).toString('hex');

export async function createOneTimeToken(db: Database, userId: string, purpose: TokenPurpose, ttlSeconds: number): Promise<{ token: string; expiresAt: Date }> {
  const token = newRandomToken();
  const expiresAt = new Date(Date.now() + ttlSeconds * 1000);
  await db.insert(oneTimeTokens).values({ tokenHash: sha256(token), userId, purpose, expiresAt });
  return { token, expiresAt };
}

/** Marks the token used and answers its user id, or undefined when unknown, used, expired or of another purpose. */
export async function consumeOneTimeToken(db: Database, token: string, purpose: TokenPurpose): Promise<string | undefined> {
  const [row] = await db
    .update(oneTimeTokens)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(oneTimeTokens.tokenHash, sha256(token)),
        eq(oneTimeTokens.purpose, purpose),
        isNull(oneTimeTokens.usedAt),
        gt(oneTimeTokens.expiresAt, new Date()),
      ),
    )
    .returning({ userId: oneTimeTokens.userId });
  return row?.userId;
}

/**
 * Retires every unused token of this purpose the user still holds: once a reset link has set a new password,
 * an older link found in the mailbox must not set another one.
 */
export async function revokeOutstandingTokens(db: Database, userId: string, purpose: TokenPurpose): Promise<void> {
  await db
    .update(oneTimeTokens)
    .set({ usedAt: new Date() })
    .where(and(eq(oneTimeTokens.userId, userId), eq(oneTimeTokens.purpose, purpose), isNull(oneTimeTokens.usedAt)));
}

/**
 * Retires every unused token that would open a session: whenever the account's sessions are all revoked (a new
 * password, a reset), a QR code minted a moment before, by a stolen session perhaps, must not open a new one.
 */
export async function revokeSignInTokens(db: Database, userId: string): Promise<void> {
  await db
    .update(oneTimeTokens)
    .set({ usedAt: new Date() })
    .where(and(eq(oneTimeTokens.userId, userId), inArray(oneTimeTokens.purpose, [...SIGN_IN_PURPOSES]), isNull(oneTimeTokens.usedAt)));
}
