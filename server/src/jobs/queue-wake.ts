/**
 * Waking the workers of another process. An API process (ROLE=api) runs no queue: when it stores work (a
 * recorded part, a scanned record) it says so on the event bus, and every worker process wakes its loop at once
 * instead of at its next poll. The event carries only the queue's name; a lost one costs a poll interval.
 */
import type { EventBus } from '../events/event-bus.js';

const TOPIC = 'jobs.wake';

export type QueueName = 'transcription' | 'ocr';
export type Wakeable = { wake(): void; stop(graceMs?: number): Promise<void>; drain(): Promise<void> };

/** The queue as an API process sees it: waking publishes; there is nothing of its own to stop or drain. */
export function queueElsewhere(events: EventBus, queue: QueueName, onError: (err: unknown) => void): Wakeable {
  return {
    wake: () => void events.publish(TOPIC, { queue }).catch(onError),
    stop: async () => undefined,
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
