import { expect, test } from '@playwright/test';
import { E2E_PORTS } from '../../playwright.config';
import { AppFrame } from './pages/app-frame';
import { ConsultationPage } from './pages/consultation-page';
import { SignupPage } from './pages/signup-page';
import { createOrganizationWithCli, uniqueEmail } from './support/admin';
import { appToken } from './support/api';
import { expectNoAxeViolations } from './support/axe';
import { screenshotBothWidths } from './support/screenshots';

test("the patient's consent is asked before the first part is recorded, in the patient's language, and kept with the consultation", async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const email = uniqueEmail('consent');
  await new SignupPage(page).open(createOrganizationWithCli('main', E2E_PORTS.main, 'Clínica do Consentimento', email));
  const signup = new SignupPage(page);
  await signup.fill({ name: 'Dra. Inês Vaz', email, password: 'consent-password' });
  await signup.submit();
  await new AppFrame(page).expectSignedInAs('Dra. Inês Vaz');
  const headers = { authorization: `Bearer ${await appToken(page)}` };

  // The organization's admin asks for the patient to confirm on the screen (settings › organisation).
  await page.goto('/settings/organisation');
  const card = page.getByRole('region', { name: 'Patient consent to recording' });
  await card.getByLabel('Consent').selectOption('patient');
  await card.getByRole('button', { name: 'Save' }).click();
  await expect(card.getByText('Saved. Consultations begun from now on follow it.')).toBeVisible();
  await expectNoAxeViolations(page);

  await page.goto('/');
  const consultation = new ConsultationPage(page);
  await consultation.startFromHome('General consultation');
  const id = consultation.sessionId;
  await page.getByRole('button', { name: 'Start recording' }).click();
  const dialog = page.getByRole('dialog');
  // The consultation's language first (English here); the patient can read it in another.
  await expect(dialog).toContainText('This consultation is recorded to help your doctor write its notes.');
  await dialog.getByRole('button', { name: 'Deutsch' }).click();
  await expect(dialog).toContainText('Dieses Gespräch wird aufgenommen');
  await expect(dialog.getByRole('button', { name: 'Deutsch' })).toHaveAttribute('aria-pressed', 'true');
  await expectNoAxeViolations(page);
  await screenshotBothWidths(page, 'consent-patient');

  // The patient says no: nothing is recorded.
  await dialog.getByRole('button', { name: 'Ich bin nicht einverstanden' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Not recorded: the patient did not agree to the recording.')).toBeVisible();
  const before = (await (await request.get(`/v1/consultation_sessions/${id}`, { headers })).json()).consultation_session;
  expect(before.consent).toMatchObject({ required: 'patient', given_at: null });
  expect(before.audios).toHaveLength(0);

  // Asked again, the patient agrees: recording starts, and the consent is kept with the consultation.
  await page.getByRole('button', { name: 'Start recording' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'I agree to the recording' }).click();
  await expect(page.getByText('Recording', { exact: true }).last()).toBeVisible();
  await expect
    .poll(async () => (await (await request.get(`/v1/consultation_sessions/${id}`, { headers })).json()).consultation_session.consent.method)
    .toBe('patient');
  await consultation.finish();
});
