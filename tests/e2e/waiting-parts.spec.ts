import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { SPEECH_WAV } from './global-setup';
import { signUpNewClinician } from './support/accounts';
import { appToken } from './support/api';
import { expectNoSeriousAxeFindings } from './support/axe';
import { screenshotBothWidths } from './support/screenshots';

/** A few seconds of the spoken sentences as a standalone WebM part, as the recorder makes them. */
function speechPart(index: number): Buffer {
  const dir = path.resolve('.tmp/e2e-media/waiting');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `part-${index}.webm`);
  execFileSync('ffmpeg', ['-nostdin', '-loglevel', 'error', '-y', '-ss', String(index * 4), '-t', '4', '-i', SPEECH_WAV, '-c:a', 'libopus', file]);
  return readFileSync(file);
}

/** What the page's stand-in for the browser's notifications recorded (see the init script below). */
type Told = { asked: number; shown: { title: string; body?: string }[] };
const told = (page: Page) => page.evaluate(() => (window as unknown as { __told: Told }).__told);

async function api(request: APIRequestContext, page: Page) {
  const headers = { authorization: `Bearer ${await appToken(page)}` };
  const sessions = '/v1/consultation_sessions';
  return {
    start: async () =>
      (await (await request.post(sessions, { headers, data: { consultation_type_id: 'general_consultation' } })).json()).consultation_session.id as string,
    label: (id: string, label: string) => request.put(`${sessions}/${id}`, { headers, data: { patient_label: label } }),
    recordOn: (id: string, mobile: boolean) => request.put(`${sessions}/${id}/recording`, { headers, data: { platform: 'web', mobile } }),
    upload: (id: string, order: number) =>
      request.post(`${sessions}/${id}/audios`, {
        headers,
        multipart: { order: String(order), audio_file: { name: `part-${order}.webm`, mimeType: 'audio/webm', buffer: speechPart(order) } },
      }),
    finish: (id: string, parts: number) => request.put(`${sessions}/${id}/finish`, { headers, data: { parts } }),
  };
}

test('a part still on the phone: the screen names it, its device and the time left, and a background tab is told when the notes are ready', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  // The browser's notifications, stood in for: what was asked and shown is kept for the test to read.
  await page.addInitScript(() => {
    const record: Told = { asked: 0, shown: [] };
    (window as unknown as { __told: Told }).__told = record;
    class FakeNotification {
      static permission: NotificationPermission = 'default';
      static async requestPermission() {
        record.asked++;
        FakeNotification.permission = 'granted';
        return FakeNotification.permission;
      }
      onclick: (() => void) | null = null;
      constructor(title: string, options?: NotificationOptions) {
        record.shown.push({ title, body: options?.body });
      }
      close() {}
    }
    (window as unknown as { Notification: unknown }).Notification = FakeNotification;
  });
  await signUpNewClinician(page, 'Dra. Marta Lopes');
  await expect(page).toHaveTitle('Consultations · Consultation Notes');

  // Parts 1–3 recorded on the computer and sent; the phone took over and its part 4 has not arrived.
  const server = await api(request, page);
  const id = await server.start();
  expect((await server.label(id, 'Ana P.')).ok()).toBe(true);
  expect((await server.recordOn(id, false)).ok()).toBe(true);
  for (const order of [0, 1, 2]) expect((await server.upload(id, order)).ok()).toBe(true);
  expect((await server.recordOn(id, true)).ok()).toBe(true);
  expect((await server.finish(id, 4)).ok()).toBe(true);

  await page.goto(`/consultation/${id}`);
  await expect(page).toHaveTitle('Ana P. · Consultation Notes');
  const waiting = page.getByTestId('awaited-parts');
  await expect(waiting).toContainText('Waiting for part 4 from the phone.', { timeout: 20_000 });
  await expect(waiting).toContainText(/The document will be written without it in (9:[0-5]\d|10:00)\./);
  await expect(page.getByText('Everything recorded has reached the server.')).toHaveCount(0);
  // Screen readers hear the clock time once, in a polite status, not the seconds.
  await expect(waiting.getByRole('status')).toHaveText(
    /^Waiting for part 4 from the phone\. The document will be written without it at \d{1,2}:\d\d(\s?[AP]M)?\.$/,
  );
  const countdown = async () => ((await waiting.locator('[data-left-ms]').textContent()) ?? '').match(/\d+:\d\d/)?.[0];
  const first = await countdown();
  await expect.poll(countdown, { timeout: 5000 }).not.toBe(first);
  await expect(page.getByText('The document is written once the missing parts arrive, or when the wait for them ends.')).toBeVisible({ timeout: 20_000 });

  // Asked for by a click only, never on load.
  expect((await told(page)).asked).toBe(0);
  await page.getByRole('button', { name: 'Notify me when it is ready' }).click();
  await expect(page.getByText('You will be notified when it is ready, if this tab is in the background.')).toBeVisible();
  expect((await told(page)).asked).toBe(1);

  await expectNoSeriousAxeFindings(page);
  await screenshotBothWidths(page, 'waiting-for-parts');
  // The same in European Portuguese, counting down all the same.
  const language = page.getByRole('banner').getByRole('combobox');
  await language.selectOption('pt');
  await expect(waiting).toContainText('À espera da parte 4 do telemóvel.');
  await expect(waiting).toContainText(/O documento será escrito sem ela dentro de \d+:\d\d\./);
  await screenshotBothWidths(page, 'waiting-for-parts-pt');
  await language.selectOption('en');
  await expect(waiting).toContainText('Waiting for part 4 from the phone.');

  // The clinician goes to another tab; the phone's part arrives and the notes are written.
  await page.evaluate(() => {
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
    document.dispatchEvent(new Event('visibilitychange'));
  });
  expect((await server.upload(id, 3)).ok()).toBe(true);
  await expect
    .poll(async () => (await told(page)).shown, { timeout: 120_000 })
    .toEqual([{ title: 'The document is ready', body: 'Consultation notes · Ana P.' }]);

  // Back in the tab: nothing is awaited any more, and every part reached the server.
  await page.evaluate(() => {
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'visible' });
    document.dispatchEvent(new Event('visibilitychange'));
  });
  await expect(waiting).toHaveCount(0, { timeout: 20_000 });
  await expect(page.getByText('Everything recorded has reached the server.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Notify me when it is ready' })).toHaveCount(0);

  await page.goto('/settings/account');
  await expect(page).toHaveTitle('Settings · Consultation Notes');
  // A signed-out screen is named by its heading.
  await page.goto('/logout');
  await expect(page).toHaveURL(/\/login/);
  await expect(page).toHaveTitle('Sign in · Consultation Notes');
});
