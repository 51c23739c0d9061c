/**
 * Events between the processes of one server: with PostgreSQL, LISTEN/NOTIFY on one channel, so a browser
 * following a document on one API process sees the text another process writes; with the embedded database
 * there is one process, and the events stay in it.
 *
 * Any role that may connect to the database may LISTEN or NOTIFY on any channel, and events carry patient text:
 * each is sealed (AES-256-GCM, a key derived from the server's JWT_SECRET, which every process shares), so other
 * roles read nothing and forge nothing.
 *
 * Delivery is at most once and may stop while the listening connection is re-made: whoever follows something
 * through the bus also checks the database now and then (generated_documents/remote-follow.ts), which stays the
 * truth.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import { describeErrorSafely } from '../errors/safe-errors.js';

export type BusEvent = Record<string, unknown>;
/**
 * Emitted when a process's bus connection is back after a drop, in that process and (sent on the new connection)
 * in every other: events sent meanwhile were not heard, or not sent, so what was kept on their promise (caches
 * dropped by events) must be asked again everywhere.
 */
export const BUS_RECONNECTED = 'bus.reconnected';
export type EventBus = {
  publish(topic: string, event: BusEvent): Promise<void>;
  /** Answers the function that stops the subscription. */
  subscribe(topic: string, handler: (event: BusEvent) => void): () => void;
  close(): Promise<void>;
};

const CHANNEL = 'consultation_notes_events';
/** PostgreSQL refuses a NOTIFY payload of 8,000 bytes or more. */
const NOTIFY_LIMIT = 8000;
const RECONNECT_MS = [250, 500, 1000, 2000, 5000];

function localTopics() {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    emit(topic: string, event: BusEvent) {
      try {
        emitter.emit(topic, event);
      } catch {
        // A subscriber's failure is its own; the others still get the event.
      }
    },
    subscribe(topic: string, handler: (event: BusEvent) => void) {
      emitter.on(topic, handler);
      return () => void emitter.off(topic, handler);
    },
  };
}

export function createLocalEventBus(): EventBus {
  const topics = localTopics();
  return {
    publish: async (topic, event) => topics.emit(topic, event),
    subscribe: topics.subscribe,
    close: async () => undefined,
  };
}

/** The sealing of events: a key of its own, derived from the shared secret. */
export function eventSeal(secret: string) {
  const key = Buffer.from(hkdfSync('sha256', secret, 'consultation-notes', 'event bus v1', 32));
  return {
    seal(plain: string): string {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
    },
    /** The plain text, or undefined for anything not sealed with this key. */
    open(sealed: string): string | undefined {
      try {
        const raw = Buffer.from(sealed, 'base64');
        const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
        decipher.setAuthTag(raw.subarray(12, 28));
        return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
      } catch {
        return undefined;
      }
    },
  };
}

/**
 * One connection that LISTENs, re-made after a drop (TCP keep-alive finds a silently dead one); NOTIFY goes
 * through it too, so this process hears its own events in the order it sent them, like every other process.
 */
export async function createPostgresEventBus(databaseUrl: string, secret: string, log: FastifyBaseLogger): Promise<EventBus> {
  const topics = localTopics();
  const sealing = eventSeal(secret);
  let client: pg.Client | undefined;
  let closed = false;
  let attempt = 0;
  let reconnecting: NodeJS.Timeout | undefined;
  // Each connection made has its number: errors of one no longer current are its own business.
  let generation = 0;

  async function connect(): Promise<void> {
    const mine = ++generation;
    // Keep-alive probes after 10 s of quiet rather than the system's two hours: a dead connection is found, and
    // replaced, before events are long lost on it.
    const next = new pg.Client({ connectionString: databaseUrl, keepAlive: true, keepAliveInitialDelayMillis: 10_000, connectionTimeoutMillis: 10_000 });
    next.on('notification', (msg) => {
      if (msg.channel !== CHANNEL || !msg.payload) return;
      const plain = sealing.open(msg.payload);
      if (!plain) return;
      try {
        const { topic, event } = JSON.parse(plain) as { topic: string; event: BusEvent };
        topics.emit(topic, event);
      } catch {
        // Not one of ours.
      }
    });
    next.on('error', (err) => {
      void next.end().catch(() => undefined);
      if (mine !== generation) return;
      client = undefined;
      log.warn({ reason: describeErrorSafely(err) }, 'event connection lost; reconnecting');
      scheduleReconnect();
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${CHANNEL}`);
      // What this process published while it was away went nowhere: the others drop what they kept too. (Sent before
      // the connection is shared with publish, which runs one query at a time on it.)
      if (mine > 1) await next.query('SELECT pg_notify($1, $2)', [CHANNEL, sealing.seal(JSON.stringify({ topic: BUS_RECONNECTED, event: {} }))]);
    } catch (err) {
      void next.end().catch(() => undefined);
      throw err;
    }
    if (closed || mine !== generation) {
      void next.end().catch(() => undefined);
      return;
    }
    client = next;
    attempt = 0;
    if (mine > 1) topics.emit(BUS_RECONNECTED, {});
  }

  function scheduleReconnect() {
    if (closed || reconnecting) return;
    const wait = RECONNECT_MS[Math.min(attempt++, RECONNECT_MS.length - 1)]!;
    reconnecting = setTimeout(() => {
      reconnecting = undefined;
      void connect().catch(() => scheduleReconnect());
    }, wait);
    reconnecting.unref();
  }

  await connect();
  let sending: Promise<void> = Promise.resolve();
  return {
    async publish(topic, event) {
      const payload = sealing.seal(JSON.stringify({ topic, event }));
      if (payload.length >= NOTIFY_LIMIT) throw new Error(`event too large for NOTIFY (${payload.length} bytes)`);
      // One query at a time on the connection, in the order published (pg's client no longer queues them itself).
      const sent = sending.then(async () => {
        if (!client) return; // Reconnecting: followers catch up from the database.
        await client.query('SELECT pg_notify($1, $2)', [CHANNEL, payload]);
      });
      sending = sent.catch(() => undefined);
      await sent;
    },
    subscribe: topics.subscribe,
    async close() {
      closed = true;
      clearTimeout(reconnecting);
      generation++;
      await client?.end().catch(() => undefined);
      client = undefined;
    },
  };
}
