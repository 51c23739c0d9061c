/**
 * Documents being written, in memory, so readers can follow the text as it grows (SSE). A document is here only
 * while it is being generated; the database holds the final text.
 */
type Listener = (event: { type: 'delta'; text: string } | { type: 'done' } | { type: 'failed' }) => void;

export function createLiveDocuments() {
  const live = new Map<string, { text: string; listeners: Set<Listener> }>();
  return {
    begin(id: string) {
      live.set(id, { text: '', listeners: new Set() });
    },
    append(id: string, delta: string) {
      const doc = live.get(id);
      if (!doc) return;
      doc.text += delta;
      for (const l of doc.listeners) l({ type: 'delta', text: delta });
    },
    end(id: string, ok: boolean) {
      const doc = live.get(id);
      live.delete(id);
      for (const l of doc?.listeners ?? []) l({ type: ok ? 'done' : 'failed' });
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
