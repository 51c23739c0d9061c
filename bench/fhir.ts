/**
 * The patient record over FHIR: consultations with their documents written by the offline composer, exported as
 * document Bundles (every resource validated against the FHIR R4 definitions) and sent to a local FHIR test server
 * that validates every resource it receives. Prints the resources validated and their errors, the export time,
 * and the push round trip (documents to the record system and back), against a plain GET of the same consultation
 * in the same run as the reference.
 */
import type { Bundle, Resource } from '@medplum/fhirtypes';
import { eq } from 'drizzle-orm';
import { organizations, users } from '../server/src/db/schema.js';
import { fhirErrors, startFhirTestServer } from '../server/src/test-support/fhir-test-server.js';
import { startApp } from './support.js';

const CONSULTATIONS = Number(process.env.BENCH_CONSULTATIONS ?? 20);
const fhir = await startFhirTestServer();
const bench = await startApp({ FHIR_ALLOW_PRIVATE_NETWORKS: 'true' });
const [org] = await bench.database.db.insert(organizations).values({ name: 'Bench clinic' }).returning();
const [admin, clinician] = await bench.createUsers(2, 'fhir');
await bench.database.db.update(users).set({ organizationId: org!.id, organizationRole: 'admin' }).where(eq(users.id, admin!.id));
await bench.database.db.update(users).set({ organizationId: org!.id, organizationRole: 'member' }).where(eq(users.id, clinician!.id));
fhir.acceptToken('bench-token');
const call = async (method: string, url: string, token: string, body?: unknown) => {
  const res = await fetch(`${bench.base}${url}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: (await res.json().catch(() => undefined)) as Record<string, unknown> | undefined };
};
const settings = await call('PUT', `/v1/organizations/${org!.id}/fhir_endpoint`, admin!.token, { base_url: fhir.base, auth: 'bearer', token: 'bench-token' });
if (settings.status !== 200) throw new Error(`record system not set: ${settings.status}`);

const ids: string[] = [];
for (let i = 0; i < CONSULTATIONS; i++) {
  const created = await call('POST', '/v1/consultation_sessions', clinician!.token, { consultation_type_id: 'general_consultation' });
  const id = (created.body!.consultation_session as { id: string }).id;
  await call('PUT', `/v1/consultation_sessions/${id}/transcription`, clinician!.token, {
    transcription: 'Cough for three days, no fever. Paracetamol 1 g when needed. Come back in a week if not better.',
  });
  await call('PUT', `/v1/consultation_sessions/${id}/finish`, clinician!.token);
  for (const doc of ['referral_letter', 'patient_summary']) await call('POST', `/v1/consultation_sessions/${id}/generated_documents/${doc}`, clinician!.token);
  ids.push(id);
}
// Every document written (the composer is quick; the finish writes the notes).
for (const id of ids) {
  for (;;) {
    const docs = await Promise.all(
      ['main', 'referral_letter', 'patient_summary'].map((d) => call('GET', `/v1/consultation_sessions/${id}/generated_documents/${d}`, clinician!.token)),
    );
    if (docs.every((d) => (d.body?.generated_document as { status?: string } | undefined)?.status === 'done')) break;
    await new Promise((r) => setTimeout(r, 50));
  }
}

const timed = async <T>(fn: () => Promise<T>) => {
  const t0 = performance.now();
  const value = await fn();
  return { ms: performance.now() - t0, value };
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))]!;

let resources = 0;
let errors = 0;
const exportMs: number[] = [];
const readMs: number[] = [];
const pushMs: number[] = [];
for (const id of ids) {
  readMs.push((await timed(() => call('GET', `/v1/consultation_sessions/${id}`, clinician!.token))).ms);
  const exported = await timed(() => call('GET', `/v1/consultation_sessions/${id}/fhir`, clinician!.token));
  exportMs.push(exported.ms);
  const bundle = exported.value.body as unknown as Bundle;
  for (const resource of [bundle, ...(bundle.entry ?? []).map((e) => e.resource as Resource)]) {
    resources++;
    errors += fhirErrors(resource).length;
  }
  const pushed = await timed(() => call('POST', `/v1/consultation_sessions/${id}/fhir_push`, clinician!.token));
  if (pushed.value.status !== 200) throw new Error(`push answered ${pushed.value.status}`);
  pushMs.push(pushed.ms);
}
const received = [...fhir.stored.values()].flat();
const receivedErrors = received.reduce((n, r) => n + fhirErrors(r).length, 0);

console.log(`\nFHIR R4: ${CONSULTATIONS} consultations, 3 documents each (offline composer), PGlite, local FHIR test server`);
console.log(`  exported and validated: ${resources} resources (Bundles and their entries), ${errors} errors`);
console.log(
  `  received by the record system: ${received.length} resources (${fhir.stored.get('DocumentReference')?.length ?? 0} DocumentReferences, ${fhir.stored.get('Bundle')?.length ?? 0} Bundles), ${receivedErrors} errors`,
);
console.log(`  GET the consultation (reference)  median ${median(readMs).toFixed(1)} ms   p95 ${p95(readMs).toFixed(1)} ms`);
console.log(
  `  export (Bundle with 3 PDFs)       median ${median(exportMs).toFixed(1)} ms   p95 ${p95(exportMs).toFixed(1)} ms   (${(median(exportMs) / median(readMs)).toFixed(1)}× the reference)`,
);
console.log(
  `  send to record (round trip)       median ${median(pushMs).toFixed(1)} ms   p95 ${p95(pushMs).toFixed(1)} ms   (${(median(pushMs) / median(readMs)).toFixed(1)}× the reference)`,
);

await bench.close();
await fhir.close();
