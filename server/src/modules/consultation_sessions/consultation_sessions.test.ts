import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Transcriber } from '../../ai/transcriber.js';
import { audioChunks, consultationSessions, generatedDocuments } from '../../db/schema.js';
import { makeWebm, multipartAudio } from '../../test-support/audio-fixtures.js';
import { bearer, createUser, login } from '../../test-support/factories.js';
import { createTestApp, type TestApp } from '../../test-support/test-app.js';

/** Answers "part N" for each file, and fails on the parts (blob keys) listed here, to exercise retries. */
const failing = new Map<string, number>();
const scripted: Transcriber = {
  info: { engine: 'local', languages: ['en'] },
  async transcribe({ filePath }) {
    const name = path.basename(filePath).replace(/\..*$/, '');
    // The engine gets a decrypted copy whose path ends with the part's blob key.
    const blobKey = [...failing.keys()].find((k) => filePath.endsWith(`/${k}`));
    const left = blobKey ? failing.get(blobKey)! : 0;
    if (blobKey && left > 0) {
      failing.set(blobKey, left - 1);
      throw new Error('engine hiccup');
    }
    return `words of part ${Number(name)}`;
  },
};

let t: TestApp;
let dir: string;
let tone: Buffer;
beforeAll(async () => {
  t = await createTestApp({ RETENTION_MINUTES: '60', MAX_AUDIO_CHUNK_MB: '0.2', LOGIN_RATE_LIMIT_PER_MINUTE: '100' }, { transcriber: scripted });
  dir = mkdtempSync(path.join(tmpdir(), 'cn-audio-'));
  tone = makeWebm(dir, 'tone', 1);
});
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

async function signedIn() {
  const u = await createUser(t);
  return { user: u, headers: bearer(await login(t, u.email, u.password)) };
}
const start = (headers: Record<string, string>, body: Record<string, unknown> = { consultation_type_id: 'general_consultation' }) =>
  t.app.inject({ method: 'POST', url: '/v1/consultation_sessions', headers, payload: body });
const upload = (headers: Record<string, string>, id: string, order: number | string, data = tone, mime?: string) => {
  const m = multipartAudio(order, data, mime);
  return t.app.inject({ method: 'POST', url: `/v1/consultation_sessions/${id}/audios`, headers: { ...headers, ...m.headers }, payload: m.payload });
};
const get = (headers: Record<string, string>, url: string) => t.app.inject({ method: 'GET', url, headers });

describe('consultation types', () => {
  it('lists the catalogue in the request language, with inputs and selectable documents', async () => {
    const { headers } = await signedIn();
    const res = await get({ ...headers, 'accept-language': 'pt' }, '/v1/consultation_types');
    const types = res.json().consultation_types;
    expect([...new Set(types.map((t: { kind: string }) => t.kind))].sort()).toEqual(['dictaphone', 'note_taker', 'report']);
    expect(types.find((t: { id: string }) => t.id === 'pt_family_medicine')).toMatchObject({ catalogue: 'pt', section: 'public' });
    const general = types.find((t: { id: string }) => t.id === 'general_consultation');
    expect(general.name).toBe('Consulta geral');
    expect(general.main_document.name).toBe('Notas da consulta');
    expect(general.selectable_documents.map((d: { id: string }) => d.id)).toEqual([
      'clinical_summary',
      'sick_leave_certificate',
      'referral_letter',
      'patient_summary',
    ]);
    expect((await get(headers, '/v1/consultation_types/dictation')).json().consultation_type.show_transcription).toBe(true);
    expect((await get(headers, '/v1/consultation_types/general_consultation/selectable_documents/referral_letter')).statusCode).toBe(200);
    expect((await get(headers, '/v1/consultation_types/nope')).statusCode).toBe(404);
    expect((await get(headers, '/v1/consultation_types/dictation/selectable_documents/sick_leave_certificate')).statusCode).toBe(404);
    expect((await get({}, '/v1/consultation_types')).statusCode).toBe(401);
  });
});

describe('session lifecycle', () => {
  it('a consultation started offline keeps the id its device chose; sending the start again answers the same one', async () => {
    const { headers } = await signedIn();
    const id = crypto.randomUUID();
    const first = await start(headers, { consultation_type_id: 'general_consultation', id, force: true });
    expect(first.statusCode).toBe(201);
    expect(first.json().consultation_session.id).toBe(id);
    expect((await upload(headers, id, 0)).statusCode).toBe(201);
    // The answer was lost and the device sends it again: the same consultation, its part still there.
    const again = await start(headers, { consultation_type_id: 'general_consultation', id, force: true });
    expect(again.statusCode).toBe(200);
    expect(again.json().consultation_session.audios).toHaveLength(1);
    expect((await get(headers, '/v1/consultation_sessions/active')).json().consultation_session.id).toBe(id);
    // Another account cannot take, see or end it through its id.
    const other = await signedIn();
    const stolen = await start(other.headers, { consultation_type_id: 'general_consultation', id, force: true });
    expect(stolen.statusCode).toBe(409);
    expect(stolen.json().error.code).toBe('session_id_taken');
    expect(JSON.stringify(stolen.json())).not.toContain('audios');
    expect((await get(headers, `/v1/consultation_sessions/${id}`)).json().consultation_session.status).toBe('active');
    expect((await start(headers, { consultation_type_id: 'general_consultation', id: 'not-a-uuid' })).statusCode).toBe(400);
  });

  it('one active session per user: 409 with it, force finishes the old one', async () => {
    const { headers } = await signedIn();
    const first = await start(headers);
    expect(first.statusCode).toBe(201);
    const id = first.json().consultation_session.id;
    expect(first.json().consultation_session).toMatchObject({ status: 'active', consultation_type_id: 'general_consultation', show_transcription: false });

    const again = await start(headers);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ error: { code: 'active_session_exists' }, consultation_session: { id } });

    const forced = await start(headers, { consultation_type_id: 'dictation', force: true, mobile: true });
    expect(forced.statusCode).toBe(201);
    expect(forced.json().consultation_session).toMatchObject({ show_transcription: true, mobile: true });
    const old = (await get(headers, `/v1/consultation_sessions/${id}`)).json().consultation_session;
    expect(old.status).toBe('finished');
    expect((await get(headers, '/v1/consultation_sessions/active/status')).json()).toMatchObject({
      active: true,
      id: forced.json().consultation_session.id,
      show_transcription: true,
    });
  });

  it('records, pauses, resumes, finishes; recent lists it with its expiry; finishing twice is harmless', async () => {
    const { headers } = await signedIn();
    const id = (await start(headers)).json().consultation_session.id;
    // Read once so the short status cache holds "active": finishing must still be seen at once.
    expect((await get(headers, '/v1/consultation_sessions/active/status')).json()).toMatchObject({ active: true, id, recording_state: 'idle' });
    const rec = await t.app.inject({
      method: 'PUT',
      url: `/v1/consultation_sessions/${id}/recording`,
      headers,
      payload: { platform: 'web', mics_info: [{ label: 'Built-in' }] },
    });
    expect(rec.json().consultation_session).toMatchObject({ recording_state: 'recording', platform: 'web', mics_info: [{ label: 'Built-in' }] });
    expect((await t.app.inject({ method: 'PUT', url: `/v1/consultation_sessions/${id}/pause`, headers })).json().consultation_session.recording_state).toBe(
      'paused',
    );
    expect((await t.app.inject({ method: 'PUT', url: `/v1/consultation_sessions/${id}/resume`, headers })).json().consultation_session.recording_state).toBe(
      'recording',
    );
    const inputs = [{ processor_input_id: 'consultation_notes_template', value: 'BP 120/80' }];
    expect(
      (await t.app.inject({ method: 'PUT', url: `/v1/consultation_sessions/${id}`, headers, payload: { user_inputs: inputs } })).json().consultation_session
        .user_inputs,
    ).toEqual(inputs);

    const finished = await t.app.inject({ method: 'PUT', url: `/v1/consultation_sessions/${id}/finish`, headers });
    expect(finished.json().consultation_session.status).toBe('finished');
    const expires = new Date(finished.json().consultation_session.expires_at).getTime();
    expect(expires - Date.now()).toBeGreaterThan(59 * 60_000);
    expect((await t.app.inject({ method: 'PUT', url: `/v1/consultation_sessions/${id}/finish`, headers })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'PUT', url: `/v1/consultation_sessions/${id}/pause`, headers })).statusCode).toBe(409);
    expect((await get(headers, '/v1/consultation_sessions/active/status')).json()).toEqual({ active: false });
    expect((await get(headers, '/v1/consultation_sessions/active')).json()).toEqual({ consultation_session: null });
    const recent = (await get(headers, '/v1/consultation_sessions/recent')).json().consultation_sessions;
    expect(recent.map((s: { id: string }) => s.id)).toEqual([id]);
    expect(recent[0].expires_at).toBeTruthy();
  });

  it('a patient label and the first words of the notes tell recent consultations apart; bad labels are refused', async () => {
    const { headers } = await signedIn();
    const other = await signedIn();
    const id = (await start(headers)).json().consultation_session.id;
    const put = (payload: unknown, h = headers) =>
      t.app.inject({ method: 'PUT', url: `/v1/consultation_sessions/${id}`, headers: h, payload: payload as object });
    expect((await put({ patient_label: '  Sr. António, 58 a  ' })).json().consultation_session.patient_label).toBe('Sr. António, 58 a');
    // A joiner some scripts' names need is kept; line separators and broken characters are not.
    expect((await put({ patient_label: 'سارا\u200cی' })).statusCode).toBe(200);
    expect((await put({ patient_label: 'Sr. António, 58 a' })).statusCode).toBe(200);
    for (const bad of [
      { patient_label: 'x'.repeat(81) },
      { patient_label: 'Ana\u202eSilva' },
      { patient_label: 'Ana\u2028Silva' },
      { patient_label: 'Ana\ud800' },
      { patient_label: 42 },
      {},
      { patient_label: 'A', other: 1 },
    ]) {
      expect((await put(bad)).statusCode, JSON.stringify(bad)).toBe(400);
    }
    // Another clinician can neither set nor see it.
    expect((await put({ patient_label: 'Taken' }, other.headers)).statusCode).toBe(404);
    await t.ctx.db.insert(generatedDocuments).values([
      { sessionId: id, documentKey: 'consultation_notes', version: 1, status: 'done', text: '## Subjective\n\nOld version.', engine: 'test' },
      {
        sessionId: id,
        documentKey: 'consultation_notes',
        version: 2,
        status: 'done',
        text: `# Consultation notes\n\n## Subjective\n\n- **Dry cough** for three days, no fever; [sleeps badly](x).\n\n## Objective\n\n${'Lungs clear on auscultation. '.repeat(10)}`,
        engine: 'test',
      },
      { sessionId: id, documentKey: 'consultation_notes', version: 3, status: 'generating', text: 'Half writ', engine: 'test' },
    ]);
    // Ended in the database: a finish through the API would write a new version of the notes itself.
    await t.ctx.db
      .update(consultationSessions)
      .set({ status: 'finished', finishedAt: new Date(), expiresAt: new Date(Date.now() + 3_600_000) })
      .where(eq(consultationSessions.id, id));
    const [recent] = (await get(headers, '/v1/consultation_sessions/recent')).json().consultation_sessions;
    expect(recent).toMatchObject({ id, patient_label: 'Sr. António, 58 a' });
    expect(recent.excerpt).toMatch(/^Dry cough for three days, no fever; sleeps badly\. Lungs clear on auscultation\. .*…$/);
    expect(recent.excerpt.length).toBeLessThanOrEqual(141);
    // Blank clears it.
    expect((await put({ patient_label: '   ' })).json().consultation_session.patient_label).toBeNull();
  });

  it('recent leaves out a consultation that holds nothing (ended by the next start after a failed one)', async () => {
    const { headers } = await signedIn();
    const empty = (await start(headers)).json().consultation_session.id;
    const next = (await start(headers, { consultation_type_id: 'general_consultation', force: true })).json().consultation_session.id;
    expect((await get(headers, `/v1/consultation_sessions/${empty}`)).json().consultation_session.status).toBe('finished');
    await t.app.inject({
      method: 'PUT',
      url: `/v1/consultation_sessions/${next}`,
      headers,
      payload: { user_inputs: [{ processor_input_id: 'physical_exam', value: 'Normal' }] },
    });
    await t.app.inject({ method: 'PUT', url: `/v1/consultation_sessions/${next}/finish`, headers });
    expect((await get(headers, '/v1/consultation_sessions/recent')).json().consultation_sessions.map((s: { id: string }) => s.id)).toEqual([next]);
  });

  it('recent leaves out what is past the retention window, and such a session, its text not kept, is deleted', async () => {
    const { headers } = await signedIn();
    const id = (await start(headers)).json().consultation_session.id;
    await t.app.inject({ method: 'PUT', url: `/v1/consultation_sessions/${id}/finish`, headers });
    await t.ctx.db
      .update(consultationSessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(consultationSessions.id, id));
    expect((await get(headers, '/v1/consultation_sessions/recent')).json().consultation_sessions).toEqual([]);
    const res = await get(headers, `/v1/consultation_sessions/${id}`);
    expect([res.statusCode, res.json().error.code]).toEqual([410, 'consultation_deleted']);
  });

  it('refuses bad input with 4xx', async () => {
    const { headers } = await signedIn();
    expect((await start(headers, { consultation_type_id: 'unknown' })).statusCode).toBe(400);
    expect((await start(headers, { consultation_type_id: 5 })).statusCode).toBe(400);
    expect((await get(headers, '/v1/consultation_sessions/not-a-uuid')).statusCode).toBe(400);
    const id = (await start(headers)).json().consultation_session.id;
    expect((await t.app.inject({ method: 'PUT', url: `/v1/consultation_sessions/${id}`, headers, payload: { status: 'finished' } })).statusCode).toBe(400);
    expect(
      (await t.app.inject({ method: 'PUT', url: `/v1/consultation_sessions/${id}/transcription`, headers, payload: { transcription: 7 } })).statusCode,
    ).toBe(400);
  });
});

describe('audio parts', () => {
  it('are idempotent on (session, order), kept out of order and transcribed in order', async () => {
    const { headers } = await signedIn();
    const id = (await start(headers)).json().consultation_session.id;
    expect((await upload(headers, id, 1)).statusCode).toBe(201);
    expect((await upload(headers, id, 2)).statusCode).toBe(201);
    await t.ctx.transcriptionQueue.drain();
    // Part 0 is missing: nothing can be shown yet, the transcript grows in order.
    let s = (await get(headers, `/v1/consultation_sessions/${id}`)).json().consultation_session;
    expect(s.transcription).toBe('');
    expect(s.transcription_status).toBe('processing');

    const first = await upload(headers, id, 0);
    expect(first.statusCode).toBe(201);
    const repeat = await upload(headers, id, 0);
    expect(repeat.statusCode).toBe(200);
    expect(repeat.json().audio.id).toBe(first.json().audio.id);
    expect(repeat.json().audio.size_bytes).toBe(tone.length);
    // Other bytes under a stored order are not silently dropped: the client is told, and keeps them.
    const different = await upload(headers, id, 0, makeWebm(dir, 'other', 2, 880));
    expect(different.statusCode).toBe(409);
    expect(different.json().error.code).toBe('audio_order_conflict');
    await t.ctx.transcriptionQueue.drain();

    s = (await get(headers, `/v1/consultation_sessions/${id}`)).json().consultation_session;
    expect(s.audios.map((a: { order: number }) => a.order)).toEqual([0, 1, 2]);
    expect(s.transcription).toBe('words of part 0 words of part 1 words of part 2');
    expect(s.transcription_status).toBe('done');
    expect(s.audios.every((a: { duration_ms: number }) => Math.abs(a.duration_ms - 1000) < 100)).toBe(true);
  });

  it('two uploads of one order with different bytes racing: one is stored whole, the other answered 409', async () => {
    const { headers } = await signedIn();
    const id = (await start(headers)).json().consultation_session.id;
    const other = makeWebm(dir, 'race', 1, 660);
    for (let order = 0; order < 10; order++) {
      const [a, b] = await Promise.all([upload(headers, id, order, tone), upload(headers, id, order, other)]);
      expect([a.statusCode, b.statusCode].sort(), `round ${order}`).toEqual([201, 409]);
      const winner = a.statusCode === 201 ? tone : other;
      const [row] = await t.ctx.db
        .select()
        .from(audioChunks)
        .where(eq(audioChunks.id, (a.statusCode === 201 ? a : b).json().audio.id));
      const parts: Buffer[] = [];
      for await (const c of t.ctx.blobs.read(row!.blobKey)) parts.push(c as Buffer);
      expect(Buffer.concat(parts).equals(winner), `round ${order}`).toBe(true);
    }
    // The loser's bytes left nothing behind in the store.
    const stored = (await get(headers, `/v1/consultation_sessions/${id}/audios`)).json().audios;
    expect(stored).toHaveLength(10);
  });

  it('an order is plain decimal digits only', async () => {
    const { headers } = await signedIn();
    const id = (await start(headers)).json().consultation_session.id;
    for (const order of ['', ' ', '1e3', '0x10', '-1', '1.5', '+2', ' 3', '100001', '9999999']) {
      const res = await upload(headers, id, order);
      expect(res.statusCode, JSON.stringify(order)).toBe(400);
      expect(res.json().error.fields.order).toBe('invalid_order');
    }
    expect((await get(headers, `/v1/consultation_sessions/${id}/audios`)).json().audios).toEqual([]);
    expect((await upload(headers, id, '007')).statusCode).toBe(201);
  });

  it('the recorder’s own duration is shown until the server measured the part; nonsense is refused', async () => {
    const { headers } = await signedIn();
    const id = (await start(headers)).json().consultation_session.id;
    const send = (duration: string | number) => {
      const m = multipartAudio(0, tone, undefined, duration);
      return t.app.inject({ method: 'POST', url: `/v1/consultation_sessions/${id}/audios`, headers: { ...headers, ...m.headers }, payload: m.payload });
    };
    for (const bad of ['', '-5', '1e3', '5000.5', '99999999', 'abc']) {
      const res = await send(bad);
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
      expect(res.json().error.fields.duration_ms).toBe('invalid_duration');
    }
    const res = await send(4200);
    expect(res.statusCode).toBe(201);
    expect(res.json().audio.duration_ms).toBe(4200);
    expect((await get(headers, `/v1/consultation_sessions/${id}`)).json().consultation_session.recorded_ms).toBeGreaterThan(0);
  });

  it('a file that only begins like audio is refused before it is acknowledged', async () => {
    const { headers } = await signedIn();
    const id = (await start(headers)).json().consultation_session.id;
    const forged = Buffer.concat([tone.subarray(0, 300), Buffer.from('<script>not a recording</script>'.repeat(50))]);
    const res = await upload(headers, id, 0, forged);
    expect(res.statusCode).toBe(415);
    expect((await get(headers, `/v1/consultation_sessions/${id}/audios`)).json().audios).toEqual([]);
  });

  it('a failing part is retried, then marked, never dropped', async () => {
    const { headers } = await signedIn();
    const id = (await start(headers)).json().consultation_session.id;
    await upload(headers, id, 0);
    const part1 = await upload(headers, id, 1);
    const [row] = await t.ctx.db.select().from(audioChunks).where(eq(audioChunks.id, part1.json().audio.id));
    // Retries are spaced by backoff; make each one due at once.
    failing.set(row!.blobKey, 99);
    for (let i = 0; i < 4; i++) {
      await t.ctx.transcriptionQueue.drain();
      await t.ctx.db
        .update(audioChunks)
        .set({ nextAttemptAt: new Date(0) })
        .where(eq(audioChunks.id, row!.id));
    }
    await t.ctx.transcriptionQueue.drain();
    const s = (await get(headers, `/v1/consultation_sessions/${id}`)).json().consultation_session;
    const [after] = await t.ctx.db.select().from(audioChunks).where(eq(audioChunks.id, row!.id));
    expect(after!.attempts).toBe(3);
    expect(s.transcription).toBe('words of part 0 [part 2 could not be transcribed]');
    expect(s.transcription_status).toBe('partial');
  });

  it('accepts parts after the consultation finished (an offline queue catching up)', async () => {
    const { headers } = await signedIn();
    const id = (await start(headers)).json().consultation_session.id;
    await t.app.inject({ method: 'PUT', url: `/v1/consultation_sessions/${id}/finish`, headers });
    expect((await upload(headers, id, 0)).statusCode).toBe(201);
  });

  it('limits size and type with clear 4xx', async () => {
    const { headers } = await signedIn();
    const id = (await start(headers)).json().consultation_session.id;
    const notAudio = await upload(headers, id, 0, Buffer.from('hello, this is not audio at all'), 'audio/webm');
    expect(notAudio.statusCode).toBe(415);
    expect(notAudio.json().error.code).toBe('unsupported_audio_type');
    expect((await upload(headers, id, 0, tone, 'image/png')).statusCode).toBe(415);
    const big = await upload(headers, id, 0, Buffer.concat([tone, Buffer.alloc(300 * 1024)]));
    expect(big.statusCode).toBe(413);
    expect((await upload(headers, id, -1)).statusCode).toBe(400);
    expect((await upload(headers, id, 'first')).statusCode).toBe(400);
    const empty = await upload(headers, id, 0, Buffer.alloc(0));
    expect(empty.statusCode).toBe(400);
    const json = await t.app.inject({ method: 'POST', url: `/v1/consultation_sessions/${id}/audios`, headers, payload: { order: 0 } });
    expect(json.statusCode).toBe(415);
    // Nothing bad was stored.
    expect((await get(headers, `/v1/consultation_sessions/${id}/audios`)).json().audios).toEqual([]);
  });

  it('serves a part, a list by ids, and the whole recording through a short-lived signed address', async () => {
    const { headers } = await signedIn();
    const id = (await start(headers)).json().consultation_session.id;
    const a = (await upload(headers, id, 0)).json().audio.id;
    const b = (await upload(headers, id, 1)).json().audio.id;
    const part = await get(headers, `/v1/consultation_sessions/${id}/audios/${a}`);
    expect(part.statusCode).toBe(200);
    expect(part.rawPayload.equals(tone)).toBe(true);
    const listed = await get(headers, `/v1/consultation_sessions/${id}/audios?audios_ids=${b},${a}`);
    expect(listed.json().audios.map((x: { id: string }) => x.id)).toEqual([a, b]);
    expect((await get(headers, `/v1/consultation_sessions/${id}/audios?audios_ids=zzz`)).statusCode).toBe(400);

    const { audio_url } = (await get(headers, `/v1/consultation_sessions/${id}/audio_url`)).json();
    const url = new URL(audio_url);
    const whole = await t.app.inject({ method: 'GET', url: url.pathname + url.search });
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['content-type']).toBe('audio/webm');
    expect(whole.rawPayload.readUInt32BE(0)).toBe(0x1a45dfa3);
    // Every character changed: replacing only the first one leaves the signature as it was when that one was an x.
    const forged = new URLSearchParams(url.search);
    forged.set('signature', [...forged.get('signature')!].map((c) => (c === 'A' ? 'B' : 'A')).join(''));
    const tampered = await t.app.inject({ method: 'GET', url: `${url.pathname}?${forged.toString()}` });
    expect(tampered.statusCode).toBe(404);
  });
});

describe('ownership', () => {
  it('another user’s session, parts and transcript answer 404', async () => {
    const owner = await signedIn();
    const stranger = await signedIn();
    const id = (await start(owner.headers)).json().consultation_session.id;
    const a = (await upload(owner.headers, id, 0)).json().audio.id;
    for (const url of [
      `/v1/consultation_sessions/${id}`,
      `/v1/consultation_sessions/${id}/transcription`,
      `/v1/consultation_sessions/${id}/audios`,
      `/v1/consultation_sessions/${id}/audios/${a}`,
      `/v1/consultation_sessions/${id}/audio_url`,
    ]) {
      expect((await get(stranger.headers, url)).statusCode, url).toBe(404);
    }
    expect((await upload(stranger.headers, id, 1)).statusCode).toBe(404);
    for (const action of ['finish', 'pause', 'resume']) {
      expect((await t.app.inject({ method: 'PUT', url: `/v1/consultation_sessions/${id}/${action}`, headers: stranger.headers })).statusCode).toBe(404);
    }
    expect(
      (await t.app.inject({ method: 'PUT', url: `/v1/consultation_sessions/${id}/transcription`, headers: stranger.headers, payload: { transcription: 'x' } }))
        .statusCode,
    ).toBe(404);
    expect((await get(stranger.headers, '/v1/consultation_sessions')).json().consultation_sessions).toEqual([]);
  });

  it('the clinician can correct the transcript', async () => {
    const { headers } = await signedIn();
    const id = (await start(headers)).json().consultation_session.id;
    const put = await t.app.inject({
      method: 'PUT',
      url: `/v1/consultation_sessions/${id}/transcription`,
      headers,
      payload: { transcription: 'Corrected text' },
    });
    expect(put.json()).toMatchObject({ transcription: 'Corrected text', transcription_edited: true });
    expect((await get(headers, `/v1/consultation_sessions/${id}/transcription`)).json().transcription).toBe('Corrected text');
  });
});
