/**
 * Time from PUT …/finish to the main document stored: the product's own overhead around the engine, with the
 * offline composer and with an OpenAI-compatible test server that answers at once. Target: under 300 ms median.
 */
import { startFakeOpenAi } from '../server/src/test-support/fake-openai.js';
import { grantCredits } from '../server/src/modules/credits/service.js';
import { startApp } from './support.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

async function measure(label: string, env: Record<string, string>) {
  const server = await startApp(env);
  const people = await server.createUsers(RUNS, label.replace(/\W/g, ''));
  for (const p of people) await grantCredits(server.database.db, { ownerUserId: p.id }, 10);
  const times: number[] = [];
  for (const person of people) {
    const headers = { authorization: `Bearer ${person.token}`, 'content-type': 'application/json' };
    const created = await fetch(`${server.base}/v1/consultation_sessions`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ consultation_type_id: 'general_consultation' }),
    });
    const id = ((await created.json()) as { consultation_session: { id: string } }).consultation_session.id;
    await fetch(`${server.base}/v1/consultation_sessions/${id}/transcription`, {
      method: 'PUT',
      headers,
      body: JSON.stringify({ transcription: 'The patient has had a cough and a fever for a week. No allergies.' }),
    });
    const t0 = performance.now();
    await fetch(`${server.base}/v1/consultation_sessions/${id}/finish`, { method: 'PUT', headers: { authorization: headers.authorization } });
    for (;;) {
      const res = await fetch(`${server.base}/v1/consultation_sessions/${id}/generated_documents/main`, { headers: { authorization: headers.authorization } });
      if (res.ok && ((await res.json()) as { generated_document: { status: string } }).generated_document.status !== 'generating') break;
      await new Promise((r) => setTimeout(r, 2));
    }
    times.push(performance.now() - t0);
  }
  console.log(
    `  ${label.padEnd(36)} median ${percentile(times, 50).toFixed(1)} ms   p95 ${percentile(times, 95).toFixed(1)} ms   (${RUNS} consultations, ${server.database.kind})`,
  );
  await server.close();
}

console.log('\nFrom finish to the main document stored (target: median under 300 ms)');
await measure('offline composer', { GENERATION_ENGINE: 'composer' });
const fake = await startFakeOpenAi(
  Array.from({ length: RUNS }, () => ({ text: '# Consultation notes\n\n## Subjective\nCough and fever for a week.', chunks: 5 })),
);
await measure('OpenAI-compatible (instant test server)', { GENERATION_ENGINE: 'openai', OPENAI_API_KEY: 'bench', OPENAI_BASE_URL: fake.baseUrl });
await fake.close();
