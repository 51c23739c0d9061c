/**
 * What the queues' claims share. A claim's lease ends at a moment cut to the millisecond on the database clock, so
 * that its text is also the claim's token (compared as `::text` → `::timestamptz`, exact on PGlite and
 * node-postgres alike), and it is renewed while the work goes on.
 */
import { sql } from 'drizzle-orm';

/** The end of a lease taken now, by the database clock. */
export const leaseFrom = (seconds: number) => sql`date_trunc('milliseconds', clock_timestamp() + ${seconds} * interval '1 second')`;

/**
 * Runs `renew` every `everyMs`, one renewal at a time (`renew` handles its own errors). The function returned
 * stops renewing and waits for a renewal under way, so that a result is then written under the token the row
 * carries.
 */
export function renewEvery(everyMs: number, renew: () => Promise<void>): () => Promise<void> {
  let inFlight: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    inFlight = inFlight.then(renew);
  }, everyMs);
  return async () => {
    clearInterval(timer);
    await inFlight;
  };
}
