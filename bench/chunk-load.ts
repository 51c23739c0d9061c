/**
 * Load generator for chunk-ingest.ts, run as its own process: every session sends one recorded part every
 * 5 s (each session starting at a random moment of the first 5 s), for ROUNDS rounds. Prints JSON figures.
 * Input (argv[2]): a JSON file { base, part: base64, sessions: [{ id, token }], rounds }.
 */
import { readFileSync } from 'node:fs';

type Input = { base: string; part: string; sessions: { id: string; token: string }[]; rounds: number };
const input = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as Input;
const part = Buffer.from(input.part, 'base64');
const latencies: number[] = [];
// After the first round: every recorder connected once, the server warmed up.
const steady: number[] = [];
let failures = 0;
const started = performance.now();

async function session(s: { id: string; token: string }) {
  await new Promise((r) => setTimeout(r, Math.random() * 5000));
  for (let order = 0; order < input.rounds; order++) {
    const due = performance.now() + 5000;
    const form = new FormData();
    form.append('order', String(order));
    form.append('audio_file', new Blob([part], { type: 'audio/webm' }), 'part.webm');
    const t0 = performance.now();
    try {
      const res = await fetch(`${input.base}/v1/consultation_sessions/${s.id}/audios`, {
        method: 'POST',
        body: form,
        headers: { authorization: `Bearer ${s.token}` },
      });
      await res.arrayBuffer();
      if (res.status !== 201 && res.status !== 200) failures++;
    } catch {
      failures++;
    }
    latencies.push(performance.now() - t0);
    if (order > 0) steady.push(performance.now() - t0);
    await new Promise((r) => setTimeout(r, Math.max(0, due - performance.now())));
  }
}

await Promise.all(input.sessions.map(session));
const seconds = (performance.now() - started) / 1000;
latencies.sort((a, b) => a - b);
steady.sort((a, b) => a - b);
const pct = (list: number[], p: number) => list[Math.min(list.length - 1, Math.floor((p / 100) * list.length))] ?? NaN;
console.log(
  JSON.stringify({
    parts: latencies.length,
    failures,
    seconds,
    perSecond: latencies.length / seconds,
    p50: pct(latencies, 50),
    p99: pct(latencies, 99),
    steadyP99: pct(steady, 99),
  }),
);
