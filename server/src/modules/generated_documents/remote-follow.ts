/**
 * Following a document another process is writing: its deltas arrive on the event bus with their place in the
 * text, and the database has the text up to a second old (the writer saves it as it goes). The reader gets the
 * saved text first, then each delta from where it left off; a delta that skips ahead (a notification lost while
 * the bus reconnected) is filled from the database, which is also read every few seconds in case the end itself
 * was lost. A version taken over by another writer starts again from nothing: the reader's stream then ends
 * without an end event, and the browser reloads the document (it does so on any broken stream).
 */
import { eq } from 'drizzle-orm';
import { generatedDocuments } from '../../db/schema.js';
import type { AppContext } from '../../app-context.js';
import { documentTopic } from './live-documents.js';

const CHECK_EVERY_MS = 3000;
const RESYNC_GAP_MS = 300;

/** `end('restarted')`: written again from the start by another writer; the stream is closed as it is. */
type Sink = { delta: (text: string) => void; end: (outcome: boolean | 'restarted') => void };

export function followRemotely(ctx: Pick<AppContext, 'db' | 'events'>, id: string, sink: Sink): () => void {
  let known = 0;
  let finished = false;
  let started = false;
  const early: Record<string, unknown>[] = [];
  let lastResync = 0;
  let epoch: number | undefined;

  const read = async () =>
    (
      await ctx.db
        .select({ text: generatedDocuments.text, status: generatedDocuments.status, takeovers: generatedDocuments.takeovers })
        .from(generatedDocuments)
        .where(eq(generatedDocuments.id, id))
    )[0];

  function finish(ok: boolean | 'restarted') {
    if (finished) return;
    finished = true;
    stop();
    sink.end(ok);
  }

  /** What the database has beyond what was sent; the end when the document is no longer being written. */
  async function catchUp(): Promise<void> {
    if (finished) return;
    lastResync = Date.now();
    const row = await read();
    if (finished) return;
    if (!row) return finish(false);
    epoch ??= row.takeovers;
    if (row.takeovers !== epoch) return finish('restarted');
    if (row.text.length > known) {
      sink.delta(row.text.slice(known));
      known = row.text.length;
    }
    if (row.status !== 'generating') finish(row.status === 'done');
  }

  function handle(event: Record<string, unknown>) {
    if (finished) return;
    if (!started) {
      early.push(event);
      return;
    }
    if (typeof event.epoch === 'number' && epoch !== undefined && event.epoch !== epoch) {
      if (event.epoch > epoch) finish('restarted');
      return;
    }
    if (event.type === 'delta' && Number.isSafeInteger(event.offset) && (event.offset as number) >= 0 && typeof event.text === 'string') {
      const offset = event.offset as number;
      const text = event.text;
      if (offset + text.length <= known) return;
      if (offset <= known) {
        sink.delta(text.slice(known - offset));
        known = offset + text.length;
      } else if (Date.now() - lastResync >= RESYNC_GAP_MS) void catchUp().catch(() => undefined);
      return;
    }
    // done or failed: the final text is in the database before the end is announced.
    if (event.type === 'done' || event.type === 'failed') void catchUp().catch(() => finish(false));
  }

  const unsubscribe = ctx.events.subscribe(documentTopic(id), handle);
  const timer = setInterval(() => void catchUp().catch(() => undefined), CHECK_EVERY_MS);
  timer.unref();
  function stop() {
    unsubscribe();
    clearInterval(timer);
  }
  // Subscribed before the first read: nothing said after it is missed, and what it already holds is skipped.
  void catchUp()
    .then(() => {
      started = true;
      for (const e of early.splice(0)) handle(e);
    })
    .catch(() => finish(false));
  return () => {
    finished = true;
    stop();
  };
}
