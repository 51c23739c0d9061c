/**
 * Session tokens are HS256 JWTs whose `jti` is a row in auth_sessions. The signature proves the token was
 * issued here; the row lets logout and password changes revoke it before `exp`.
 */
import { randomUUID } from 'node:crypto';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { SignJWT, jwtVerify } from 'jose';
import type { Database } from '../db/client.js';
import { authSessions, users } from '../db/schema.js';
import { revokeSignInTokens } from './one-time-tokens.js';
import type { UserRow } from './users.js';
import { BUS_RECONNECTED, type EventBus } from '../events/event-bus.js';
import { spreadExpiry } from '../events/expiry-spread.js';
import { readsUnderWay } from '../events/reads-under-way.js';

export type SessionTokens = ReturnType<typeof createSessionTokens>;

/**
 * How long a checked session is trusted without asking the database again (hot polling paths only). Revocations
 * drop it at once (here and, through the event bus, in every process); this bounds only an event lost on the way.
 */
export const LIVENESS_CACHE_MS = 30_000;
const MAX_CACHED = 50_000;

const REVOKED_TOPIC = 'sessions.revoked';

export function createSessionTokens(db: Database, opts: { secret: string; ttlSeconds: number; events?: EventBus }) {
  const key = new TextEncoder().encode(opts.secret);
  /**
   * For the 5-second polls of every phone-mode user: token → its checked claims and whether its session was live,
   * kept LIVENESS_CACHE_MS. A revocation clears it at once, in this process and (through the event bus) in every
   * other; only an event lost on the way leaves another process trusting the token, LIVENESS_CACHE_MS at most
   * (and a reconnected bus clears everything).
   */
  const live = new Map<string, { userId: string; sessionId: string; exp: number; until: number }>();
  const tokensOf = new Map<string, Set<string>>();
  // Checks under way per session: a revocation landing while one runs makes its answer unfit to keep.
  const checking = readsUnderWay();
  const unlist = (token: string, sessionId: string) => {
    const tokens = tokensOf.get(sessionId);
    tokens?.delete(token);
    if (tokens?.size === 0) tokensOf.delete(sessionId);
  };
  const forget = (sessionId: string) => {
    for (const token of tokensOf.get(sessionId) ?? []) live.delete(token);
    tokensOf.delete(sessionId);
    checking.changed(sessionId);
  };
  opts.events?.subscribe(REVOKED_TOPIC, (event) => {
    if (typeof event.sessionId === 'string') forget(event.sessionId);
  });
  opts.events?.subscribe(BUS_RECONNECTED, () => {
    live.clear();
    tokensOf.clear();
    checking.changedAll();
  });
  const signed = async (token: string): Promise<{ jti: string; exp: number } | undefined> => {
    try {
      const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'] });
      return payload.jti ? { jti: payload.jti, exp: payload.exp ?? 0 } : undefined;
    } catch {
      return undefined;
    }
  };
  // Every authenticated request runs this: prepared once, it skips building the SQL each time.
  const liveSession = db
    .select({ user: users })
    .from(authSessions)
    .innerJoin(users, eq(users.id, authSessions.userId))
    .where(and(eq(authSessions.id, sql.placeholder('jti')), isNull(authSessions.revokedAt), gt(authSessions.expiresAt, sql`now()`)))
    .limit(1)
    .prepare('live_session');

  return {
    async issue(userId: string): Promise<string> {
      const jti = randomUUID();
      const now = Math.floor(Date.now() / 1000);
      const exp = now + opts.ttlSeconds;
      await db.insert(authSessions).values({ id: jti, userId, expiresAt: new Date(exp * 1000) });
      return new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject(userId).setJti(jti).setIssuedAt(now).setExpirationTime(exp).sign(key);
    },

    /** The user behind a live token, or undefined: bad signature, expired, revoked or user gone. */
    async verify(token: string): Promise<{ user: UserRow; sessionId: string; exp: number } | undefined> {
      const claims = await signed(token);
      if (!claims) return undefined;
      const [row] = await liveSession.execute({ jti: claims.jti });
      return row ? { user: row.user, sessionId: claims.jti, exp: claims.exp } : undefined;
    },

    /** The user id and session of a live token, from the cache when possible (no user row). */
    async verifyCached(token: string): Promise<{ userId: string; sessionId: string } | undefined> {
      const hit = live.get(token);
      if (hit && hit.until > Date.now() && hit.exp * 1000 > Date.now()) return { userId: hit.userId, sessionId: hit.sessionId };
      if (hit) {
        live.delete(token);
        unlist(token, hit.sessionId);
      }
      // The session is known from the signature before the database is asked, so a revocation meanwhile is seen.
      const claims = await signed(token);
      if (!claims) return undefined;
      const row = await checking.run(
        claims.jti,
        async () => (await liveSession.execute({ jti: claims.jti }))[0],
        (found) => {
          if (!found) return;
          if (live.size >= MAX_CACHED) {
            const [oldest, entry] = live.entries().next().value as [string, { sessionId: string }];
            live.delete(oldest);
            unlist(oldest, entry.sessionId);
          }
          live.set(token, { userId: found.user.id, sessionId: claims.jti, exp: claims.exp, until: Date.now() + spreadExpiry(LIVENESS_CACHE_MS) });
          tokensOf.set(claims.jti, (tokensOf.get(claims.jti) ?? new Set()).add(token));
        },
      );
      return row ? { userId: row.user.id, sessionId: claims.jti } : undefined;
    },

    async revoke(sessionId: string): Promise<void> {
      await db.update(authSessions).set({ revokedAt: new Date() }).where(eq(authSessions.id, sessionId));
      forget(sessionId);
      await opts.events?.publish(REVOKED_TOPIC, { sessionId }).catch(() => undefined);
    },

    /**
     * After a password change every other device must sign in again, and no sign-in link still unused (QR code,
     * confirmation link) may open a session afterwards. The links go after the sessions: a session that could
     * still mint a QR code is revoked before the codes are swept.
     */
    async revokeAllFor(userId: string, exceptSessionId?: string): Promise<void> {
      const sessions = await db
        .select({ id: authSessions.id })
        .from(authSessions)
        .where(and(eq(authSessions.userId, userId), isNull(authSessions.revokedAt)));
      for (const s of sessions) if (s.id !== exceptSessionId) await this.revoke(s.id);
      await revokeSignInTokens(db, userId);
    },
  };
}
