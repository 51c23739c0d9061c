/** Time left until a finished consultation's data is deleted, rounded up to the minute (never shows 0 too early). */
export function timeLeft(expiresAt: string | null, now: number): { hours: number; minutes: number; expired: boolean } {
  const ms = expiresAt ? Date.parse(expiresAt) - now : 0;
  if (!(ms > 0)) return { hours: 0, minutes: 0, expired: true };
  const totalMinutes = Math.ceil(ms / 60_000);
  return { hours: Math.floor(totalMinutes / 60), minutes: totalMinutes % 60, expired: false };
}
