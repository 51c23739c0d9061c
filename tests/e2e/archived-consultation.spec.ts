import { existsSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { AppFrame } from './pages/app-frame';
import { ConsultationPage } from './pages/consultation-page';
import { SignupPage } from './pages/signup-page';
import { createOrganizationWithCli, uniqueEmail } from './support/admin';
import { appToken } from './support/api';
import { expectNoAxeViolations } from './support/axe';
import { OwnServer } from './support/own-server';
import { screenshotBothWidths } from './support/screenshots';

// Finished consultations are kept 30 seconds here, and the deletion sweep runs every 2 seconds.
const server = new OwnServer('archived', 21735, ['RETENTION_MINUTES=0.5', 'RETENTION_SWEEP_SECONDS=2']);
test.use({ baseURL: server.url, permissions: ['microphone', 'clipboard-read', 'clipboard-write'] });
test.afterAll(() => server.stop());

const api = async (_request: APIRequestContext, page: Page) => ({ authorization: `Bearer ${await appToken(page)}` });

/** Records a few seconds, finishes and waits for the main document; answers the consultation's id. */
async function recordedConsultation(page: Page): Promise<string> {
  const consultation = new ConsultationPage(page);
  await consultation.startFromHome('General consultation');
  const id = consultation.sessionId;
  await consultation.startRecording();
  await page.waitForTimeout(4000);
  await consultation.finish();
  await expect(page.getByText('Everything recorded has reached the server.')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('document-text').first()).toContainText('Assembled without AI', { timeout: 30_000 });
  return id;
}

test('past the window, kept text opens read-only from history; text not kept says it was deleted, not a connection problem', async ({ page, request }) => {
  test.setTimeout(300_000);
  await server.start({ fresh: true });
  const email = uniqueEmail('archived');
  const link = createOrganizationWithCli('archived', server.port, 'Clínica Arquivo', email);
  const signup = new SignupPage(page);
  await signup.open(link);
  await signup.fill({ name: 'Dra. Inês Faria', email, password: 'clinic-secret' });
  await signup.submit();
  await new AppFrame(page).expectSignedInAs('Dra. Inês Faria');
  const headers = await api(request, page);
  expect((await request.put('/v1/account', { headers, data: { user: { save_text_data: true } } })).status()).toBe(200);

  // A consultation with two versions of its notes (the second edited by hand).
  const id = await recordedConsultation(page);
  const edited = await request.post(`/v1/consultation_sessions/${id}/generated_documents/main/regenerate`, {
    headers,
    multipart: { requested_changes: JSON.stringify({ markdown: '# Notes\n\nCough for three days, no fever.' }) },
  });
  expect(edited.status()).toBe(202);

  // Past the window: the sweep deletes the audio and archives the text.
  const audioDir = path.resolve('.tmp/e2e/archived/files/sessions', id);
  await expect.poll(() => existsSync(audioDir), { timeout: 90_000, intervals: [2000] }).toBe(false);
  await expect
    .poll(async () => (await (await request.get(`/v1/consultation_sessions/${id}`, { headers })).json()).consultation_session?.status, { timeout: 20_000 })
    .toBe('archived');

  // History lists it as text only, with the day its audio went, and opens it.
  await page.goto('/settings/history');
  const entry = page.getByTestId('history-entry').filter({ hasText: 'General consultation' });
  await expect(entry).toContainText(/Text only, audio deleted on/);
  await expectNoAxeViolations(page);
  await screenshotBothWidths(page, 'history-archived');
  await entry.getByRole('link', { name: 'General consultation' }).click();
  await expect(page).toHaveURL(new RegExp(`/consultation/${id}$`));

  await expect(page.getByRole('heading', { level: 1, name: 'General consultation' })).toBeVisible();
  await expect(page.getByText(/Audio deleted on .+\. This consultation is kept as text only and cannot be changed\./)).toBeVisible();
  await expect(page.getByTestId('transcript')).not.toBeEmpty();
  const documentText = page.getByTestId('document-text').first();
  await expect(documentText).toContainText('Cough for three days');
  await expect(page.getByText('Version 2 of 2')).toBeVisible();
  await page.getByRole('button', { name: 'Previous version' }).first().click();
  await expect(page.getByText('Version 1 of 2')).toBeVisible();
  await expect(documentText).toContainText('Assembled without AI');
  await page.getByRole('button', { name: 'Next version' }).first().click();
  await expect(page.getByText('Version 2 of 2')).toBeVisible();

  // Nothing that would change it is offered, and no false connection warning.
  for (const name of [/recording/i, /^Generate$/, /^Write again$/, /^Edit notes$/, /^Edit transcript$/, /^Rate this consultation$/, /^Finish consultation$/]) {
    await expect(page.getByRole('button', { name })).toHaveCount(0);
  }
  await expect(page.getByText(/Connection problems/)).toHaveCount(0);

  // Copy and PDF export still work.
  await page.getByRole('button', { name: 'Copy as plain text' }).first().click();
  await expect(page.getByText('Copied.').first()).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toContain('Cough for three days');
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export PDF' }).first().click()]);
  expect(download.suggestedFilename()).toMatch(/\.pdf$/);

  await expectNoAxeViolations(page);
  await screenshotBothWidths(page, 'archived-consultation');

  // A change through the API is refused as archived, the audio as deleted.
  const generate = await request.post(`/v1/consultation_sessions/${id}/generated_documents/main`, { headers });
  expect([generate.status(), (await generate.json()).error.code]).toEqual([409, 'consultation_archived']);
  const audio = await request.get(`/v1/consultation_sessions/${id}/audio_url`, { headers });
  expect([audio.status(), (await audio.json()).error.code]).toEqual([410, 'audio_deleted']);

  // Leaving it asks nothing (there is nothing left to generate).
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home' }).click();
  await expect(page).toHaveURL(/\/$/);

  // With text storage off, a consultation this device has seen is deleted at the end of the window, and its
  // address says so instead of "connection problems".
  expect((await request.put('/v1/account', { headers, data: { user: { save_text_data: false } } })).status()).toBe(200);
  const deletedId = await recordedConsultation(page);
  await expect
    .poll(async () => (await request.get(`/v1/consultation_sessions/${deletedId}`, { headers })).status(), { timeout: 90_000, intervals: [2000] })
    .toBe(404);
  await page.goto(`/consultation/${deletedId}`);
  await expect(page.getByText('This consultation was deleted after the retention period.')).toBeVisible();
  await expect(page.getByText(/Connection problems|Error loading session/)).toHaveCount(0);
  await expectNoAxeViolations(page);
  await screenshotBothWidths(page, 'deleted-consultation');
  // Still says so once every refresh has answered (the cached copy is gone by then).
  await expect(page.getByText('This consultation was deleted after the retention period.')).toBeVisible();
  // Its cached copy is gone from the device too.
  const cached = await page.evaluate(
    (sid) =>
      new Promise<boolean>((resolve) => {
        const open = indexedDB.open('consultation-notes');
        open.onsuccess = () => {
          const get = open.result.transaction('sessions').objectStore('sessions').get(sid);
          get.onsuccess = () => resolve(get.result !== undefined);
        };
      }),
    deletedId,
  );
  expect(cached).toBe(false);

  // An address this device never saw: not found, possibly deleted — still no connection warning.
  await page.goto(`/consultation/${randomUUID()}`);
  await expect(page.getByText('This consultation does not exist. It may have been deleted after the retention period.')).toBeVisible();
  await expect(page.getByText(/Connection problems/)).toHaveCount(0);
});
