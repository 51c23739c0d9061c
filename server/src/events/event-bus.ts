/**
 * Events between the processes of one server: with PostgreSQL, LISTEN/NOTIFY on one channel, so a browser
 * following a document on one API process sees the text another process writes; with the embedded database
 * there is one process, and the events stay in it.
 *
 * Delivery is at most once and may stop while the listening connection is re-made: whoever follows something
 * through the bus also checks the database now and then (generated_documents/routes.ts), which stays the truth.
 */
import { EventEmitter } from 'node:events';
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import { describeErrorSafely } from '../http/safe-errors.js';

export type BusEvent = Record<string, unknown>;
export type EventBus = {
  publish(topic: string, event: BusEvent): Promise<void>;
  /** Answers the function that stops the subscription. */
  subscribe(topic: string, handler: (event: BusEvent) => void): () => void;
  close(): Promise<void>;
};

const CHANNEL = 'consultation_notes_events';
/** PostgreSQL refuses a NOTIFY payload of 8,000 bytes or more: publishers keep their events well below. */
export const MAX_EVENT_BYTES = 7000;
const RECONNECT_MS = [250, 500, 1000, 2000, 5000];

function localTopics() {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    emit: (topic: string, event: BusEvent) => emitter.emit(topic, event),
    subscribe(topic: string, handler: (event: BusEvent) => void) {
      emitter.on(topic, handler);
      return () => void emitter.off(topic, handler);
    },
  };
}

export function createLocalEventBus(): EventBus {
  const topics = localTopics();
  return {
    publish: async (topic, event) => void topics.emit(topic, event),
    subscribe: topics.subscribe,
    close: async () => undefined,
  };
}

/**
 * One connection that LISTENs, re-made after a drop; NOTIFY goes through it too, so this process hears its own
 * events in the order it sent them, like every other process does.
 */
export async function createPostgresEventBus(databaseUrl: string, log: FastifyBaseLogger): Promise<EventBus> {
  const topics = localTopics();
  let client: pg.Client | undefined;
  let closed = false;
  let attempt = 0;

  async function connect(): Promise<void> {
    const next = new pg.Client({ connectionString: databaseUrl });
    next.on('notification', (msg) => {
      if (msg.channel !== CHANNEL || !msg.payload) return;
      try {
        const { topic, event } = JSON.parse(msg.payload) as { topic: string; event: BusEvent };
        topics.emit(topic, event);
      } catch {
        // Not one of ours.
      }
    });
    next.on('error', (err) => {
      log.warn({ reason: describeErrorSafely(err) }, 'event connection lost; reconnecting');
      if (client === next) client = undefined;
      void next.end().catch(() => undefined);
      scheduleReconnect();
    });
    await next.connect();
    await next.query(`LISTEN ${CHANNEL}`);
    client = next;
    attempt = 0;
  }

  function scheduleReconnect() {
    if (closed) return;
    const wait = RECONNECT_MS[Math.min(attempt++, RECONNECT_MS.length - 1)]!;
    setTimeout(() => void connect().catch(() => scheduleReconnect()), wait).unref();
  }

  await connect();
  return {
    async publish(topic, event) {
      const payload = JSON.stringify({ topic, event });
      if (Buffer.byteLength(payload) >= 8000) throw new Error(`event too large for NOTIFY (${Buffer.byteLength(payload)} bytes)`);
      if (!client) return; // Reconnecting: followers catch up from the database.
      await client.query('SELECT pg_notify($1, $2)', [CHANNEL, payload]);
    },
    subscribe: topics.subscribe,
    async close() {
      closed = true;
      await client?.end().catch(() => undefined);
      client = undefined;
    },
  };
}
