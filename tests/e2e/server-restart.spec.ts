import { expect, test } from '@playwright/test';
import { ConsultationPage } from './pages/consultation-page';
import { SignupPage } from './pages/signup-page';
import { AppFrame } from './pages/app-frame';
import { createOrganizationWithCli, uniqueEmail } from './support/admin';
import { fetchSession } from './support/api';
import { OwnServer } from './support/own-server';

const server = new OwnServer('restart', 21736);
test.use({ baseURL: server.url });
test.afterAll(() => server.stop());

test('the server restarts mid-recording: the parts wait on the device and all arrive afterwards', async ({ page, request }) => {
  test.setTimeout(180_000);
  await server.start({ fresh: true });
  const email = uniqueEmail('restart');
  const link = createOrganizationWithCli('restart', server.port, 'Clínica Reinício', email);
  const signup = new SignupPage(page);
  await signup.open(link);
  await signup.fill({ name: 'Dra. Sofia Neves', email, password: 'clinic-secret' });
  await signup.submit();
  await new AppFrame(page).expectSignedInAs('Dra. Sofia Neves');

  const consultation = new ConsultationPage(page);
  await consultation.startFromHome('General consultation');
  const id = consultation.sessionId;
  await consultation.startRecording();
  await page.waitForTimeout(7000);

  await server.stop();
  await page.waitForTimeout(8000);
  await expect(page.getByText(/parts? waiting — saved on this device/)).toBeVisible();
  await server.start({ fresh: false });

  await page.waitForTimeout(4000);
  await consultation.finish();
  await expect(page.getByText('Everything recorded has reached the server.')).toBeVisible({ timeout: 90_000 });
  await expect.poll(async () => (await fetchSession(request, page, id)).audios.every((a) => a.duration_ms !== null), { timeout: 90_000 }).toBe(true);
  const session = await fetchSession(request, page, id);
  expect(session.audios.length).toBeGreaterThanOrEqual(3);
  expect(session.audios.map((a) => a.order)).toEqual(session.audios.map((_, i) => i));
  const stored = session.audios.reduce((sum, a) => sum + (a.duration_ms ?? 0), 0);
  expect(stored).toBeGreaterThan(17_000);
});
