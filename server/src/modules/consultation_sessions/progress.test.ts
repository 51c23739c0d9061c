/**
 * GET …/:id/progress, the consultation screen's poll: no list of parts, and of the transcript only what follows
 * the beginning the screen says it holds (checked by its hash, never taken on its word).
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audioChunks, consultationSessions } from '../../db/schema.js';
import { bearer, createUser, login } from '../../test-support/factories.js';
import { createTestApp, type TestApp } from '../../test-support/test-app.js';
import { transcriptPrefix } from './view.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

async function consultationWithParts(texts: string[]) {
  const u = await createUser(t);
  const headers = bearer(await login(t, u.email, u.password));
  const id = (
    await t.app.inject({ method: 'POST', url: '/v1/consultation_sessions', headers, payload: { consultation_type_id: 'general_consultation' } })
  ).json().consultation_session.id as string;
  await t.ctx.db.insert(audioChunks).values(
    texts.map((text, order) => ({
      sessionId: id,
      order,
      blobKey: `k-${id}-${order}`,
      mimeType: 'audio/webm',
      sizeBytes: 10,
      durationMs: 5000,
      transcript: text,
      transcriptionStatus: 'done',
    })),
  );
  const progress = (query = '') => t.app.inject({ method: 'GET', url: `/v1/consultation_sessions/${id}/progress${query}`, headers });
  return { id, headers, progress, userId: u.id };
}

describe('the consultation screen’s poll', () => {
  it('sends the whole transcript once, then only what follows what the screen holds', async () => {
    const { progress } = await consultationWithParts(['Dry cough for three days.', 'No fever.', 'Lungs clear.']);
    const first = (await progress()).json().consultation_progress;
    expect(first.transcription).toEqual({ from: 0, text: 'Dry cough for three days. No fever. Lungs clear.' });
    expect(first).toMatchObject({ parts: 3, next_order: 3, recorded_ms: 15_000, transcription_status: 'done', status: 'active' });
    expect(first).not.toHaveProperty('audios');

    const held = 'Dry cough for three days. No fever.';
    const next = (await progress(`?transcription_from=${held.length}&transcription_prefix=${transcriptPrefix(held)}`)).json().consultation_progress;
    expect(next.transcription).toEqual({ from: held.length, text: ' Lungs clear.' });
    // All of it held: nothing to send.
    const all = first.transcription.text as string;
    expect(
      (await progress(`?transcription_from=${all.length}&transcription_prefix=${transcriptPrefix(all)}`)).json().consultation_progress.transcription,
    ).toEqual({ from: all.length, text: '' });
  });

  it('sends the whole text again when what the screen holds is not how the transcript begins', async () => {
    const { progress } = await consultationWithParts(['Headache since Monday.']);
    const other = 'Headache since Tuesday';
    for (const query of [
      `?transcription_from=${other.length}&transcription_prefix=${transcriptPrefix(other)}`,
      // Longer than the transcript, or a hash of nothing it starts with.
      `?transcription_from=500&transcription_prefix=${transcriptPrefix('x'.repeat(500))}`,
      `?transcription_from=8&transcription_prefix=0000000000000000`,
      // Half of the pair says nothing.
      '?transcription_from=8',
    ]) {
      expect((await progress(query)).json().consultation_progress.transcription).toEqual({ from: 0, text: 'Headache since Monday.' });
    }
  });

  it('answers only the consultation’s owner, and refuses a malformed question with a 400', async () => {
    const { id, progress } = await consultationWithParts(['Private words.']);
    const other = await createUser(t);
    const stranger = bearer(await login(t, other.email, other.password));
    expect((await t.app.inject({ method: 'GET', url: `/v1/consultation_sessions/${id}/progress`, headers: stranger })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/v1/consultation_sessions/${id}/progress` })).statusCode).toBe(401);
    for (const query of ['?transcription_from=-1', '?transcription_from=abc', '?transcription_prefix=ZZZZZZZZZZZZZZZZ', '?transcription_from=1&other=1']) {
      const res = await progress(query);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error.code).toBe('invalid_request');
    }
  });
});

describe('lists of consultations', () => {
  it('are read a page at a time, newest first, filtered in the database, with the excerpt from the first parts', async () => {
    const { headers } = await consultationWithParts(['First words of the first one.']);
    const start = async () => {
      const id = (
        await t.app.inject({
          method: 'POST',
          url: '/v1/consultation_sessions',
          headers,
          payload: { consultation_type_id: 'general_consultation', force: true },
        })
      ).json().consultation_session.id as string;
      return id;
    };
    const second = await start();
    const third = await start();
    // One long past its window and archived: never listed among the visible ones.
    await t.ctx.db
      .update(consultationSessions)
      .set({ status: 'archived', expiresAt: new Date(Date.now() - 3_600_000) })
      .where(eq(consultationSessions.id, second));
    const list = async (query = '') =>
      (await t.app.inject({ method: 'GET', url: `/v1/consultation_sessions${query}`, headers })).json().consultation_sessions as {
        id: string;
        created_at: string;
      }[];
    const all = await list();
    expect(all.map((s) => s.id)).toEqual([third, expect.any(String)]);
    expect(all.map((s) => s.id)).not.toContain(second);
    expect((await list(`?before=${encodeURIComponent(all[0]!.created_at)}`)).map((s) => s.id)).toEqual([all[1]!.id]);
    expect(await list(`?before=${encodeURIComponent(all[1]!.created_at)}`)).toEqual([]);
    const bad = await t.app.inject({ method: 'GET', url: '/v1/consultation_sessions?before=yesterday', headers });
    expect(bad.statusCode).toBe(400);

    const history = (await t.app.inject({ method: 'GET', url: '/v1/consultation_sessions/history', headers })).json().consultation_sessions as {
      id: string;
      transcript_excerpt: string;
    }[];
    const first = history.find((h) => h.transcript_excerpt === 'First words of the first one.');
    expect(first).toBeDefined();
  });

  it('page exactly after the last row shown, also when rows share a millisecond or differ by microseconds', async () => {
    const { headers, userId } = await consultationWithParts(['One.']);
    const ids = [];
    for (let i = 0; i < 3; i++)
      ids.push(
        (
          await t.app.inject({
            method: 'POST',
            url: '/v1/consultation_sessions',
            headers,
            payload: { consultation_type_id: 'general_consultation', force: true },
          })
        ).json().consultation_session.id as string,
      );
    // Four consultations in one millisecond, two of them microseconds apart (the API shows milliseconds only).
    const mine = eq(consultationSessions.userId, userId);
    await t.ctx.db
      .update(consultationSessions)
      .set({
        createdAt: new Date('2026-11-20T10:00:00.123Z'),
        status: 'finished',
        finishedAt: new Date('2026-11-20T10:30:00.456Z'),
        expiresAt: new Date(Date.now() + 3_600_000),
      })
      .where(mine);
    await t.ctx.db.execute(
      sql`update consultation_sessions set created_at = created_at + interval '400 microseconds', finished_at = finished_at + interval '400 microseconds' where id = ${ids[0]}`,
    );
    const walk = async (url: string, field: 'created_at' | 'finished_at') => {
      const seen: string[] = [];
      let query = '';
      // One row per page is what a boundary inside the millisecond looks like; the cursor is the row last seen.
      for (let page = 0; page < 10; page++) {
        const rows = (await t.app.inject({ method: 'GET', url: `${url}${query}`, headers })).json().consultation_sessions as {
          id: string;
          created_at: string;
          finished_at: string;
        }[];
        const next = rows.find((r) => !seen.includes(r.id));
        if (!next) break;
        expect(rows[0]!.id, 'the page starts right after the cursor').toBe(next.id);
        seen.push(next.id);
        query = `?before=${encodeURIComponent(next[field])}&before_id=${next.id}`;
      }
      return seen;
    };
    const listed = await walk('/v1/consultation_sessions', 'created_at');
    expect(listed).toHaveLength(4);
    expect(new Set(listed).size).toBe(4);
    expect(await walk('/v1/consultation_sessions/history', 'finished_at')).toEqual(listed);

    const bad = await t.app.inject({
      method: 'GET',
      url: `/v1/consultation_sessions?before=${encodeURIComponent('2026-11-20T10:00:00.123Z')}&before_id=nope`,
      headers,
    });
    expect(bad.statusCode).toBe(400);
    const idAlone = await t.app.inject({ method: 'GET', url: `/v1/consultation_sessions?before_id=${listed[1]}`, headers });
    expect(idAlone.statusCode).toBe(400);
    expect(idAlone.json().error.fields).toHaveProperty('before');
  });
});
