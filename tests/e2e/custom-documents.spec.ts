import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { signUpNewClinician } from './support/accounts';
import { expectNoAxeViolations } from './support/axe';
import { screenshotBothWidths } from './support/screenshots';

test('a clinician builds a custom document request section by section, with an example, and sends it to support', async ({ page }) => {
  test.setTimeout(90_000);
  await signUpNewClinician(page, 'Dr. Marco Pinto');
  await page.getByRole('link', { name: 'Templates' }).click();
  await page.getByRole('button', { name: 'Request a custom document' }).click();
  const builder = page.locator('section', { has: page.getByRole('heading', { name: 'New custom document request' }) });
  const title = `Cardiology letter ${Date.now().toString(36)}`;
  await builder.getByLabel('Document title').fill(title);
  await builder.getByLabel('Base document').selectOption({ label: 'Referral letter' });
  await builder.getByRole('button', { name: 'Send to support' }).click();
  await expect(page.getByText('Add at least one section before sending.')).toBeVisible();

  for (const [name, description] of [
    ['Reason', 'Why the patient is referred'],
    ['Echocardiogram', 'LVEF and valves'],
  ]) {
    await page.getByRole('button', { name: 'Add a section' }).click();
    const dialog = page.getByRole('dialog', { name: 'New section' });
    await dialog.getByLabel('Section title').fill(name!);
    await dialog.getByLabel('What goes in it').fill(description!);
    await dialog.getByRole('button', { name: 'Save section' }).click();
    await expect(dialog).toBeHidden();
  }
  await expect(page.getByTestId('request-section')).toHaveCount(2);
  await page.getByRole('button', { name: 'Request changes to Echocardiogram' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit section' });
  await edit.getByLabel('Changes you want').fill('Always as a table');
  await edit.getByRole('button', { name: 'Save section' }).click();
  await expect(page.getByText('Change requested: Always as a table')).toBeVisible();
  await page.getByRole('button', { name: 'Delete Reason' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByTestId('request-section')).toHaveCount(1);

  // A program renamed as a PDF is refused, and the message says why.
  await page
    .getByLabel('Examples (optional)')
    .setInputFiles({ name: 'exemplo.pdf', mimeType: 'application/pdf', buffer: Buffer.from('MZ\u0090\u0000 This program cannot be run in DOS mode') });
  await expect(page.getByText('exemplo.pdf: This file is not the kind of file its name says.', { exact: false })).toBeVisible();
  await page.getByLabel('Examples (optional)').setInputFiles({ name: 'exemplo.txt', mimeType: 'text/plain', buffer: Buffer.from('Ecocardiograma: FEVE 55 %') });
  await expect(page.getByText('exemplo.txt')).toBeVisible();
  await page.getByLabel('Other comments').fill('Use NYHA classes.');
  await expectNoAxeViolations(page);
  await screenshotBothWidths(page, 'custom-document-builder');
  await page.getByRole('button', { name: 'Send to support' }).click();
  const sent = page.getByTestId('custom-request').filter({ hasText: title });
  await expect(sent).toContainText('Sent to support on');
  await expect(sent).toContainText('waiting for approval');
  // Pending: no new request until support approves it.
  await expect(page.getByRole('button', { name: 'Request a custom document' })).toHaveCount(0);
  await expect(page.getByText(`Your request "${title}" is waiting for support's approval.`, { exact: false })).toBeVisible();

  const outbox = path.resolve('.tmp/e2e/main/outbox');
  const mail = readdirSync(outbox)
    .map((f) => readFileSync(path.join(outbox, f), 'utf8'))
    .find((eml) => eml.includes(title));
  expect(mail).toBeDefined();
});
