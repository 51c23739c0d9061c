/**
 * Every phone-mode user asks "is there an active consultation?" every 5 seconds. The answer is kept in memory
 * until a change drops it: a consultation started, paused, resumed or finished (by the clinician or the
 * retention sweep), in this process directly and in the others through the event bus (events/event-bus.ts).
 * So an unchanged answer costs no database round trip. The bus may lose an event (a dropped connection): the
 * answer is also asked again after TTL_MS, which bounds how stale another process can be.
 */
import { BUS_RECONNECTED, type EventBus } from '../../events/event-bus.js';
import { spreadExpiry } from '../../events/expiry-spread.js';
import { readsUnderWay } from '../../events/reads-under-way.js';

export type ActiveStatus = { active: false } | { active: true; id: string; show_transcription: boolean; recording_state: string };

const TTL_MS = 30_000;
const MAX_ENTRIES = 100_000;

const TOPIC = 'active-status';

export function createActiveStatusCache(bus?: EventBus) {
  const entries = new Map<string, { value: ActiveStatus; until: number }>();
  const reading = readsUnderWay();
  const drop = (userId: string) => {
    entries.delete(userId);
    reading.changed(userId);
  };
  bus?.subscribe(TOPIC, (event) => {
    if (typeof event.userId === 'string') drop(event.userId);
  });
  bus?.subscribe(BUS_RECONNECTED, () => {
    entries.clear();
    reading.changedAll();
  });
  return {
    async get(userId: string, load: () => Promise<ActiveStatus>): Promise<ActiveStatus> {
      const hit = entries.get(userId);
      if (hit && hit.until > Date.now()) return hit.value;
      return reading.run(userId, load, (value) => {
        if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value as string);
        entries.set(userId, { value, until: Date.now() + spreadExpiry(TTL_MS) });
      });
    },
    /** Called once a change is written (after its commit): a read before the write would otherwise be kept. */
    forget(userId: string): void {
      drop(userId);
      void bus?.publish(TOPIC, { userId }).catch(() => undefined);
    },
  };
}
export type ActiveStatusCache = ReturnType<typeof createActiveStatusCache>;
