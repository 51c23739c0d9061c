/**
 * Every phone-mode user asks "is there an active consultation?" every 5 seconds. The answer is kept in memory
 * for a second and dropped at once when this process starts or finishes a consultation; another API process
 * sees such a change at most a second late, well inside the 5-second poll.
 */
export type ActiveStatus = { active: false } | { active: true; id: string; show_transcription: boolean; recording_state: string };

const TTL_MS = 1000;
const MAX_ENTRIES = 100_000;

export function createActiveStatusCache() {
  const entries = new Map<string, { value: ActiveStatus; until: number }>();
  return {
    async get(userId: string, load: () => Promise<ActiveStatus>): Promise<ActiveStatus> {
      const now = Date.now();
      const hit = entries.get(userId);
      if (hit && hit.until > now) return hit.value;
      const value = await load();
      if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value as string);
      entries.set(userId, { value, until: now + TTL_MS });
      return value;
    },
    forget(userId: string): void {
      entries.delete(userId);
    },
  };
}
export type ActiveStatusCache = ReturnType<typeof createActiveStatusCache>;
