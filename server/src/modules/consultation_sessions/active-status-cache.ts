/**
 * Every phone-mode user asks "is there an active consultation?" every 5 seconds. The answer is kept in memory
 * for a second and dropped at once when a consultation starts or finishes: in this process directly, in the
 * others through the event bus (events/event-bus.ts); a notification lost meanwhile costs at most the second.
 */
import type { EventBus } from '../../events/event-bus.js';

export type ActiveStatus = { active: false } | { active: true; id: string; show_transcription: boolean; recording_state: string };

const TTL_MS = 1000;
const MAX_ENTRIES = 100_000;

const TOPIC = 'active-status';

export function createActiveStatusCache(bus?: EventBus) {
  const entries = new Map<string, { value: ActiveStatus; until: number }>();
  bus?.subscribe(TOPIC, (event) => {
    if (typeof event.userId === 'string') entries.delete(event.userId);
  });
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
      void bus?.publish(TOPIC, { userId }).catch(() => undefined);
    },
  };
}
export type ActiveStatusCache = ReturnType<typeof createActiveStatusCache>;
