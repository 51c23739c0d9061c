/**
 * Documents being written, so readers can follow the text as it grows (SSE). In this process a document is in
 * memory while it is being generated; every delta and the end also go out on the event bus (events/event-bus.ts)
 * with where they start in the text, so a reader connected to another process can follow it too
 * (remote-follow.ts). The database holds the final text.
 */
import type { EventBus } from '../../events/event-bus.js';

type Listener = (event: { type: 'delta'; text: string } | { type: 'done' } | { type: 'failed' }) => void;

/** A delta goes out in pieces this long at most: a NOTIFY payload must stay under 8,000 bytes, escapes included. */
const PIECE_CHARS = 1500;

export const documentTopic = (id: string) => `document:${id}`;

export function createLiveDocuments(bus?: EventBus, onPublishError?: (err: unknown) => void) {
  const live = new Map<string, { text: string; listeners: Set<Listener> }>();
  const publish = (id: string, event: Record<string, unknown>) => void bus?.publish(documentTopic(id), event).catch((err: unknown) => onPublishError?.(err));
  return {
    begin(id: string) {
      live.set(id, { text: '', listeners: new Set() });
    },
    append(id: string, delta: string) {
      const doc = live.get(id);
      if (!doc) return;
      const offset = doc.text.length;
      doc.text += delta;
      for (const l of doc.listeners) l({ type: 'delta', text: delta });
      for (let at = 0; at < delta.length; at += PIECE_CHARS) publish(id, { type: 'delta', offset: offset + at, text: delta.slice(at, at + PIECE_CHARS) });
    },
    end(id: string, ok: boolean) {
      const doc = live.get(id);
      live.delete(id);
      for (const l of doc?.listeners ?? []) l({ type: ok ? 'done' : 'failed' });
      publish(id, { type: ok ? 'done' : 'failed' });
    },
    /** The text so far and a subscription, or undefined when the document is not being written here. */
    follow(id: string, listener: Listener): { textSoFar: string; stop: () => void } | undefined {
      const doc = live.get(id);
      if (!doc) return undefined;
      doc.listeners.add(listener);
      return { textSoFar: doc.text, stop: () => doc.listeners.delete(listener) };
    },
  };
}
export type LiveDocuments = ReturnType<typeof createLiveDocuments>;
