/**
 * Counts failed logins per e-mail in a sliding window, on top of the per-IP limit, so one account cannot be
 * guessed at from many addresses. Memory-only: with several API processes each counts its own share,
 * which still bounds guessing; a shared store comes with scale-out.
 */
export function createLoginLimiter(maxFailures: number, windowMs = 15 * 60 * 1000) {
  const failures = new Map<string, number[]>();

  const recent = (email: string, now: number) => (failures.get(email) ?? []).filter((t) => now - t < windowMs);

  return {
    isBlocked(email: string, now = Date.now()): boolean {
      return recent(email, now).length >= maxFailures;
    },
    recordFailure(email: string, now = Date.now()): void {
      const list = recent(email, now);
      list.push(now);
      failures.set(email, list);
      if (failures.size > 100_000) failures.delete(failures.keys().next().value as string);
    },
    reset(email: string): void {
      failures.delete(email);
    },
  };
}
export type LoginLimiter = ReturnType<typeof createLoginLimiter>;
