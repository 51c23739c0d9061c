/**
 * Words lost when a consultation is finished right after the last words: 20 scripted consultations of three parts
 * each, the first two stored and transcribed, then the finish, and the last part arriving 150–400 ms after it (the
 * recorder's last part is saved when recording stops and uploaded while the finish is sent). Each part's words
 * are known (the scripted engine names the part by its bytes); the count is the last part's words missing from
 * the main document. Reference, same run: the finish as older clients send it, without the part count.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Transcriber } from '../server/src/ai/transcriber.js';
import { makeWebm, multipartAudio } from '../server/src/test-support/audio-fixtures.js';
import { startApp } from './support.js';

const CONSULTATIONS = Number(process.env.BENCH_RUNS ?? 20);
const wordsOf = (bytes: Buffer) => {
  const h = createHash('sha256').update(bytes).digest('hex');
  return [`alpha${h.slice(0, 6)}`, `bravo${h.slice(6, 12)}`, `charlie${h.slice(12, 18)}`];
};
const scripted: Transcriber = {
  info: { engine: 'local', languages: ['en'] },
  async transcribe({ filePath }) {
    return wordsOf(readFileSync(filePath)).join(' ');
  },
};

const dir = mkdtempSync(path.join(tmpdir(), 'cn-words-'));
const parts = [makeWebm(dir, 'a', 1, 300), makeWebm(dir, 'b', 1, 500), makeWebm(dir, 'c', 1, 700)];

async function run(label: string, withCount: boolean) {
  const server = await startApp({ GENERATION_ENGINE: 'composer' }, { transcriber: scripted });
  const people = await server.createUsers(CONSULTATIONS, label.replace(/\W/g, ''));
  let lost = 0;
  let total = 0;
  for (const person of people) {
    const auth = { authorization: `Bearer ${person.token}` };
    const created = await fetch(`${server.base}/v1/consultation_sessions`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ consultation_type_id: 'general_consultation' }),
    });
    const id = ((await created.json()) as { consultation_session: { id: string } }).consultation_session.id;
    const upload = async (order: number) => {
      const m = multipartAudio(order, parts[order]!);
      const res = await fetch(`${server.base}/v1/consultation_sessions/${id}/audios`, { method: 'POST', headers: { ...auth, ...m.headers }, body: m.payload });
      if (!res.ok) throw new Error(`upload ${order}: ${res.status}`);
    };
    await upload(0);
    await upload(1);
    await server.ctx.transcriptionQueue.drain();
    await fetch(`${server.base}/v1/consultation_sessions/${id}/finish`, {
      method: 'PUT',
      headers: withCount ? { ...auth, 'content-type': 'application/json' } : auth,
      ...(withCount ? { body: JSON.stringify({ parts: 3 }) } : {}),
    });
    await new Promise((r) => setTimeout(r, 150 + Math.random() * 250));
    await upload(2);
    let text = '';
    for (;;) {
      const res = await fetch(`${server.base}/v1/consultation_sessions/${id}/generated_documents/main`, { headers: auth });
      const doc = res.ok ? ((await res.json()) as { generated_document: { status: string; text: string } }).generated_document : undefined;
      if (doc && doc.status !== 'generating') {
        text = doc.text;
        break;
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    const expected = parts.flatMap(wordsOf);
    total += expected.length;
    lost += expected.filter((w) => !text.includes(w)).length;
  }
  console.log(`  ${label.padEnd(44)} ${lost} of ${total} words lost (${CONSULTATIONS} consultations, ${server.database.kind})`);
  await server.close();
}

console.log('\nWords lost with the finish right after the last words (goal: 0)');
await run('finish naming its parts (this client)', true);
await run('finish without a count (older clients)', false);
rmSync(dir, { recursive: true, force: true });
