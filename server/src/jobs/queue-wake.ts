/**
 * Waking the workers of another process. An API process (ROLE=api) runs no queue: when it stores work (a
 * recorded part, a scanned record) it says so on the event bus, and every worker process wakes its loop at once
 * instead of at its next poll. The event carries only the queue's name; a lost one costs a poll interval.
 */
import type { EventBus } from '../events/event-bus.js';

const TOPIC = 'jobs.wake';

export type QueueName = 'transcription' | 'ocr';
export type Wakeable = { wake(): void; stop(graceMs?: number): Promise<void>; drain(): Promise<void> };

/**
 * Wakes sent at most once per this many milliseconds per queue: at 1,000 recorders an API process stores ~200
 * parts a second, and one wake already makes every worker claim until the queue is empty.
 */
export const WAKE_EVERY_MS = 50;

/** The queue as an API process sees it: waking publishes; there is nothing of its own to stop or drain. */
export function queueElsewhere(events: EventBus, queue: QueueName, onError: (err: unknown) => void): Wakeable {
  let last = 0;
  let later: NodeJS.Timeout | undefined;
  const send = () => {
    last = Date.now();
    void events.publish(TOPIC, { queue }).catch(onError);
  };
  return {
    // The first wake goes at once; those within the next WAKE_EVERY_MS become one, sent when it ends.
    wake: () => {
      if (later) return;
      const wait = last + WAKE_EVERY_MS - Date.now();
      if (wait <= 0) return send();
      later = setTimeout(() => {
        later = undefined;
        send();
      }, wait);
    },
    stop: async () => {
      // A wake still waiting goes now: the work it announces is stored.
      if (later) {
        clearTimeout(later);
        later = undefined;
        send();
      }
    },
    drain: async () => {
      throw new Error(`the ${queue} queue runs in the worker processes`);
    },
  };
}

/** A worker process wakes its own loop when an API process stored work for it. */
export function wakeOnRequest(events: EventBus, queue: QueueName, local: Wakeable): () => void {
  return events.subscribe(TOPIC, (event) => {
    if (event.queue === queue) local.wake();
  });
}
