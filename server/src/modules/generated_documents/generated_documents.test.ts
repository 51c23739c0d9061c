import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { makeWebm } from '../../test-support/audio-fixtures.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createUser, login } from '../../test-support/factories.js';
import { createTestApp, type TestApp } from '../../test-support/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({}, { transcriber: { info: { engine: 'local', languages: ['en'] }, transcribe: async () => 'add rest for a week to the plan' } });
});
afterAll(() => t.close());

async function finishedSession(inputs: { processor_input_id: string; value: string }[] = []) {
  const u = await createUser(t, { name: 'Dra. Rita Gomes' });
  const headers = bearer(await login(t, u.email, u.password));
  const id = (
    await t.app.inject({ method: 'POST', url: '/v1/consultation_sessions', headers, payload: { consultation_type_id: 'general_consultation' } })
  ).json().consultation_session.id;
  await t.app.inject({ method: 'PUT', url: `/v1/consultation_sessions/${id}/transcription`, headers, payload: { transcription: 'Chest pain for two days.' } });
  if (inputs.length) await t.app.inject({ method: 'PUT', url: `/v1/consultation_sessions/${id}`, headers, payload: { user_inputs: inputs } });
  await t.app.inject({ method: 'PUT', url: `/v1/consultation_sessions/${id}/finish`, headers });
  return { headers, id };
}

const getDoc = (headers: Record<string, string>, id: string, doc: string, version?: number) =>
  t.app.inject({ method: 'GET', url: `/v1/consultation_sessions/${id}/generated_documents/${doc}${version ? `?version=${version}` : ''}`, headers });

async function waitDone(headers: Record<string, string>, id: string, doc: string) {
  for (let i = 0; i < 100; i++) {
    const d = (await getDoc(headers, id, doc)).json().generated_document;
    if (d && d.status !== 'generating') return d;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('document not generated');
}

function multipart(fields: Record<string, string>) {
  const boundary = '----cn-test';
  const body = Object.entries(fields)
    .map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
    .join('');
  return { payload: `${body}--${boundary}--\r\n`, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describe('generated documents', () => {
  it('finishing a consultation writes the main document with the offline composer', async () => {
    const { headers, id } = await finishedSession([{ processor_input_id: 'bloodpressure', value: '140/90' }]);
    const doc = await waitDone(headers, id, 'main');
    expect(doc).toMatchObject({ key: 'consultation_notes', version: 1, total_versions: 1, status: 'done', engine: 'composer', uses_ai: false });
    expect(doc.text).toContain('Assembled without AI');
    // The consultation's own sentence, its number written in digits as a note would.
    expect(doc.text).toContain('Chest pain for 2 days.');
    expect(doc.text).toContain('Blood pressure: 140/90');
    expect(doc.text).toContain('Dra. Rita Gomes');
    // Every sentence is linked to what was said or entered, with the transcript's own words.
    const linked = doc.evidence.sentences as { text: string; source: string; spans: { quote: string }[] }[];
    expect(linked.length).toBeGreaterThan(0);
    expect(linked.filter((s) => s.source === 'none')).toEqual([]);
    expect(linked.find((s) => s.text.startsWith('Chest pain'))?.spans[0]?.quote).toContain('Chest pain for two days.');
    expect(doc.evidence.flagged).toEqual([]);
  });

  it('a patient summary is written in the patient’s language named in the consultation data, and its FHIR file says so', async () => {
    const { headers, id } = await finishedSession([{ processor_input_id: 'patient_language', value: 'es' }]);
    await waitDone(headers, id, 'main');
    expect((await t.app.inject({ method: 'POST', url: `/v1/consultation_sessions/${id}/generated_documents/patient_summary`, headers })).statusCode).toBe(202);
    const summary = await waitDone(headers, id, 'patient_summary');
    expect(summary.text).toContain('# Resumen de su consulta');
    // The clinician works in English: the consultation's sentences stay as said, and the patient is told in which language.
    expect(summary.text).toContain('(inglés)');
    expect(summary.text).toContain('Chest pain for 2 days.');
    // The main document keeps the clinician's language.
    expect((await waitDone(headers, id, 'main')).text).toContain('# Consultation notes');
    const bundle = (await t.app.inject({ method: 'GET', url: `/v1/consultation_sessions/${id}/fhir?document=patient_summary`, headers })).json();
    const reference = bundle.entry.find((e: { resource: { resourceType: string } }) => e.resource.resourceType === 'DocumentReference').resource;
    expect(reference.type.coding[0].code).toBe('60591-5');
    expect(reference.content.map((c: { attachment: { language: string } }) => c.attachment.language)).toEqual(['es', 'es']);
    expect(reference.description).toBe('Resumen para el paciente');
  });

  it('each change is a new version; earlier versions stay readable', async () => {
    const { headers, id } = await finishedSession();
    await waitDone(headers, id, 'main');
    // Without a model a request it cannot apply is refused, and nothing is written or made a version.
    const vague = multipart({ requested_changes: JSON.stringify({ text: 'Mention that the pain radiates to the left arm.' }) });
    const refused = await t.app.inject({
      method: 'POST',
      url: `/v1/consultation_sessions/${id}/generated_documents/main/regenerate`,
      headers: { ...headers, ...vague.headers },
      payload: vague.payload,
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error.code).toBe('change_not_applied');
    expect((await getDoc(headers, id, 'main')).json().generated_document).toMatchObject({ version: 1, total_versions: 1 });
    const byText = multipart({ requested_changes: JSON.stringify({ text: 'Add the pain radiates to the left arm to the plan.' }) });
    const v2 = await t.app.inject({
      method: 'POST',
      url: `/v1/consultation_sessions/${id}/generated_documents/main/regenerate`,
      headers: { ...headers, ...byText.headers },
      payload: byText.payload,
    });
    expect(v2.statusCode).toBe(202);
    const second = await waitDone(headers, id, 'main');
    expect(second).toMatchObject({ version: 2, total_versions: 2, change_kind: 'text' });
    expect(second.text).toContain('- The pain radiates to the left arm');
    expect(second.text).not.toContain('Changes requested');

    const byMarkdown = multipart({ requested_changes: JSON.stringify({ markdown: '# Notes\n\nRewritten by hand.' }) });
    const v3 = await t.app.inject({
      method: 'POST',
      url: `/v1/consultation_sessions/${id}/generated_documents/main/regenerate`,
      headers: { ...headers, ...byMarkdown.headers },
      payload: byMarkdown.payload,
    });
    expect(v3.json().generated_document).toMatchObject({
      version: 3,
      total_versions: 3,
      status: 'done',
      text: '# Notes\n\nRewritten by hand.',
      engine: 'manual',
    });
    // A hand-written sentence nothing supports is marked as such.
    expect(v3.json().generated_document.evidence.sentences).toEqual([{ text: 'Rewritten by hand.', spans: [], source: 'none' }]);
    const first = (await getDoc(headers, id, 'main', 1)).json().generated_document;
    expect(first).toMatchObject({ version: 1, total_versions: 3 });
    expect(first.text).toContain('Assembled without AI');
  });

  it('a document written after the notes were corrected takes the corrected notes as its source', async () => {
    const { headers, id } = await finishedSession([{ processor_input_id: 'medication', value: 'ibuprofen 400 mg' }]);
    await waitDone(headers, id, 'main');
    const corrected = multipart({
      requested_changes: JSON.stringify({
        markdown: '# Notes\n\n## Subjective\n- Chest pain for three days, on exertion.\n\n## Plan\n- Medication: aspirin 75 mg daily\n',
      }),
    });
    await t.app.inject({
      method: 'POST',
      url: `/v1/consultation_sessions/${id}/generated_documents/main/regenerate`,
      headers: { ...headers, ...corrected.headers },
      payload: corrected.payload,
    });
    await t.app.inject({ method: 'POST', url: `/v1/consultation_sessions/${id}/generated_documents/referral_letter`, headers });
    const letter = await waitDone(headers, id, 'referral_letter');
    expect(letter.text).toContain('Chest pain for three days, on exertion.');
    expect(letter.text).toContain('aspirin 75 mg daily');
    expect(letter.text).not.toMatch(/ibuprofen|2 days/);
  });

  it('generates a selectable document on request, and refuses documents the type does not have', async () => {
    const { headers, id } = await finishedSession();
    const res = await t.app.inject({ method: 'POST', url: `/v1/consultation_sessions/${id}/generated_documents/referral_letter`, headers });
    expect(res.statusCode).toBe(202);
    expect((await waitDone(headers, id, 'referral_letter')).text).toContain('Referral letter');
    expect((await t.app.inject({ method: 'POST', url: `/v1/consultation_sessions/${id}/generated_documents/dictation`, headers })).statusCode).toBe(404);
    expect((await getDoc(headers, id, 'clinical_summary')).statusCode).toBe(404);
  });

  it('streams the text with Server-Sent Events', async () => {
    const { headers, id } = await finishedSession();
    await waitDone(headers, id, 'main');
    const res = await t.app.inject({ method: 'GET', url: `/v1/consultation_sessions/${id}/generated_documents/main/stream`, headers });
    expect(res.headers['content-type']).toContain('text/event-stream');
    expect(res.body).toMatch(/^event: delta\ndata: \{"text":"# Consultation notes/);
    expect(res.body).toContain('event: done');
  });

  it('bad change requests are 4xx and another user sees nothing', async () => {
    const { headers, id } = await finishedSession();
    await waitDone(headers, id, 'main');
    const empty = multipart({ requested_changes: JSON.stringify({ text: '   ' }) });
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: `/v1/consultation_sessions/${id}/generated_documents/main/regenerate`,
          headers: { ...headers, ...empty.headers },
          payload: empty.payload,
        })
      ).statusCode,
    ).toBe(400);
    expect(
      (await t.app.inject({ method: 'POST', url: `/v1/consultation_sessions/${id}/generated_documents/main/regenerate`, headers, payload: { text: 'x' } }))
        .statusCode,
    ).toBe(415);
    const stranger = await createUser(t);
    const other = bearer(await login(t, stranger.email, stranger.password));
    expect((await getDoc(other, id, 'main')).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'POST', url: `/v1/consultation_sessions/${id}/generated_documents/main`, headers: other })).statusCode).toBe(404);
  });
});

describe('voice change requests and audio to text', () => {
  function audioMultipart(field: string, data: Buffer, extra: Record<string, string> = {}) {
    const boundary = '----cn-audio';
    const head = Object.entries(extra)
      .map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
      .join('');
    const payload = Buffer.concat([
      Buffer.from(`${head}--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="a.webm"\r\nContent-Type: audio/webm\r\n\r\n`),
      data,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
  }

  it('a spoken change is transcribed and becomes the next version; over 1:30 it is refused', async () => {
    const { headers, id } = await finishedSession();
    await waitDone(headers, id, 'main');
    const dir = mkdtempSync(path.join(tmpdir(), 'cn-voice-'));
    try {
      const short = audioMultipart('audio', makeWebm(dir, 'short', 2));
      const res = await t.app.inject({
        method: 'POST',
        url: `/v1/consultation_sessions/${id}/generated_documents/main/regenerate`,
        headers: { ...headers, ...short.headers },
        payload: short.payload,
      });
      expect(res.statusCode).toBe(202);
      const v2 = await waitDone(headers, id, 'main');
      expect(v2).toMatchObject({ version: 2, change_kind: 'text', change_text: 'add rest for a week to the plan' });
      expect(v2.text).toContain('- Rest for a week');
      const long = audioMultipart('audio', makeWebm(dir, 'long', 95));
      const refused = await t.app.inject({
        method: 'POST',
        url: `/v1/consultation_sessions/${id}/generated_documents/main/regenerate`,
        headers: { ...headers, ...long.headers },
        payload: long.payload,
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error.fields).toEqual({ audio: 'too_long' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('POST /audio-to-text transcribes, with the default model named', async () => {
    const u = await createUser(t);
    const headers = bearer(await login(t, u.email, u.password));
    const dir = mkdtempSync(path.join(tmpdir(), 'cn-a2t-'));
    try {
      const body = audioMultipart('audio', makeWebm(dir, 'a', 1), { clean: 'true', prompt: 'metformin' });
      const res = await t.app.inject({ method: 'POST', url: '/audio-to-text', headers: { ...headers, ...body.headers }, payload: body.payload });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ text: 'add rest for a week to the plan', model: 'whisper-1' });
      const notAudio = audioMultipart('audio', Buffer.from('definitely not audio data'));
      expect(
        (await t.app.inject({ method: 'POST', url: '/audio-to-text-upload', headers: { ...headers, ...notAudio.headers }, payload: notAudio.payload }))
          .statusCode,
      ).toBe(415);
      expect((await t.app.inject({ method: 'POST', url: '/audio-to-text', payload: body.payload, headers: body.headers })).statusCode).toBe(401);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('document feedback', () => {
  it('rates a version, replaces the rating on resend, and lists it', async () => {
    const { headers, id } = await finishedSession();
    await waitDone(headers, id, 'main');
    const url = `/v1/consultation_sessions/${id}/generated_documents/main/feedback`;
    expect((await t.app.inject({ method: 'POST', url, headers, payload: { rating: 4, comment: 'Good, missing the plan.' } })).statusCode).toBe(201);
    expect((await t.app.inject({ method: 'POST', url, headers, payload: { rating: 5 } })).statusCode).toBe(201);
    expect((await t.app.inject({ method: 'GET', url, headers })).json()).toEqual({ feedback: [{ version: 1, rating: 5, comment: null }] });
    expect((await t.app.inject({ method: 'POST', url, headers, payload: { rating: 9 } })).statusCode).toBe(400);
    const stranger = await createUser(t);
    expect((await t.app.inject({ method: 'GET', url, headers: bearer(await login(t, stranger.email, stranger.password)) })).statusCode).toBe(404);
  });
});
