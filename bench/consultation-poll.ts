/**
 * The consultation screen's poll across a 60-minute consultation: a part every 5 s (720 parts, each with the
 * words of 5 s of speech, about 75 characters, transcribed at once), the screen asking every 3 s (1,200 polls).
 * Bytes sent and server CPU for the whole consultation, and the time of one poll at its end: the whole session
 * (GET …/:id, what the screen polled before) against the poll that brings only what changed (GET …/:id/progress),
 * with the consultation's parts kept between polls (parts-cache.ts) and, in the same run, read again every poll.
 * Goal (issue 18): under 5 MB of polling for a 60-minute consultation. BENCH_DATABASE_URL for PostgreSQL.
 */
import { audioChunks } from '../server/src/db/schema.js';
import { listTranscribedParts } from '../server/src/modules/consultation_sessions/repository.js';
import { PLAIN_TRANSCRIPT_WORK, transcriptPrefix } from '../server/src/modules/consultation_sessions/view.js';
import { startApp } from './support.js';

const MINUTES = Number(process.env.BENCH_MINUTES ?? 60);
const PART_S = 5;
const POLL_S = 3;
const words = 'the patient reports a dry cough for three days with mild fever and no shortness of breath lungs clear on auscultation'.split(' ');
const speech = (order: number) => Array.from({ length: 13 }, (_, i) => words[(order * 13 + i) % words.length]).join(' ') + '.';

const server = await startApp();
const [a, b, c] = await server.createUsers(3);

async function consultation(token: string, poll: (id: string, headers: Record<string, string>, held: { text: string }) => Promise<number>) {
  const headers = { authorization: `Bearer ${token}` };
  const id = (await server.app.inject({ method: 'POST', url: '/v1/consultation_sessions', headers, payload: { consultation_type_id: 'dictation' } })).json()
    .consultation_session.id as string;
  const held = { text: '' };
  let bytes = 0;
  let cpuUs = 0;
  let parts = 0;
  for (let second = 0; second <= MINUTES * 60; second++) {
    if (second > 0 && second % PART_S === 0) {
      await server.database.db.insert(audioChunks).values({
        sessionId: id,
        order: parts,
        blobKey: `bench/${id}/${parts}`,
        mimeType: 'audio/webm',
        sizeBytes: 48_000,
        durationMs: PART_S * 1000,
        transcript: speech(parts),
        transcriptionStatus: 'done',
      });
      parts++;
    }
    if (second % POLL_S === 0) {
      const cpu = process.cpuUsage();
      bytes += await poll(id, headers, held);
      const used = process.cpuUsage(cpu);
      cpuUs += used.user + used.system;
    }
  }
  const started = performance.now();
  for (let i = 0; i < 20; i++) await poll(id, headers, held);
  return { bytes, cpuMs: cpuUs / 1000, lastPollMs: (performance.now() - started) / 20, transcriptChars: held.text.length };
}

const whole = await consultation(a!.token, async (id, headers, held) => {
  const res = await server.app.inject({ method: 'GET', url: `/v1/consultation_sessions/${id}`, headers });
  held.text = res.json().consultation_session.transcription;
  return res.rawPayload.length;
});
const progressPoll = async (id: string, headers: Record<string, string>, held: { text: string }) => {
  const query = `?transcription_from=${held.text.length}&transcription_prefix=${transcriptPrefix(held.text)}`;
  const res = await server.app.inject({ method: 'GET', url: `/v1/consultation_sessions/${id}/progress${query}`, headers });
  const p = res.json().consultation_progress as { transcription: { from: number; text: string } };
  held.text = held.text.slice(0, p.transcription.from) + p.transcription.text;
  return res.rawPayload.length;
};
const delta = await consultation(b!.token, progressPoll);
// The same poll with every part read, joined and hashed again each time (what it did before parts-cache.ts).
const cache = server.ctx.partsCache;
server.ctx.partsCache = { parts: (db, id) => listTranscribedParts(db, id), work: () => PLAIN_TRANSCRIPT_WORK };
const uncached = await consultation(c!.token, progressPoll);
server.ctx.partsCache = cache;
if (whole.transcriptChars !== delta.transcriptChars) throw new Error(`transcripts differ: ${whole.transcriptChars} vs ${delta.transcriptChars}`);

const mb = (n: number) => (n / 1024 / 1024).toFixed(2);
console.log(
  `\nThe consultation screen's poll, ${MINUTES}-minute consultation (${(MINUTES * 60) / PART_S} parts, ${(MINUTES * 60) / POLL_S + 1} polls, ${server.database.kind}; transcript ${whole.transcriptChars} characters)`,
);
console.log(
  `  whole session (GET …/:id)        ${mb(whole.bytes)} MB   server CPU ${(whole.cpuMs / 1000).toFixed(1)} s   one poll at the end ${whole.lastPollMs.toFixed(1)} ms`,
);
console.log(
  `  what changed (GET …/:id/progress) ${mb(delta.bytes)} MB   server CPU ${(delta.cpuMs / 1000).toFixed(1)} s   one poll at the end ${delta.lastPollMs.toFixed(1)} ms`,
);
console.log(
  `  the same, parts read every poll   ${mb(uncached.bytes)} MB   server CPU ${(uncached.cpuMs / 1000).toFixed(1)} s   one poll at the end ${uncached.lastPollMs.toFixed(1)} ms`,
);
console.log(`  ratio (bytes)                    ${(delta.bytes / whole.bytes).toFixed(3)} (goal: under 5 MB in all)`);
await server.close();
