/**
 * The lists that grow with a clinician's history, after 300 consultations (270 archived with their text, 29
 * finished and still kept, one active), each with 24 parts of transcript: GET /v1/consultation_sessions (what is
 * visible now), /recent (home) and /history (settings), against a bare Fastify hello-world in the same run (one
 * connection, so each figure is one request's time). Issue 18 measured the list at 2 ms for a new clinician and
 * 33–38 ms after 300 consultations on PGlite, to return an empty list. BENCH_DATABASE_URL for PostgreSQL.
 */
import { audioChunks, consultationSessions } from '../server/src/db/schema.js';
import { load, startApp, startHelloWorld } from './support.js';

const CONSULTATIONS = 300;
const PARTS = 24;

const hello = await startHelloWorld();
const server = await startApp();
const [fresh, busy] = await server.createUsers(2);
const db = server.database.db;
const now = Date.now();
for (let i = 0; i < CONSULTATIONS; i++) {
  const finishedAt = new Date(now - (CONSULTATIONS - i) * 3_600_000);
  const status = i === CONSULTATIONS - 1 ? 'active' : i >= CONSULTATIONS - 30 ? 'finished' : 'archived';
  const [row] = await db
    .insert(consultationSessions)
    .values({
      userId: busy!.id,
      consultationTypeId: 'general_consultation',
      status,
      recordingState: status === 'active' ? 'recording' : 'stopped',
      createdAt: new Date(finishedAt.getTime() - 900_000),
      finishedAt: status === 'active' ? null : finishedAt,
      expiresAt: status === 'active' ? null : status === 'finished' ? new Date(now + 3_600_000) : finishedAt,
      transcriptionOverride: status === 'archived' ? 'The patient reports a dry cough for three days. '.repeat(40) : null,
    })
    .returning({ id: consultationSessions.id });
  if (status !== 'archived') {
    await db.insert(audioChunks).values(
      Array.from({ length: PARTS }, (_, order) => ({
        sessionId: row!.id,
        order,
        blobKey: `bench/${row!.id}/${order}`,
        mimeType: 'audio/webm',
        sizeBytes: 48_000,
        durationMs: 5000,
        transcript: 'the patient reports a dry cough for three days with mild fever',
        transcriptionStatus: 'done',
      })),
    );
  }
}

const reference = await load(hello.url, {}, 1);
console.log(`\nLists after ${CONSULTATIONS} consultations (${server.database.kind}; one connection: one request's time)`);
console.log(`  hello-world                       ${(1000 / reference.rps).toFixed(2)} ms per request`);
for (const [path, label] of [
  ['/v1/consultation_sessions', 'visible consultations'],
  ['/v1/consultation_sessions/recent', 'recent (home)        '],
  ['/v1/consultation_sessions/history', 'history (settings)   '],
] as const) {
  const before = await load(`${server.base}${path}`, { authorization: `Bearer ${fresh!.token}` }, 1);
  const after = await load(`${server.base}${path}`, { authorization: `Bearer ${busy!.token}` }, 1);
  console.log(`  ${label}  new clinician ${(1000 / before.rps).toFixed(2)} ms   after ${CONSULTATIONS} ${(1000 / after.rps).toFixed(2)} ms`);
}
await server.close();
await hello.close();
