/**
 * Documents being written, so readers can follow the text as it grows (SSE). In this process a document is in
 * memory while it is being generated; its text also goes out on the event bus (events/event-bus.ts) in pieces
 * that say where they start and which writer wrote them (the version's takeover count), gathered for a moment so
 * a model's every token is not a message of its own, so a reader connected to another process can follow it
 * too (remote-follow.ts). The database holds the final text.
 */
import type { EventBus } from '../../events/event-bus.js';

type Listener = (event: { type: 'delta'; text: string } | { type: 'done' } | { type: 'failed' }) => void;

/** At most this much text an event: sealed and base64, it must stay under NOTIFY's 8,000 bytes whatever it holds. */
const PIECE_CHARS = 800;
/** Text gathered this long before it goes out. */
const GATHER_MS = 150;

export const documentTopic = (id: string) => `document:${id}`;

export function createLiveDocuments(bus?: EventBus, onPublishError?: (err: unknown) => void) {
  type Doc = { text: string; epoch: number; sentTo: number; timer?: NodeJS.Timeout; listeners: Set<Listener> };
  const live = new Map<string, Doc>();
  const publish = (id: string, event: Record<string, unknown>) => void bus?.publish(documentTopic(id), event).catch((err: unknown) => onPublishError?.(err));
  /** What was written since the last event, in pieces. */
  const flush = (id: string, doc: Doc) => {
    clearTimeout(doc.timer);
    doc.timer = undefined;
    for (let at = doc.sentTo; at < doc.text.length; at += PIECE_CHARS)
      publish(id, { type: 'delta', epoch: doc.epoch, offset: at, text: doc.text.slice(at, at + PIECE_CHARS) });
    doc.sentTo = doc.text.length;
  };
  return {
    /** `epoch`: the version's takeover count, which tells one writer's text from the next one's. */
    begin(id: string, epoch = 0) {
      const old = live.get(id);
      if (old) clearTimeout(old.timer);
      live.set(id, { text: '', epoch, sentTo: 0, listeners: new Set() });
    },
    append(id: string, delta: string) {
      const doc = live.get(id);
      if (!doc) return;
      doc.text += delta;
      for (const l of doc.listeners) l({ type: 'delta', text: delta });
      if (!bus) return;
      if (doc.text.length - doc.sentTo >= PIECE_CHARS) flush(id, doc);
      else doc.timer ??= setTimeout(() => flush(id, doc), GATHER_MS);
    },
    end(id: string, ok: boolean) {
      const doc = live.get(id);
      live.delete(id);
      if (doc) flush(id, doc);
      for (const l of doc?.listeners ?? []) l({ type: ok ? 'done' : 'failed' });
      publish(id, { type: ok ? 'done' : 'failed', epoch: doc?.epoch ?? 0 });
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
