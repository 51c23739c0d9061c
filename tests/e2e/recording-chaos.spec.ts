import { expect, test, type Page } from '@playwright/test';
import { ConsultationPage } from './pages/consultation-page';
import { signUpNewClinician } from './support/accounts';
import { appToken, fetchSession } from './support/api';

const elapsedMs = async (page: Page) => Number(await page.getByLabel('Time recorded').getAttribute('data-elapsed-ms'));

test('offline mid-recording, reload while offline (timer continues), keep recording, finish offline, back online → every part and the finish arrive, in order, nothing lost', async ({
  page,
  context,
  request,
}) => {
  test.setTimeout(180_000);
  await signUpNewClinician(page, 'Dr. Rui Faria');
  // Let the service worker take control, so the app can reload without a network.
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.reload();
  await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller)), { timeout: 15_000 }).toBe(true);

  const consultation = new ConsultationPage(page);
  await consultation.startFromHome('General consultation');
  const id = consultation.sessionId;
  await consultation.startRecording();
  await page.waitForTimeout(8000);

  await context.setOffline(true);
  await page.waitForTimeout(7000);
  await expect(page.getByText(/parts? waiting — saved on this device/)).toBeVisible();
  const beforeReload = await elapsedMs(page);

  // The tab reloads with no network: the shell comes from the service worker, the consultation from IndexedDB.
  await page.reload();
  await expect(page.getByRole('button', { name: 'Continue recording' })).toBeVisible({ timeout: 15_000 });
  await expect(page.getByText(/parts? waiting — saved on this device/)).toBeVisible();
  // The timer continues from what was recorded before the reload, it does not start again at 0:00.
  expect(await elapsedMs(page)).toBeGreaterThanOrEqual(beforeReload - 1000);
  await consultation.startRecording();
  await page.waitForTimeout(8000);
  // Finishing with no network: saved on the device, and sent by itself once the network returns.
  await consultation.finish();
  await expect(page.getByText(/The end of this consultation is saved on this device/)).toBeVisible({ timeout: 20_000 });
  const recorded = await elapsedMs(page);
  expect(recorded).toBeGreaterThan(beforeReload + 7000);
  expect((await fetchSession(request, page, id)).status).toBe('active');

  await context.setOffline(false);
  await expect(page.getByText('Everything recorded has reached the server.')).toBeVisible({ timeout: 60_000 });
  await expect.poll(async () => (await fetchSession(request, page, id)).status, { timeout: 60_000 }).toBe('finished');
  await expect(page.getByText(/The end of this consultation is saved on this device/)).toHaveCount(0, { timeout: 20_000 });

  // Every part, numbered without a gap, each measured by the server.
  await expect.poll(async () => (await fetchSession(request, page, id)).audios.every((a) => a.duration_ms !== null), { timeout: 90_000 }).toBe(true);
  const session = await fetchSession(request, page, id);
  expect(session.status).toBe('finished');
  expect(session.audios.map((a) => a.order)).toEqual(session.audios.map((_, i) => i));
  // The finish named every part this device recorded.
  expect(session.expected_parts).toBe(session.audios.length);
  const stored = session.audios.reduce((sum, a) => sum + (a.duration_ms ?? 0), 0);
  expect(recorded).toBeGreaterThan(20_000);
  expect(Math.abs(stored - recorded), `stored ${stored} ms, recorded ${recorded} ms`).toBeLessThanOrEqual(1000);
  expect(
    await page.evaluate(async () => {
      const dbs = await indexedDB.databases();
      return dbs.map((d) => d.name);
    }),
  ).toContain('consultation-notes');
});

test('a consultation started with no network records, finishes, and reaches the server, whole and in order, when the network returns', async ({
  page,
  context,
  request,
}) => {
  test.setTimeout(180_000);
  await signUpNewClinician(page, 'Dra. Inês Rocha');
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.reload();
  await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller)), { timeout: 15_000 }).toBe(true);
  // Home showed the consultation types once: the device keeps them for later.
  await expect(page.getByRole('button', { name: 'Start: General consultation' })).toBeVisible();

  await context.setOffline(true);
  await page.reload();
  await expect(page.getByText('No connection to the server: these are the consultation types saved on this device.')).toBeVisible({ timeout: 15_000 });
  await expect(page.getByText('No connection to the server: showing the consultations saved on this device.')).toBeVisible();
  const consultation = new ConsultationPage(page);
  await consultation.startFromHome('General consultation');
  await expect(page.getByText(/Started on this device without a connection/)).toBeVisible();
  await expect(page.getByText('Error loading session.')).toHaveCount(0);
  const id = consultation.sessionId;
  await consultation.startRecording();
  await page.waitForTimeout(12_000);
  await consultation.finish();
  await expect(page.getByText(/parts? waiting — saved on this device/)).toBeVisible();
  const recorded = await elapsedMs(page);
  const unknown = await request.get(`/v1/consultation_sessions/${id}`, { headers: { authorization: `Bearer ${await appToken(page)}` } });
  expect(unknown.status()).toBe(404);

  await context.setOffline(false);
  await expect(page.getByText('Everything recorded has reached the server.')).toBeVisible({ timeout: 60_000 });
  await expect.poll(async () => (await fetchSession(request, page, id)).status, { timeout: 60_000 }).toBe('finished');
  await expect(page.getByText(/Started on this device without a connection/)).toHaveCount(0);
  const session = await fetchSession(request, page, id);
  expect(session.audios.length).toBeGreaterThanOrEqual(2);
  expect(session.expected_parts).toBe(session.audios.length);
  expect(session.audios.map((a) => a.order)).toEqual(session.audios.map((_, i) => i));
  const stored = session.audios.reduce((sum, a) => sum + (a.duration_ms ?? 0), 0);
  expect(Math.abs(stored - recorded), `stored ${stored} ms, recorded ${recorded} ms`).toBeLessThanOrEqual(1000);
});

test('two tabs of one browser: the second cannot start a second recorder of the same consultation', async ({ page, context }) => {
  const { email, password } = await signUpNewClinician(page, 'Dr. Tiago Reis');
  const consultation = new ConsultationPage(page);
  await consultation.startFromHome('General consultation');
  await consultation.startRecording();
  // A second tab (signed in there too: the session was not remembered, so it is per tab).
  const second = await context.newPage();
  await second.goto('/login');
  await second.getByLabel('E-mail').fill(email);
  await second.getByLabel('Password').fill(password);
  await second.getByRole('button', { name: 'Sign in' }).click();
  await expect(second.getByRole('tab', { name: 'Consultations', exact: true })).toBeVisible({ timeout: 15_000 });
  await second.goto(page.url());
  await second.getByRole('button', { name: /^(Start|Continue) recording$/ }).click();
  await expect(second.getByText('This consultation is being recorded in another tab of this browser. Record there, or close that tab first.')).toBeVisible();
  await expect(second.getByRole('button', { name: 'Pause' })).toHaveCount(0);
  await second.close();
  await consultation.finish();
});
