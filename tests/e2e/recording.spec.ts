import { expect, test } from '@playwright/test';
import { ConsultationPage } from './pages/consultation-page';
import { signUpNewClinician } from './support/accounts';
import { expectNoAxeViolations } from './support/axe';
import { screenshotBothWidths } from './support/screenshots';

test('record a consultation with the microphone → finish → the local engine transcribes it', async ({ page }) => {
  test.setTimeout(150_000);
  await signUpNewClinician(page, 'Dra. Marta Lopes');
  await expectNoAxeViolations(page);
  await screenshotBothWidths(page, 'home-types');
  const consultation = new ConsultationPage(page);
  await consultation.startFromHome('General consultation');
  await consultation.startRecording();
  await page.waitForTimeout(31_000);
  await expect(page.getByRole('timer').or(page.getByLabel('Time recorded'))).not.toHaveText('0:00');
  await expectNoAxeViolations(page);
  await screenshotBothWidths(page, 'consultation-recording');
  await consultation.finish();
  await expect(page.getByText('Everything recorded has reached the server.')).toBeVisible({ timeout: 30_000 });

  // Clinical speech (espeak-ng) through the browser's recorder, Opus, the server and pocketsphinx.
  await expect(consultation.transcript).toContainText(/cough|fever|metformin|blood pressure|atorvastatin|milligrams|heart rate/, { timeout: 60_000 });
  await expect(page.getByText('Transcribing…')).toHaveCount(0, { timeout: 60_000 });
  const text = (await consultation.transcript.textContent()) ?? '';
  const expected = ['cough', 'fever', 'metformin', 'blood pressure', 'atorvastatin', 'forty milligrams', 'heart rate', 'stroke', 'allergies'];
  expect(expected.filter((w) => text.includes(w)).length, text).toBeGreaterThanOrEqual(3);
  await screenshotBothWidths(page, 'consultation-finished');

  // The main document was written when the consultation ended (offline composer: no AI configured).
  const documentText = page.getByTestId('document-text').first();
  await expect(documentText).toContainText('Assembled without AI', { timeout: 30_000 });
  await expect(documentText).toContainText('Dra. Marta Lopes');
  await expect(page.getByText('Version 1 of 1')).toBeVisible();
  await page.getByLabel('Request a change').first().fill('Add that the patient walks daily.');
  await page.getByRole('button', { name: 'Send change' }).first().click();
  await expect(page.getByText('Version 2 of 2')).toBeVisible({ timeout: 20_000 });
  await expect(documentText).toContainText('Add that the patient walks daily.');
  await page.getByRole('button', { name: 'Previous version' }).first().click();
  await expect(page.getByText('Version 1 of 2')).toBeVisible();
  await expectNoAxeViolations(page);
  await screenshotBothWidths(page, 'consultation-documents');
});
