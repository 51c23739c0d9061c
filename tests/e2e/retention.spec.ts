import { existsSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { AppFrame } from './pages/app-frame';
import { ConsultationPage } from './pages/consultation-page';
import { SignupPage } from './pages/signup-page';
import { createOrganizationWithCli, uniqueEmail } from './support/admin';
import { appToken } from './support/api';
import { expectNoAxeViolations } from './support/axe';
import { OwnServer } from './support/own-server';
import { screenshotBothWidths } from './support/screenshots';

// Finished consultations are kept 30 seconds here, and the deletion sweep runs every 2 seconds.
const server = new OwnServer('retention', 21734, ['RETENTION_MINUTES=0.5', 'RETENTION_SWEEP_SECONDS=2']);
test.use({ baseURL: server.url });
test.afterAll(() => server.stop());

test('a finished consultation counts down on home, then leaves home, the database and the audio storage', async ({ page, request }) => {
  test.setTimeout(150_000);
  await server.start({ fresh: true });
  const email = uniqueEmail('retention');
  const link = createOrganizationWithCli('retention', server.port, 'Clínica Retenção', email);
  const signup = new SignupPage(page);
  await signup.open(link);
  await signup.fill({ name: 'Dr. Rui Matos', email, password: 'clinic-secret' });
  await signup.submit();
  await new AppFrame(page).expectSignedInAs('Dr. Rui Matos');

  const consultation = new ConsultationPage(page);
  await consultation.startFromHome('General consultation');
  const id = consultation.sessionId;
  // Whom it is with, in the clinician's words: what tells it apart on home.
  await page.getByLabel('Patient (optional)').fill('Sr. Joaquim, cama 12');
  await page.getByLabel('Patient (optional)').press('Enter');
  await expect(page.getByText('Saved.', { exact: true })).toBeVisible();
  await consultation.startRecording();
  await page.waitForTimeout(4000);
  await consultation.finish();
  await expect(page.getByText('Everything recorded has reached the server.')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('document-text').first()).toContainText('Assembled without AI', { timeout: 30_000 });
  const audioDir = path.resolve('.tmp/e2e/retention/files/sessions', id);
  expect(existsSync(audioDir)).toBe(true);

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home' }).click();
  const recent = page.getByTestId('recent-consultation');
  await expect(recent).toHaveCount(1);
  await expect(recent.getByRole('link', { name: 'Sr. Joaquim, cama 12' })).toBeVisible();
  await expect(recent).toContainText('General consultation');
  await expect(recent).toContainText(/Deleted in [01] min/);
  // The first words of the notes, not the title and date every note starts with.
  await expect(recent).not.toContainText('Assembled without AI');
  await expectNoAxeViolations(page);
  await screenshotBothWidths(page, 'home-recent');

  // Past the window: gone from home (the list refreshes itself), from the API and from the blob store.
  await expect
    .poll(
      async () => {
        await page.reload();
        // Counted only once the list has loaded: either the consultation or the empty-list sentence is shown.
        await expect(recent.first().or(page.getByText('No recent consultations.'))).toBeVisible();
        return recent.count();
      },
      { timeout: 90_000, intervals: [5000] },
    )
    .toBe(0);
  await expect(page.getByText('No recent consultations.')).toBeVisible();
  await expect.poll(() => existsSync(audioDir), { timeout: 20_000 }).toBe(false);
  // 410 consultation_deleted for the moment between its audio going and its row; then 404 like any unknown id.
  const headers = { authorization: `Bearer ${await appToken(page)}` };
  await expect.poll(async () => (await request.get(`/v1/consultation_sessions/${id}`, { headers })).status(), { timeout: 10_000 }).toBe(404);
});
