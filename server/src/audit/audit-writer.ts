/**
 * The server's one writer of audit events. Requests hand their event over once their answer is complete (or their
 * client has gone) and never wait for it; the writer appends whatever has gathered in one transaction (one advisory
 * lock, one insert, sealed with the audit key), so a burst of polling reads costs one write, not one per request. Events wait in memory only while a write is
 * under way (milliseconds): a crash loses at most those. If the database refuses, the batch is retried a few
 * times, then dropped with an error in the log (which names how many, never what).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/client.js';
import type { AuditKeys } from './audit-key.js';
import { appendAuditEvents } from './audit-store.js';
import type { AuditEventFields } from './hash-chain.js';

const MAX_BATCH = 500;
const MAX_ATTEMPTS = 5;
/** Beyond this many waiting events (the database has been away for a while) new ones are dropped and counted. */
const MAX_WAITING = 50_000;

export type AuditWriter = {
  /** The keys the chain is sealed and checked with. */
  keys: AuditKeys;
  record: (event: AuditEventFields) => void;
  /** Resolves once every event recorded so far is written (or given up on). Tests and shutdown await it. */
  flush: () => Promise<void>;
  close: () => Promise<void>;
};

export function createAuditWriter(db: Database, keys: AuditKeys, log: FastifyBaseLogger): AuditWriter {
  const waiting: AuditEventFields[] = [];
  let draining: Promise<void> | undefined;
  let closed = false;
  let dropped = 0;

  async function drain() {
    let attempts = 0;
    while (waiting.length) {
      const batch = waiting.slice(0, MAX_BATCH);
      try {
        await appendAuditEvents(db, keys, batch);
        waiting.splice(0, batch.length);
        attempts = 0;
      } catch (err) {
        attempts++;
        if (attempts >= MAX_ATTEMPTS || closed) {
          waiting.splice(0, batch.length);
          log.error({ err: errorCode(err), events: batch.length }, 'audit events could not be written and were dropped');
          attempts = 0;
        } else {
          log.warn({ err: errorCode(err), attempt: attempts }, 'audit events not written yet; retrying');
          await new Promise((r) => setTimeout(r, 200 * 2 ** attempts));
        }
      }
    }
  }

  function start() {
    draining ??= drain().finally(() => {
      draining = undefined;
      // Recorded while the last write finished: start again.
      if (waiting.length) start();
    });
  }

  async function flush() {
    while (draining || waiting.length) {
      if (!draining) start();
      await draining;
    }
  }

  return {
    keys,
    record(event) {
      if (waiting.length >= MAX_WAITING) {
        if (dropped++ % 1000 === 0) log.error({ dropped }, 'audit events dropped: too many waiting to be written');
        return;
      }
      waiting.push(event);
      start();
    },
    flush,
    async close() {
      closed = true;
      await flush();
    },
  };
}

/** Database errors carry their statement's parameters; only the code goes to the log. */
function errorCode(err: unknown): string {
  const { code, cause } = (err ?? {}) as { code?: unknown; cause?: { code?: unknown } };
  if (typeof code === 'string') return code;
  if (typeof cause?.code === 'string') return cause.code;
  return err instanceof Error ? err.name : 'unknown';
}
