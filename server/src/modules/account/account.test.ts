import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeWebm, multipartAudio } from '../../test-support/audio-fixtures.js';
import {
  backgroundSettled,
  bearer,
  createOrganizationInvite,
  createUser,
  getUserRow,
  lastMailToken,
  login,
  uniqueEmail,
} from '../../test-support/factories.js';
import { createTestApp, type TestApp } from '../../test-support/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const put = (token: string, user: Record<string, unknown>) => t.app.inject({ method: 'PUT', url: '/v1/account', headers: bearer(token), payload: { user } });

describe('GET/PUT /v1/account', () => {
  it('saves every profile setting', async () => {
    const u = await createUser(t);
    const token = await login(t, u.email, u.password);
    const settings = {
      name: 'Dra. Beatriz Sá',
      phone_number: '+351 912 345 678',
      language: 'es',
      medical_speciality_id: 'cardiology',
      opt_in_newsletter: true,
      opt_in_product_contact: true,
      save_audios: false,
      save_text_data: false,
      v2_home: true,
      consultation_mode: 'mobile',
    };
    const res = await put(token, settings);
    expect(res.statusCode).toBe(200);
    expect(res.json().d_user).toMatchObject(settings);
    const again = await t.app.inject({ method: 'GET', url: '/v1/account', headers: bearer(token) });
    expect(again.json().d_user).toMatchObject(settings);
  });

  it('never changes the e-mail, refuses unknown fields and bad values', async () => {
    const u = await createUser(t);
    const token = await login(t, u.email, u.password);
    const email = await put(token, { email: 'new@clinic.test' });
    expect(email.statusCode).toBe(400);
    expect(email.json().error.fields).toEqual({ 'user.email': 'email_not_editable' });
    expect((await put(token, { email: u.email.toUpperCase(), name: 'Same Mail' })).statusCode).toBe(200);

    const unknown = await put(token, { is_admin: true });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.fields).toHaveProperty(['user.is_admin']);

    for (const bad of [{ phone_number: 'call me' }, { language: 'fr' }, { name: 'Jo' }, { v2_home: 'yes' }, { medical_speciality_id: 'astrology' }]) {
      const res = await put(token, bad);
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
    }
    expect((await getUserRow(t, u.id))?.email).toBe(u.email);
  });

  it('changes the password only with the current one, and signs other devices out', async () => {
    const u = await createUser(t, { forcePasswordChange: true });
    const token = await login(t, u.email, u.password);
    const otherDevice = await login(t, u.email, u.password);
    // A reset link mailed earlier (to a mailbox someone else may read) stops working with the new password.
    await t.app.inject({ method: 'POST', url: '/v1/reset_password', remoteAddress: '10.9.9.9', payload: { email: u.email } });
    await backgroundSettled(t);
    const resetToken = lastMailToken(t, u.email);

    const missing = await put(token, { password: 'new-secret' });
    expect(missing.json().error.fields).toEqual({ 'user.current_password': 'required' });
    const wrong = await put(token, { password: 'new-secret', current_password: 'nope' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.code).toBe('invalid_current_password');
    const short = await put(token, { password: '123', current_password: u.password });
    expect(short.statusCode).toBe(400);

    const ok = await put(token, { password: 'new-secret', current_password: u.password });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().d_user.force_password_change).toBe(false);
    expect((await t.app.inject({ method: 'GET', url: '/v1/account', headers: bearer(token) })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/v1/account', headers: bearer(otherDevice) })).statusCode).toBe(401);
    await expect(login(t, u.email, u.password)).rejects.toThrow();
    await expect(login(t, u.email, 'new-secret')).resolves.toBeTruthy();
    const reset = await t.app.inject({
      method: 'PATCH',
      url: `/v1/reset_password/${resetToken}`,
      payload: { password: 'taken-over', password_confirmation: 'taken-over' },
    });
    expect(reset.statusCode).toBe(400);
    await expect(login(t, u.email, 'taken-over')).rejects.toThrow();
  });

  it('a new password retires the QR codes minted before it; one minted after works', async () => {
    const u = await createUser(t);
    const token = await login(t, u.email, u.password);
    const stolen = await login(t, u.email, u.password);
    const qrToken = async (session: string) => (await t.app.inject({ method: 'POST', url: '/v1/qr_token', headers: bearer(session) })).json().token as string;
    const autoLogin = (qr: string) => t.app.inject({ method: 'POST', url: '/v1/auto_login', payload: { token: qr } });
    // One from the other (perhaps stolen) session, one from the session that changes the password.
    const fromStolen = await qrToken(stolen);
    const fromOwn = await qrToken(token);

    expect((await put(token, { password: 'new-secret', current_password: u.password })).statusCode).toBe(200);

    for (const qr of [fromStolen, fromOwn]) {
      const res = await autoLogin(qr);
      expect(res.statusCode).toBe(401);
      expect(res.headers.authorization).toBeUndefined();
    }
    const after = await autoLogin(await qrToken(token));
    expect(after.statusCode).toBe(200);
    expect(after.json().d_user.id).toBe(u.id);
  });

  it('a profile change without a new password leaves a QR code working', async () => {
    const u = await createUser(t);
    const token = await login(t, u.email, u.password);
    const qr = (await t.app.inject({ method: 'POST', url: '/v1/qr_token', headers: bearer(token) })).json().token as string;
    expect((await put(token, { name: 'Dr. Rui Campos' })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: '/v1/auto_login', payload: { token: qr } })).statusCode).toBe(200);
  });

  it('answers 401 without a token', async () => {
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      expect((await t.app.inject({ method, url: '/v1/account', payload: method === 'PUT' ? { user: {} } : undefined })).statusCode).toBe(401);
    }
  });
});

describe('DELETE /v1/account', () => {
  it('removes the user, every session and the recorded audio', async () => {
    const u = await createUser(t);
    const token = await login(t, u.email, u.password);
    const id = (
      await t.app.inject({
        method: 'POST',
        url: '/v1/consultation_sessions',
        headers: bearer(token),
        payload: { consultation_type_id: 'general_consultation' },
      })
    ).json().consultation_session.id;
    const part = multipartAudio(0, makeWebm(mkdtempSync(path.join(tmpdir(), 'cn-del-')), 'p', 1));
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: `/v1/consultation_sessions/${id}/audios`,
          headers: { ...bearer(token), ...part.headers },
          payload: part.payload,
        })
      ).statusCode,
    ).toBe(201);
    const folder = path.join(t.dataDir, 'files', 'sessions', id);
    expect(existsSync(folder)).toBe(true);
    expect((await t.app.inject({ method: 'DELETE', url: '/v1/account', headers: bearer(token) })).statusCode).toBe(204);
    expect(await getUserRow(t, u.id)).toBeUndefined();
    expect(existsSync(folder)).toBe(false);
    expect((await t.app.inject({ method: 'GET', url: '/v1/account', headers: bearer(token) })).statusCode).toBe(401);
  });

  it('keeps the only admin of a team with members until they hand over', async () => {
    const adminEmail = uniqueEmail('admin');
    const { organizationId } = await createOrganizationInvite(t, adminEmail);
    const admin = await createUser(t, { email: adminEmail, organizationId, organizationRole: 'admin' });
    await createUser(t, { organizationId, organizationRole: 'member' });
    const token = await login(t, admin.email, admin.password);
    const res = await t.app.inject({ method: 'DELETE', url: '/v1/account', headers: bearer(token) });
    expect(res.statusCode).toBe(409);
    expect(res.json().error.code).toBe('only_admin');
  });
});

describe('GET /v1/organizations and /v1/medical_specialities', () => {
  it('lists only the user organization', async () => {
    const u = await createUser(t);
    const token = await login(t, u.email, u.password);
    expect((await t.app.inject({ method: 'GET', url: '/v1/organizations', headers: bearer(token) })).json()).toEqual({ organizations: [] });
  });

  it('names the specialities in the request language', async () => {
    const u = await createUser(t);
    const token = await login(t, u.email, u.password);
    const get = (lang: string) => t.app.inject({ method: 'GET', url: '/v1/medical_specialities', headers: { ...bearer(token), 'accept-language': lang } });
    const pt = (await get('pt-PT,pt;q=0.9')).json().medical_specialities;
    const de = (await get('de')).json().medical_specialities;
    expect(pt.find((s: { id: string }) => s.id === 'cardiology').name).toBe('Cardiologia');
    expect(de.find((s: { id: string }) => s.id === 'pediatrics').name).toBe('Kinder- und Jugendmedizin');
    expect(pt.at(-1).id).toBe('other');
    expect((await t.app.inject({ method: 'GET', url: '/v1/medical_specialities' })).statusCode).toBe(401);
  });
});
