/**
 * The retention marker test: after the sweep, a deleted consultation's text must be in no file under DATA_DIR.
 * It runs the real app on a PGlite database on disk (not in memory, and not PostgreSQL even when the suite runs
 * against one: the property is about PGlite's files), records a consultation whose transcript, user inputs,
 * generated document and document feedback carry unique markers, searches every file for them before (the control: the test can fail)
 * and after the sweep has deleted it and the database is closed.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { eq, sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { openDatabase, type DatabaseHandle } from '../db/client.js';
import { audioChunks, consultationSessions, generatedDocuments } from '../db/schema.js';
import type { App } from '../http/context.js';
import type { AppContext } from '../app-context.js';
import { makeWebm, multipartAudio } from '../test-support/audio-fixtures.js';
import { bearer, createUser, login } from '../test-support/factories.js';
import { textRecordPdf } from '../../../tests/fixtures/patient-records.js';
import type { TestApp } from '../test-support/test-app.js';
import { startRetentionJob } from './retention.js';

const marker = (what: string) => `zq${what}${randomBytes(8).toString('hex')}`;
/** Three markers for the deleted consultation, one for a consultation still in its window (kept: a control too). */
const M = { transcript: marker('transcript'), input: marker('input'), feedback: marker('feedback'), kept: marker('kept') };
/** What the scripted transcriber hears: the deleted consultation's marker first, then the kept one's. */
let spoken = M.transcript;

/** Every file under `dir` that holds `needle`'s bytes. */
function filesHolding(dir: string, needle: string): string[] {
  const bytes = Buffer.from(needle, 'utf8');
  const found: string[] = [];
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    if (readFileSync(file).includes(bytes)) found.push(path.relative(dir, file));
  }
  return found;
}

const dataDir = mkdtempSync(path.join(tmpdir(), 'cn-marker-'));
let database: DatabaseHandle | undefined;
let app: App | undefined;

/** The app on a PGlite database in DATA_DIR/db, with a transcriber that says the marker. */
async function start(sweepSeconds = '0'): Promise<{ app: App; ctx: AppContext; t: TestApp }> {
  const config = loadConfig({
    DATA_DIR: dataDir,
    WEB_DIST: path.join(dataDir, 'no-web-build'),
    PUBLIC_URL: 'http://clinic.test',
    RETENTION_SWEEP_SECONDS: sweepSeconds,
    LOG_LEVEL: 'silent',
  });
  database = await openDatabase({ dataDir });
  expect(database.kind).toBe('pglite');
  const built = await buildApp({
    config,
    db: database.db,
    logStream: new Writable({ write: (_c, _e, cb) => cb() }),
    mailer: { send: async () => undefined },
    transcriber: { info: { engine: 'local', languages: ['en'] }, transcribe: async () => `the patient reports ${spoken} since monday` },
  });
  await built.app.ready();
  app = built.app;
  // The factories need only the app and its context.
  const t: TestApp = { app: built.app, ctx: built.ctx, mails: [], logs: [], dataDir, close: async () => undefined };
  return { ...built, t };
}

afterAll(async () => {
  await app?.close();
  await database?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function recordConsultation(t: TestApp, headers: Record<string, string>, audio: Buffer, inputs: { processor_input_id: string; value: string }[]) {
  const id: string = (
    await t.app.inject({ method: 'POST', url: '/v1/consultation_sessions', headers, payload: { consultation_type_id: 'general_consultation', force: true } })
  ).json().consultation_session.id;
  const m = multipartAudio(0, audio);
  expect(
    (await t.app.inject({ method: 'POST', url: `/v1/consultation_sessions/${id}/audios`, headers: { ...headers, ...m.headers }, payload: m.payload }))
      .statusCode,
  ).toBe(201);
  await t.ctx.transcriptionQueue.drain();
  expect((await t.app.inject({ method: 'PUT', url: `/v1/consultation_sessions/${id}`, headers, payload: { user_inputs: inputs } })).statusCode).toBe(200);
  expect((await t.app.inject({ method: 'PUT', url: `/v1/consultation_sessions/${id}/finish`, headers })).statusCode).toBe(200);
  for (let i = 0; i < 200; i++) {
    const docs = await t.ctx.db.select().from(generatedDocuments).where(eq(generatedDocuments.sessionId, id));
    if (docs.length && docs.every((d) => d.status !== 'generating')) return { id, docs };
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the document was not written');
}

describe('retention on PGlite: deleted means gone from the files', () => {
  it('a consultation past its window leaves no trace of its text in any file under DATA_DIR', async () => {
    const { t, ctx } = await start();
    const audio = makeWebm(mkdtempSync(path.join(tmpdir(), 'cn-marker-audio-')), 'part', 1);
    const u = await createUser(t, { saveTextData: false, saveAudios: true });
    const headers = bearer(await login(t, u.email, u.password));

    const gone = await recordConsultation(t, headers, audio, [{ processor_input_id: 'physical_exam', value: `abdomen soft, ${M.input}` }]);
    // The clinician's comment on the document carries a marker of its own.
    const rated = await t.app.inject({
      method: 'POST',
      url: `/v1/consultation_sessions/${gone.id}/generated_documents/${gone.docs[0]!.documentKey}/feedback`,
      headers,
      payload: { rating: 4, comment: `missed ${M.feedback}` },
    });
    expect(rated.statusCode).toBeLessThan(300);
    // What the database holds: the transcript in the part, the inputs on the row, both in the document.
    const [part] = await ctx.db.select().from(audioChunks).where(eq(audioChunks.sessionId, gone.id));
    expect(part!.transcript).toContain(M.transcript);
    const texts = (await ctx.db.select().from(generatedDocuments).where(eq(generatedDocuments.sessionId, gone.id))).map((d) => d.text).join('\n');
    expect(texts).toContain(M.transcript);
    expect(texts).toContain(M.input);

    // A second consultation, still in its window, must survive the sweep (so the scrub does not just wipe all).
    spoken = M.kept;
    const kept = await recordConsultation(t, headers, audio, [{ processor_input_id: 'physical_exam', value: 'nothing of note' }]);

    // The control: before the sweep every marker is in the database's files (after a checkpoint has written them).
    await ctx.db.execute(sql`CHECKPOINT`);
    for (const m of [M.transcript, M.input, M.feedback, M.kept]) expect(filesHolding(path.join(dataDir, 'db'), m), m).not.toEqual([]);

    // Past the window, the retention job as the server runs it on PGlite (sweep, then scrub of the files).
    await ctx.db
      .update(consultationSessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(consultationSessions.id, gone.id));
    const job = startRetentionJob({ db: ctx.db, blobs: ctx.blobs, everySeconds: 3600, abandonedAfterHours: 12, scrubFiles: true, log: t.app.log });
    await job.stop();
    expect(await ctx.db.select().from(consultationSessions).where(eq(consultationSessions.id, gone.id))).toEqual([]);
    expect((await ctx.db.select().from(consultationSessions).where(eq(consultationSessions.id, kept.id))).length).toBe(1);

    await app!.close();
    await database!.close();
    app = undefined;
    database = undefined;
    for (const m of [M.transcript, M.input, M.feedback]) expect(filesHolding(dataDir, m), m).toEqual([]);
    expect(filesHolding(path.join(dataDir, 'db'), M.kept)).not.toEqual([]);
  }, 60_000);

  it('a research patient deleted by a researcher leaves no trace of its record in any file', async () => {
    // The sweep runs (hourly here), so the deletion's scrub happens at the latest when the server stops.
    const { t, ctx } = await start('3600');
    const u = await createUser(t);
    const headers = bearer(await login(t, u.email, u.password));
    const record = marker('record');
    const space = (await t.app.inject({ method: 'POST', url: '/v1/research_spaces', headers, payload: { research_space: { name: 'Marker space' } } })).json()
      .research_space.id;
    const boundary = 'cnmarker';
    const payload = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="reference"\r\n\r\nP-1\r\n--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="r.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
      ),
      textRecordPdf([`Diagnosis ${record}`]),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const added = await t.app.inject({
      method: 'POST',
      url: `/v1/research_spaces/${space}/patients`,
      headers: { ...headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload,
    });
    expect(added.statusCode).toBe(201);
    await ctx.db.execute(sql`CHECKPOINT`);
    expect(filesHolding(path.join(dataDir, 'db'), record)).not.toEqual([]);

    const patient = added.json().patient.id;
    expect((await t.app.inject({ method: 'DELETE', url: `/v1/research_spaces/${space}/patients/${patient}`, headers })).statusCode).toBe(204);
    await app!.close();
    await database!.close();
    app = undefined;
    database = undefined;
    expect(filesHolding(dataDir, record)).toEqual([]);
  }, 60_000);
});
