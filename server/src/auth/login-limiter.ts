/**
 * Per-account back-off of password sign-ins that an attacker cannot turn into a lockout of the real user.
 *
 * Every attempt comes from a source the account either knows or not: a device (the random id the web app keeps
 * in localStorage and sends as `x-device-id`) or an address (the client IP, which honours TRUST_PROXY) from
 * which it has signed in with its password before. Failures are counted per account and per class of source:
 *
 *   unknown   pauses after `maxFailures` failures;
 *   address   (a known address, unknown device) after 2 × maxFailures;
 *   device    (a known device) after 2 × maxFailures.
 *
 * Once a class reaches its threshold each further failure pauses that class for 1 minute, doubling up to
 * 15 minutes; a count is forgotten 24 hours after its last failure, or when that class signs in. While a class
 * is paused its attempts are refused before the password is checked, the right password included, so a pause
 * is no oracle. Failures from unknown sources therefore never stop the clinician at their own devices.
 *
 * An attempt is counted BEFORE its password is checked (reserveAttempt): one UPSERT takes a slot of the class's
 * allowance, sets the pause this attempt would earn should it fail, and answers whether the attempt may go on.
 * Checking first and counting after the password check would let a burst of concurrent guesses all pass the
 * check while none had been counted yet; with the row locked by the UPSERT, a burst gets exactly the allowance.
 * A right password then gives the slot back by forgetting the class's count, as a sign-in always did.
 *
 * State lives in the database (login_backoff, login_known_sources), so every API process shares it. Only
 * HMACs keyed by the server secret are stored: the e-mail (known account or not, so a pause never reveals who
 * has an account), and each source salted with its user id (so the table lists no addresses).
 */
import { createHmac } from 'node:crypto';
import { and, eq, gt, inArray, lt, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { loginBackoff, loginKnownSources } from '../db/schema.js';

export type SourceTrust = 'device' | 'address' | 'unknown';
export type LoginSource = { address: string; deviceId?: string };

const BASE_PAUSE_SECONDS = 60;
const MAX_PAUSE_SECONDS = 15 * 60;
const FORGET_FAILURES_AFTER = sql`interval '24 hours'`;
/** A device or address not used for this long is no longer trusted. */
const FORGET_SOURCES_AFTER = sql`interval '180 days'`;
const DEVICE_ID = /^[A-Za-z0-9_-]{16,128}$/;

/** The source of a sign-in request: its address and, when well-formed, the device id the web app sent. */
export function loginSourceOf(request: { ip: string; headers: Record<string, string | string[] | undefined> }): LoginSource {
  const header = request.headers['x-device-id'];
  const deviceId = typeof header === 'string' && DEVICE_ID.test(header) ? header : undefined;
  // An IPv4 client of a dual-stack socket appears as ::ffff:a.b.c.d; both spellings are one address.
  const address = request.ip.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '');
  return { address, deviceId };
}

export function createLoginLimiter(db: Database, opts: { secret: string; maxFailures: number }) {
  const mac = (...parts: string[]) => createHmac('sha256', opts.secret).update(parts.join('\0')).digest('hex');
  const accountKey = (email: string) => mac('login-account', email.trim().toLowerCase());
  const sourceHash = (userId: string, kind: 'device' | 'address', value: string) => mac('login-source', userId, kind, value);
  const threshold = (trust: SourceTrust) => (trust === 'unknown' ? opts.maxFailures : 2 * opts.maxFailures);

  return {
    /** How far this account trusts the source of an attempt (unknown for an e-mail without account). */
    async trustOf(userId: string | undefined, source: LoginSource): Promise<SourceTrust> {
      if (!userId) return 'unknown';
      const hashes = [sourceHash(userId, 'address', source.address)];
      if (source.deviceId) hashes.push(sourceHash(userId, 'device', source.deviceId));
      const rows = await db
        .select({ kind: loginKnownSources.kind })
        .from(loginKnownSources)
        .where(
          and(
            eq(loginKnownSources.userId, userId),
            inArray(loginKnownSources.sourceHash, hashes),
            gt(loginKnownSources.lastSeenAt, sql`now() - ${FORGET_SOURCES_AFTER}`),
          ),
        );
      if (rows.some((r) => r.kind === 'device')) return 'device';
      return rows.length > 0 ? 'address' : 'unknown';
    },

    /**
     * Takes one attempt of this class's allowance before the password is checked. The attempt is counted as a
     * failure, and the class paused as that failure would pause it, in the same statement that decides whether it
     * may go on: the conflict branch updates (and so returns) the row only while the class is not paused, and it
     * holds the row's lock, so concurrent attempts in any number of processes are counted one after another.
     */
    async reserveAttempt(email: string, trust: SourceTrust): Promise<{ allowed: true } | { allowed: false; retryAfterSeconds: number }> {
      const key = accountKey(email);
      const t = threshold(trust);
      // The new count appears twice because an UPDATE's SET cannot read a value another SET item computes.
      const count = sql`(case when ${loginBackoff.lastFailureAt} < now() - ${FORGET_FAILURES_AFTER} then 1 else ${loginBackoff.failures} + 1 end)`;
      // The numbers are integers of this module and the settings, written into the SQL so that PostgreSQL
      // need not guess the types of parameters inside power() and make_interval().
      const pauseAfter = (n: SQL) =>
        sql`case when ${n} >= ${sql.raw(String(t))} then now() + make_interval(secs => least(${sql.raw(String(MAX_PAUSE_SECONDS))}, ${sql.raw(String(BASE_PAUSE_SECONDS))} * power(2, ${n} - ${sql.raw(String(t))}))) else null end`;
      const reserved = await db
        .insert(loginBackoff)
        .values({ accountKey: key, sourceClass: trust, failures: 1, lastFailureAt: sql`now()`, blockedUntil: pauseAfter(sql`1`) })
        .onConflictDoUpdate({
          target: [loginBackoff.accountKey, loginBackoff.sourceClass],
          set: { failures: count, lastFailureAt: sql`now()`, blockedUntil: pauseAfter(count) },
          setWhere: sql`${loginBackoff.blockedUntil} is null or ${loginBackoff.blockedUntil} <= now()`,
        })
        .returning({ failures: loginBackoff.failures });
      if (reserved.length > 0) {
        // Opportunistic clean-up: counts nobody has added to for a day are forgotten anyway.
        await db.delete(loginBackoff).where(lt(loginBackoff.lastFailureAt, sql`now() - ${FORGET_FAILURES_AFTER}`));
        return { allowed: true };
      }
      // Paused. The decision is made above; this read only says for how long (a pause just ended reads as 1 s).
      const [row] = await db
        .select({ blockedUntil: loginBackoff.blockedUntil })
        .from(loginBackoff)
        .where(and(eq(loginBackoff.accountKey, key), eq(loginBackoff.sourceClass, trust)));
      const until = row?.blockedUntil?.getTime() ?? 0;
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((until - Date.now()) / 1000)) };
    },

    /**
     * A right password: the source becomes known to the account, and its class starts counting afresh, which
     * also gives back the slot this attempt reserved.
     */
    async recordSuccess(email: string, userId: string, trust: SourceTrust, source: LoginSource): Promise<void> {
      await this.rememberSource(userId, source);
      await db.delete(loginBackoff).where(and(eq(loginBackoff.accountKey, accountKey(email)), eq(loginBackoff.sourceClass, trust)));
    },

    /** Marks the address and device of a request that proved the password (a sign-in, or the signup itself). */
    async rememberSource(userId: string, source: LoginSource): Promise<void> {
      const rows: (typeof loginKnownSources.$inferInsert)[] = [{ userId, kind: 'address', sourceHash: sourceHash(userId, 'address', source.address) }];
      if (source.deviceId) rows.push({ userId, kind: 'device', sourceHash: sourceHash(userId, 'device', source.deviceId) });
      await db
        .insert(loginKnownSources)
        .values(rows)
        .onConflictDoUpdate({ target: [loginKnownSources.userId, loginKnownSources.sourceHash], set: { lastSeenAt: sql`now()` } });
      await db
        .delete(loginKnownSources)
        .where(and(eq(loginKnownSources.userId, userId), lt(loginKnownSources.lastSeenAt, sql`now() - ${FORGET_SOURCES_AFTER}`)));
    },

    /**
     * The password was chosen anew through the mailbox: devices and addresses remembered until now may be someone
     * else's (whoever pre-registered the address), so none keeps its trust; the caller remembers the one that reset.
     */
    async forgetSources(userId: string): Promise<void> {
      await db.delete(loginKnownSources).where(eq(loginKnownSources.userId, userId));
    },
    /** After a password reset through the mailbox, no earlier failure holds the account back. */
    async clear(email: string): Promise<void> {
      await db.delete(loginBackoff).where(eq(loginBackoff.accountKey, accountKey(email)));
    },
  };
}
export type LoginLimiter = ReturnType<typeof createLoginLimiter>;
