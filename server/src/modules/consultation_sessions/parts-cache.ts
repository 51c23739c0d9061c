/**
 * The consultation screen polls every 3 s, the wait for the transcript before a document every 500 ms, and each
 * read every part's transcript again: about 200 KB an hour into a consultation, to answer "nothing new" most of the
 * time. Here a consultation's parts are kept in memory with a fingerprint, the number of parts and the sum of their
 * revisions (drawn from one sequence when a part is stored and whenever what its transcript is made of changes:
 * migration 0033). A read asks the database for those two numbers only, no text, and reads the parts again only
 * when they moved. Nothing here can outlive a change: any insert, update or delete of a part moves the fingerprint,
 * in whichever process it happened (a row's revision only grows, so the sum cannot come back to a value it had).
 */
import { eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { audioChunks } from '../../db/schema.js';
import { listTranscribedParts } from './repository.js';
import { assembleTranscription } from './transcription.js';
import { PLAIN_TRANSCRIPT_WORK, transcriptPrefix, type TranscriptWork } from './view.js';

export type TranscribedPartRow = Awaited<ReturnType<typeof listTranscribedParts>>[number];

const MAX_ENTRIES = 200;
/** The transcripts held, all consultations together (characters; an hour-long consultation has about 55,000). */
const MAX_CHARACTERS = 4_000_000;
/**
 * Patients' words are not kept in memory much longer than a screen follows them: a consultation not read for this
 * long is let go, within a minute more. (The consultation screen stops polling once the transcript is done; the
 * retention window is far longer than this.)
 */
export const IDLE_MS = 5 * 60_000;

type Entry = {
  fingerprint: string;
  parts: TranscribedPartRow[];
  assembled: Map<string, ReturnType<typeof assembleTranscription>>;
  prefixes: Map<string, string>;
  usedAt: number;
  /** Its parts' transcripts, counted twice: the text assembled from them is kept too. */
  characters: number;
};

/** `now` is a monotonic clock (a wall clock set back would keep entries past their time). */
export function createPartsCache(maxEntries = MAX_ENTRIES, now: () => number = () => performance.now(), maxCharacters = MAX_CHARACTERS) {
  // In order of use, the least recently used first.
  const entries = new Map<string, Entry>();
  let characters = 0;
  const letGo = (id: string) => {
    const entry = entries.get(id);
    if (!entry) return;
    characters -= entry.characters;
    entries.delete(id);
  };
  const letGoOfIdle = () => {
    for (const [id, entry] of entries) {
      if (now() - entry.usedAt < IDLE_MS) break;
      letGo(id);
    }
  };
  setInterval(letGoOfIdle, 60_000).unref();
  return {
    /**
     * The consultation's parts in order. The fingerprint is read before the parts: a change between the two leaves
     * an entry whose fingerprint is older than its parts, read again next time, never the other way round.
     */
    async parts(db: Database, sessionId: string): Promise<TranscribedPartRow[]> {
      const [row] = await db
        .select({ count: sql<number>`count(*)::int`, revisions: sql<string>`coalesce(sum(coalesce(${audioChunks.revision}, 0)), 0)::text` })
        .from(audioChunks)
        .where(eq(audioChunks.sessionId, sessionId));
      const fingerprint = `${row!.count}:${row!.revisions}`;
      letGoOfIdle();
      const hit = entries.get(sessionId);
      if (hit?.fingerprint === fingerprint) {
        // Moved to the end: the most recently used.
        hit.usedAt = now();
        entries.delete(sessionId);
        entries.set(sessionId, hit);
        return hit.parts;
      }
      const parts = await listTranscribedParts(db, sessionId);
      letGo(sessionId);
      const size = 2 * parts.reduce((sum, p) => sum + (p.transcript?.length ?? 0), 0);
      // Larger than all the room there is: answered, not kept.
      if (size > maxCharacters) return parts;
      while (entries.size > 0 && (entries.size >= maxEntries || characters + size > maxCharacters)) letGo(entries.keys().next().value as string);
      entries.set(sessionId, { fingerprint, parts, assembled: new Map(), prefixes: new Map(), usedAt: now(), characters: size });
      characters += size;
      return parts;
    },
    /**
     * Assembling and naming the transcript, remembered with the parts they were given: an unchanged consultation
     * polled again is neither joined nor hashed again. Parts other than the cached ones get the plain functions.
     */
    work(sessionId: string, parts: TranscribedPartRow[]): TranscriptWork {
      const entry = entries.get(sessionId);
      if (!entry || entry.parts !== parts) return PLAIN_TRANSCRIPT_WORK;
      return {
        assemble: (given, expectation) => {
          const key = `${expectation.expectedParts}:${expectation.waitOver}:${expectation.language ?? ''}`;
          const known = given === parts ? entry.assembled.get(key) : undefined;
          if (known) return known;
          const assembled = assembleTranscription(given, expectation);
          if (given === parts) entry.assembled.set(key, assembled);
          return assembled;
        },
        prefix: (text) => {
          const known = entry.prefixes.get(text);
          if (known !== undefined) return known;
          const prefix = transcriptPrefix(text);
          // The transcript as assembled (one or two expectations) and perhaps the clinician's edit: a few texts at most.
          if (entry.prefixes.size >= 4) entry.prefixes.clear();
          entry.prefixes.set(text, prefix);
          return prefix;
        },
      };
    },
  };
}

export type PartsCache = ReturnType<typeof createPartsCache>;
