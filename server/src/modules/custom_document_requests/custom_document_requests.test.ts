import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createUser, login } from '../../test-support/factories.js';
import { createTestApp, type TestApp } from '../../test-support/test-app.js';
import { runCommand } from '../../admin/commands.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function clinician() {
  const u = await createUser(t, { name: 'Dra. Joana Reis' });
  return { ...u, headers: bearer(await login(t, u.email, u.password)) };
}

function upload(name: string, type: string, content: string | Buffer) {
  const boundary = '----cn-example';
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: ${type}\r\n\r\n`;
  return {
    payload: Buffer.concat([Buffer.from(head), Buffer.from(content), Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

const draft = {
  title: 'Cardiology follow-up letter',
  base_document: 'referral_letter',
  sections: [
    { title: 'Reason', description: 'Why the patient is seen', change_request: '' },
    { title: 'Echocardiogram', description: 'LVEF and valves', change_request: 'Always in a table' },
  ],
  other_comments: 'Use NYHA classes.',
};

describe('custom document requests', () => {
  it('builds a draft with examples, then sends it to support, after which it cannot change', async () => {
    const u = await clinician();
    const created = await t.app.inject({
      method: 'POST',
      url: '/v1/custom_document_requests',
      headers: u.headers,
      payload: { custom_document_request: draft },
    });
    expect(created.statusCode).toBe(201);
    const id = created.json().custom_document_request.id;
    const up = upload('exemplo relatório.pdf', 'application/pdf', '%PDF-1.4 example');
    const withExample = await t.app.inject({
      method: 'POST',
      url: `/v1/custom_document_requests/${id}/examples`,
      headers: { ...u.headers, ...up.headers },
      payload: up.payload,
    });
    expect(withExample.statusCode).toBe(201);
    expect(withExample.json().custom_document_request.examples).toEqual([
      expect.objectContaining({ file_name: 'exemplo relatório.pdf', mime_type: 'application/pdf' }),
    ]);
    // Kept under the extension of what its bytes are, whatever it was called.
    const renamed = upload('setup.exe', 'application/pdf', '%PDF-1.4 not a program');
    const kept = await t.app.inject({
      method: 'POST',
      url: `/v1/custom_document_requests/${id}/examples`,
      headers: { ...u.headers, ...renamed.headers },
      payload: renamed.payload,
    });
    expect(kept.json().custom_document_request.examples.map((e: { file_name: string }) => e.file_name)).toEqual(['exemplo relatório.pdf', 'setup.pdf']);
    const bad = upload('run.sh', 'application/x-sh', 'rm -rf /');
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: `/v1/custom_document_requests/${id}/examples`,
          headers: { ...u.headers, ...bad.headers },
          payload: bad.payload,
        })
      ).statusCode,
    ).toBe(415);

    const edited = await t.app.inject({
      method: 'PUT',
      url: `/v1/custom_document_requests/${id}`,
      headers: u.headers,
      payload: { custom_document_request: { ...draft, sections: draft.sections.slice(1) } },
    });
    expect(edited.json().custom_document_request.sections).toHaveLength(1);

    const sent = await t.app.inject({ method: 'POST', url: `/v1/custom_document_requests/${id}/submit`, headers: u.headers });
    expect(sent.json().custom_document_request.status).toBe('submitted');
    const mail = t.mails.at(-1)!;
    expect(mail).toMatchObject({ to: t.ctx.config.supportEmail, subject: '[Custom document] Cardiology follow-up letter' });
    expect(mail.text).toContain('Change requested: Always in a table');
    expect(mail.text).toContain('exemplo relatório.pdf');
    expect(
      (await t.app.inject({ method: 'PUT', url: `/v1/custom_document_requests/${id}`, headers: u.headers, payload: { custom_document_request: draft } }))
        .statusCode,
    ).toBe(409);
    expect((await t.app.inject({ method: 'DELETE', url: `/v1/custom_document_requests/${id}`, headers: u.headers })).statusCode).toBe(409);

    // Two drafts sent at once: one goes, the other is refused (at most one waiting per clinician).
    const racer = await clinician();
    const drafts = await Promise.all(
      [1, 2].map(
        async () =>
          (
            await t.app.inject({ method: 'POST', url: '/v1/custom_document_requests', headers: racer.headers, payload: { custom_document_request: draft } })
          ).json().custom_document_request.id,
      ),
    );
    const sends = await Promise.all(
      drafts.map((d) => t.app.inject({ method: 'POST', url: `/v1/custom_document_requests/${d}/submit`, headers: racer.headers })),
    );
    expect(sends.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    // The other draft can still be thrown away while one waits.
    const left = drafts[sends.findIndex((r) => r.statusCode === 409)];
    expect((await t.app.inject({ method: 'DELETE', url: `/v1/custom_document_requests/${left}`, headers: racer.headers })).statusCode).toBe(204);

    // Pending: no new request, and no other draft changes, until support approves it.
    const blocked = await t.app.inject({
      method: 'POST',
      url: '/v1/custom_document_requests',
      headers: u.headers,
      payload: { custom_document_request: draft },
    });
    expect([blocked.statusCode, blocked.json().error.code]).toEqual([409, 'custom_request_pending']);
    const other = await clinician();
    expect(
      (await t.app.inject({ method: 'POST', url: '/v1/custom_document_requests', headers: other.headers, payload: { custom_document_request: draft } }))
        .statusCode,
    ).toBe(201);
    await expect(runCommand(t.ctx.db, t.ctx.config, 'approve-custom-document', { id: randomUUID() })).rejects.toThrow(/No custom document request/);
    expect(await runCommand(t.ctx.db, t.ctx.config, 'approve-custom-document', { id })).toEqual([
      expect.stringMatching(/^Approved "Cardiology follow-up letter"/),
    ]);
    await expect(runCommand(t.ctx.db, t.ctx.config, 'approve-custom-document', { id })).rejects.toThrow(/already approved/);
    const approved = (await t.app.inject({ method: 'GET', url: `/v1/custom_document_requests/${id}`, headers: u.headers })).json().custom_document_request;
    expect(approved).toMatchObject({ status: 'approved', approved_at: expect.any(String) });
    expect(
      (await t.app.inject({ method: 'POST', url: '/v1/custom_document_requests', headers: u.headers, payload: { custom_document_request: draft } })).statusCode,
    ).toBe(201);
  });

  it('refuses an example whose bytes are not what its name and type say (a program renamed .pdf)', async () => {
    const u = await clinician();
    const id = (
      await t.app.inject({ method: 'POST', url: '/v1/custom_document_requests', headers: u.headers, payload: { custom_document_request: draft } })
    ).json().custom_document_request.id;
    const renamed = upload('exemplo.pdf', 'application/pdf', 'MZ\u0090\u0000 This program cannot be run in DOS mode');
    const res = await t.app.inject({
      method: 'POST',
      url: `/v1/custom_document_requests/${id}/examples`,
      headers: { ...u.headers, ...renamed.headers },
      payload: renamed.payload,
    });
    expect([res.statusCode, res.json().error.code]).toEqual([415, 'file_content_mismatch']);
    expect(
      (await t.app.inject({ method: 'GET', url: `/v1/custom_document_requests/${id}`, headers: u.headers })).json().custom_document_request.examples,
    ).toEqual([]);
  });

  it('keeps each clinician’s requests to themselves and refuses bad input', async () => {
    const a = await clinician();
    const b = await clinician();
    const id = (
      await t.app.inject({ method: 'POST', url: '/v1/custom_document_requests', headers: a.headers, payload: { custom_document_request: draft } })
    ).json().custom_document_request.id;
    for (const [method, url] of [
      ['GET', `/v1/custom_document_requests/${id}`],
      ['DELETE', `/v1/custom_document_requests/${id}`],
      ['POST', `/v1/custom_document_requests/${id}/submit`],
    ] as const) {
      expect((await t.app.inject({ method, url, headers: b.headers })).statusCode, `${method} ${url}`).toBe(404);
    }
    expect((await t.app.inject({ method: 'GET', url: '/v1/custom_document_requests', headers: b.headers })).json().custom_document_requests).toEqual([]);
    for (const bad of [
      { ...draft, title: '' },
      { ...draft, base_document: 'nope' },
      { ...draft, sections: [{ title: '' }] },
      { ...draft, extra: 1 },
    ]) {
      expect(
        (await t.app.inject({ method: 'POST', url: '/v1/custom_document_requests', headers: a.headers, payload: { custom_document_request: bad } })).statusCode,
      ).toBe(400);
    }
    const empty = (
      await t.app.inject({
        method: 'POST',
        url: '/v1/custom_document_requests',
        headers: a.headers,
        payload: { custom_document_request: { ...draft, sections: [] } },
      })
    ).json().custom_document_request.id;
    expect((await t.app.inject({ method: 'POST', url: `/v1/custom_document_requests/${empty}/submit`, headers: a.headers })).statusCode).toBe(400);
  });

  it('deleting a draft removes its example files', async () => {
    const u = await clinician();
    const id = (
      await t.app.inject({ method: 'POST', url: '/v1/custom_document_requests', headers: u.headers, payload: { custom_document_request: draft } })
    ).json().custom_document_request.id;
    const up = upload('note.txt', 'text/plain', 'Example');
    await t.app.inject({ method: 'POST', url: `/v1/custom_document_requests/${id}/examples`, headers: { ...u.headers, ...up.headers }, payload: up.payload });
    const folder = path.join(t.dataDir, 'files', 'custom_documents', id);
    expect(existsSync(folder)).toBe(true);
    expect((await t.app.inject({ method: 'DELETE', url: `/v1/custom_document_requests/${id}`, headers: u.headers })).statusCode).toBe(204);
    expect(existsSync(folder)).toBe(false);
  });
});
