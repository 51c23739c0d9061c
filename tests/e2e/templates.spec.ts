import { expect, test } from '@playwright/test';
import { ConsultationPage } from './pages/consultation-page';
import { signUpNewClinician } from './support/accounts';
import { expectNoAxeViolations } from './support/axe';
import { screenshotBothWidths } from './support/screenshots';

test('a personal template written in the editor lays out the consultation notes it is chosen for', async ({ page }) => {
  test.setTimeout(90_000);
  await signUpNewClinician(page, 'Dr. Paulo Reis');

  await page.getByRole('link', { name: 'Templates' }).click();
  await expect(page.getByRole('heading', { name: 'Templates', level: 1 })).toBeVisible();
  const notesCard = page.locator('section', { has: page.getByRole('heading', { name: 'Consultation notes', level: 2 }) });
  await notesCard.getByText('New template').click();
  await notesCard.getByRole('button', { name: 'Create template' }).click();
  await expect(notesCard.getByText('Fill this field.').first()).toBeVisible();
  await notesCard.getByLabel('Template name').fill('Brief SOAP');
  // Fields go in by their names, at the cursor; the text keeps their codes for the composer.
  const text = notesCard.getByLabel('Template text');
  await text.fill('BRIEF NOTE\nS: ');
  await notesCard.getByRole('button', { name: 'Insert the field Reason for the consultation' }).click();
  await text.pressSequentially('\nBP: ');
  await notesCard.getByRole('button', { name: 'Insert the field Blood pressure' }).click();
  await text.pressSequentially('\nBy ');
  await notesCard.getByRole('button', { name: 'Insert the field Clinician' }).click();
  await expect(text).toHaveValue('BRIEF NOTE\nS: {{text}}\nBP: {{bloodpressure}}\nBy {{clinician}}');
  await notesCard.getByRole('button', { name: 'Create template' }).click();
  await expect(notesCard.getByText('Brief SOAP')).toBeVisible();
  // Saved, it reads with field names, not codes.
  const preview = notesCard.locator('.template-preview');
  await expect(preview).toContainText('S: Reason for the consultation');
  await expect(preview).not.toContainText('{{');
  await notesCard.getByLabel('What the AI should always do when writing it').fill('Always state the ICD-10 code.');
  await notesCard.getByRole('button', { name: 'Save guidance' }).click();
  await expect(notesCard.getByText('Saved.')).toBeVisible();
  await expectNoAxeViolations(page);
  await screenshotBothWidths(page, 'editor');

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home' }).click();
  const consultation = new ConsultationPage(page);
  await consultation.startFromHome('General consultation');
  await page.getByLabel('Template: Consultation notes').selectOption({ label: 'Brief SOAP' });
  await page.getByLabel('Reason for the consultation').fill('Sore throat');
  await page.getByLabel('Blood pressure').fill('118/76');
  await page.getByRole('button', { name: 'Save data' }).click();
  await expect(page.getByText('Saved. The documents will use these data.')).toBeVisible();
  await expectNoAxeViolations(page);
  await screenshotBothWidths(page, 'consultation-data');
  await consultation.finish();
  const documentText = page.getByTestId('document-text').first();
  await expect(documentText).toContainText('BRIEF NOTE', { timeout: 30_000 });
  await expect(documentText).toContainText('S: Sore throat');
  await expect(documentText).toContainText('BP: 118/76');
  await expect(documentText).toContainText('By Dr. Paulo Reis');

  // The assistant says plainly that it needs an AI engine here.
  await page.getByRole('button', { name: 'Assistant' }).click();
  const assistant = page.getByRole('dialog', { name: 'Assistant' });
  await expect(assistant.getByText(/AI not configured/)).toBeVisible();
  await expectNoAxeViolations(page);
  await screenshotBothWidths(page, 'assistant');
  await page.keyboard.press('Escape');
  await expect(assistant).toBeHidden();
});

test('one document written on its own, outside a consultation', async ({ page }) => {
  await signUpNewClinician(page, 'Dra. Helena Costa');
  await page.getByText('Write one document on its own').first().click();
  await page.getByRole('link', { name: 'Referral letter' }).first().click();
  await expect(page.getByRole('heading', { name: 'Referral letter', level: 1 })).toBeVisible();
  await page.getByLabel('Clinical information').fill('Knee pain for three months, worse on stairs.');
  await page.getByRole('button', { name: 'Generate' }).click();
  const documentText = page.getByTestId('document-text');
  await expect(documentText).toContainText('Knee pain for three months, worse on stairs.');
  await expect(documentText).toContainText('Dra. Helena Costa');
  await expectNoAxeViolations(page);
  await screenshotBothWidths(page, 'standalone-document');
});
