/**
 * A store for @fastify/rate-limit that keeps the counts in the database, so N API processes behind a proxy
 * allow a client `max` requests per window in all, not `max` on each. One UPSERT per limited request (only the
 * sign-in, sign-up, password, AI and support routes are limited, never the audio ingest or the polls): it
 * counts the hit, starts a new window when the last one has passed, and answers the count and the time left
 * by the database clock, so processes with drifting clocks agree.
 *
 * Keys are HMACs of route and client keyed by the server secret: the table lists no addresses. Rows whose
 * window passed long ago are pruned now and then by whichever process counts a hit. A client already over its
 * limit is refused from memory until its window ends, so a flood of refused requests writes nothing.
 */
import { createHmac } from 'node:crypto';
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';

const PRUNE_EVERY_MS = 10 * 60_000;
/** Clients remembered as over their limit, per process (the oldest forgotten first). */
const MAX_REFUSING = 10_000;

type Counted = { current: number; ttl: number };
type Callback = (error: Error | null, result?: Counted) => void;

export function createSharedRateLimitStore(db: Database, secret: string): FastifyRateLimitStoreCtor {
  let lastPrune = 0;
  const refusing = new Map<string, { current: number; until: number }>();
  const prune = () => {
    if (Date.now() - lastPrune < PRUNE_EVERY_MS) return;
    lastPrune = Date.now();
    void db.execute(sql`DELETE FROM rate_limit_windows WHERE resets_at < now() - interval '1 hour'`).catch(() => {
      lastPrune = 0;
    });
  };

  async function count(key: string, timeWindowMs: number): Promise<Counted> {
    const result = await db.execute(sql`
      INSERT INTO rate_limit_windows AS w (key, hits, resets_at)
      VALUES (${key}, 1, now() + ${Math.max(1, Math.round(timeWindowMs))} * interval '1 millisecond')
      ON CONFLICT (key) DO UPDATE SET
        hits = CASE WHEN w.resets_at <= now() THEN 1 ELSE w.hits + 1 END,
        resets_at = CASE WHEN w.resets_at <= now() THEN excluded.resets_at ELSE w.resets_at END
      RETURNING hits, GREATEST(0, extract(epoch FROM (resets_at - now())) * 1000)::float8 AS ttl_ms`);
    const row = (result as unknown as { rows: { hits: number | string; ttl_ms: number | string }[] }).rows[0];
    if (!row) throw new Error('rate limit count returned no row');
    return { current: Number(row.hits), ttl: Math.ceil(Number(row.ttl_ms)) };
  }

  class SharedStore implements FastifyRateLimitStore {
    private readonly scope: string;

    /** The plugin builds the root store with its options; a route's store gets its route. */
    constructor(scope?: unknown) {
      this.scope = typeof scope === 'string' ? scope : 'global';
    }

    incr(key: string, callback: Callback, timeWindow: number, max: number): void {
      const hashed = createHmac('sha256', secret).update(`rate-limit\0${this.scope}\0${key}`).digest('base64url');
      const now = Date.now();
      const over = refusing.get(hashed);
      if (over && over.until > now) {
        over.current++;
        callback(null, { current: over.current, ttl: over.until - now });
        return;
      }
      refusing.delete(hashed);
      prune();
      count(hashed, timeWindow).then(
        (counted) => {
          if (counted.current > max) {
            if (refusing.size >= MAX_REFUSING) refusing.delete(refusing.keys().next().value as string);
            refusing.set(hashed, { current: counted.current, until: Date.now() + counted.ttl });
          }
          callback(null, counted);
        },
        (err: unknown) => callback(err instanceof Error ? err : new Error(String(err))),
      );
    }

    child(routeOptions: { routeInfo?: { method?: string | string[]; url?: string }; path?: string }): FastifyRateLimitStore {
      const method = [routeOptions.routeInfo?.method ?? ''].flat().join(',');
      return new SharedStore(`${method} ${routeOptions.routeInfo?.url ?? routeOptions.path ?? ''}`);
    }
  }
  // The plugin constructs the store with its options; ours are bound here instead.
  return SharedStore as unknown as FastifyRateLimitStoreCtor;
}
