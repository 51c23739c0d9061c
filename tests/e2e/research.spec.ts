import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { DIA3_DESCRIPTION as description, scannedRecordPdf, textRecordPdf } from '../fixtures/patient-records.js';
import { signUpNewClinician } from './support/accounts';
import { expectNoAxeViolations } from './support/axe';
import { screenshotBothWidths } from './support/screenshots';

const pdfFile = (name: string, buffer: Buffer) => ({ name, mimeType: 'application/pdf', buffer });
const recordPdf = (name: string, lines: string[]) => pdfFile(name, textRecordPdf(lines));

test('a research space: trial, criteria generated and edited, patients from PDFs, screening, review, CSV', async ({ page }) => {
  test.setTimeout(120_000);
  await signUpNewClinician(page, 'Dr. Rui Nunes');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Research' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Research spaces' })).toBeVisible();
  await page.getByRole('button', { name: 'Create space' }).click();
  await expect(page.getByText('Fill this field.')).toBeVisible();
  await page.getByLabel('Space name').fill('Endo');
  await page.getByRole('button', { name: 'Create space' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Endo' })).toBeVisible();
  await page.getByRole('button', { name: 'Rename' }).click();
  const rename = page.getByRole('dialog', { name: 'Rename space' });
  await rename.getByLabel('Space name').fill('Endocrinology');
  await rename.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Endocrinology' })).toBeVisible();

  // Trial and criteria.
  await page.getByRole('button', { name: 'Add trial' }).click();
  const trialDialog = page.getByRole('dialog', { name: 'Add trial' });
  await trialDialog.getByLabel('Trial name').fill('DIA-3');
  await trialDialog.getByLabel('Description').fill(description);
  await expectNoAxeViolations(page);
  await screenshotBothWidths(page, 'research-trial-dialog');
  await trialDialog.getByRole('button', { name: 'Save trial' }).click();
  await expect(trialDialog).toBeHidden();
  await page.getByRole('button', { name: 'Generate criteria from the description' }).click();
  await expect(page.getByText("4 criteria added from the description's lists (without AI). Check their types.")).toBeVisible();
  const criteria = page.getByTestId('trial').getByRole('listitem');
  await expect(criteria).toHaveCount(4);
  await expect(criteria.nth(3)).toContainText('Critical exclusion');

  await page.getByRole('button', { name: 'Add criterion' }).click();
  const add = page.getByRole('dialog', { name: 'Add criterion' });
  await add.getByLabel('Definition').fill('Pregnancy');
  await add.getByLabel('Type').selectOption({ label: 'Non-critical exclusion' });
  await expectNoAxeViolations(page);
  await add.getByRole('button', { name: 'Save criterion' }).click();
  await expect(criteria).toHaveCount(5);
  await page.getByRole('button', { name: 'Edit criterion: Pregnancy' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit criterion' });
  await edit.getByLabel('Definition').fill('Pregnancy or breastfeeding');
  await edit.getByRole('button', { name: 'Save criterion' }).click();
  await expect(criteria.nth(4)).toContainText('Pregnancy or breastfeeding');
  await page.getByRole('button', { name: 'Delete criterion: Pregnancy or breastfeeding' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
  await expect(criteria).toHaveCount(4);
  await expectNoAxeViolations(page);
  await screenshotBothWidths(page, 'research-trials');

  // Patients: PDFs chosen together; the eleventh file is refused before anything is sent.
  await page.getByRole('tab', { name: 'Patients' }).click();
  const input = page.locator('input[type="file"]');
  const eligible = recordPdf('record-0042.pdf', [
    'Patient 0042',
    'Date of birth: 1968-03-14',
    'Type 2 diabetes mellitus since 2015.',
    'HbA1c 8.2 % in October.',
    'eGFR 74 mL/min.',
  ]);
  await input.setInputFiles(Array.from({ length: 11 }, (_, i) => ({ ...eligible, name: `part-${i}.pdf` })));
  await expect(page.getByText('At most 10 PDF files per patient.')).toBeVisible();
  await page.getByLabel('Patient reference (optional)').fill('P-0042');
  await input.setInputFiles([eligible, recordPdf('labs-0042.pdf', ['Lipid panel: LDL 2.1 mmol/L'])]);
  await expect(page.getByRole('list', { name: 'Files to add' }).getByRole('listitem')).toHaveCount(2);
  await page.getByRole('button', { name: 'Add patient' }).click();
  await expect(page.getByText('Patient P-0042 added.')).toBeVisible();
  await input.setInputFiles([recordPdf('p0077.pdf', ['Patient 0077', 'Age: 81', 'Type 2 diabetes mellitus.', 'HbA1c 7.4 %.', 'eGFR 25 mL/min.'])]);
  await page.getByRole('button', { name: 'Add patient' }).click();
  await expect(page.getByTestId('patient')).toHaveCount(2);
  await expect(page.getByTestId('patient').first()).toContainText('labs-0042.pdf');
  const [original] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download record-0042.pdf' }).click()]);
  expect(original.suggestedFilename()).toBe('record-0042.pdf');
  expect(readFileSync(await original.path()).equals(eligible.buffer)).toBe(true);
  // A scanned record (pictures of pages) is read by OCR on the server; the list follows until it is done.
  await page.getByLabel('Patient reference (optional)').fill('P-0099');
  await input.setInputFiles([
    pdfFile(
      'scan-0099.pdf',
      scannedRecordPdf([
        'Clinical report - Patient 0099',
        'Age: 64',
        'Type 2 diabetes mellitus since 2012.',
        'HbA1c 12.5 %.',
        'Kidney function: eGFR requested.',
      ]),
    ),
  ]);
  await page.getByRole('button', { name: 'Add patient' }).click();
  await expect(page.getByTestId('patient')).toHaveCount(3);
  await expect(page.getByTestId('patient').nth(2)).toContainText('Read from scanned pages', { timeout: 30_000 });
  await expectNoAxeViolations(page);
  await screenshotBothWidths(page, 'research-patients');

  // Screening and results.
  await page.getByRole('tab', { name: 'Results' }).click();
  await expect(page.getByText('No results for this trial yet. Run the screening.')).toBeVisible();
  await page.getByRole('button', { name: 'Run screening' }).click();
  const rows = page.getByTestId('result');
  await expect(rows).toHaveCount(3, { timeout: 20_000 });
  // The likeliest first, with their relevance; those a critical criterion rules out last.
  await expect(page.getByRole('columnheader', { name: 'Relevance' })).toBeVisible();
  await expect(rows.nth(0)).toContainText('P-0042');
  await expect(rows.nth(0)).toContainText('Fit');
  await expect(rows.nth(0)).toContainText('4/4');
  await expect(rows.nth(0).getByText(/^\d{1,3} of 100$/)).toBeVisible();
  await expect(rows.filter({ hasText: 'p0077' })).toContainText('Not approved');
  // HbA1c 12.5 %, read from the scan, is outside 7–10 %.
  await expect(rows.filter({ hasText: 'P-0099' })).toContainText('Not approved');
  await expect(page.getByRole('button', { name: 'Run screening' })).toBeEnabled();

  await page.getByRole('button', { name: 'Details for p0077' }).click();
  const details = page.getByRole('dialog', { name: 'Screening of p0077' });
  await expect(details).toContainText('Screened without AI');
  await expect(details).toContainText(/Relevance \d{1,3}\/100/);
  await expect(details.locator('[data-verdict="met"][data-outcome="fails"]', { hasText: 'eGFR' })).toContainText('eGFR 25 mL/min');
  await expectNoAxeViolations(page);
  await screenshotBothWidths(page, 'research-result-details');
  await details.getByRole('button', { name: 'Decline' }).click();
  await expect(details).toBeHidden();
  // Under an unclear verdict, the record's closest sentences with the words that matched.
  await page.getByRole('button', { name: 'Details for P-0099' }).click();
  const scanned = page.getByRole('dialog', { name: 'Screening of P-0099' });
  const egfr = scanned.locator('[data-verdict="unclear"]', { hasText: 'eGFR' });
  await expect(egfr).toContainText('Closest sentences in the records, best first:');
  await expect(egfr.locator('mark')).toHaveText(['eGFR']);
  await expectNoAxeViolations(page);
  await screenshotBothWidths(page, 'research-result-passages');
  await scanned.getByRole('button', { name: 'Close' }).click();
  await expect(scanned).toBeHidden();
  await expect(page.getByLabel('Result for p0077')).toHaveValue('declined');
  await page.getByLabel('Result for P-0042').selectOption({ label: 'Approved' });
  await expect(page.getByLabel('Result for P-0042')).toHaveValue('approved');
  await expectNoAxeViolations(page);
  await screenshotBothWidths(page, 'research-results');

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
  expect(download.suggestedFilename()).toBe('DIA-3-results.csv');
  const csv = readFileSync(await download.path(), 'utf8')
    .replace('\uFEFF', '')
    .trim()
    .split('\r\n');
  expect(csv[0]).toContain(
    '"Patient","Trial","Pre-evaluation","Criteria satisfied","Relevance","Screening status","Explanation","Screened at","Decision","Decision note","Decided by"',
  );
  expect(csv[1]).toContain('"P-0042","DIA-3","Fit","4/4"');
  // The reviewer's decision, an empty note, its author and time; an explanation even without AI.
  expect(csv[1]).toMatch(/"Approved","","[^"]+","\d{4}-\d\d-\d\dT/);
  expect(csv[1]!.split('","')[4]).toMatch(/^\d{1,3}$/);
  expect(csv[1]!.split('","')[6]).not.toBe('');
  expect(csv.find((line) => line.startsWith('"p0077"'))).toContain('"p0077","DIA-3","Not approved"');

  // Deleting a patient is confirmed, and takes their result with them.
  await page.getByRole('tab', { name: 'Patients' }).click();
  await page.getByRole('button', { name: 'Delete patient p0077' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByTestId('patient')).toHaveCount(2);
  await page.getByRole('tab', { name: 'Results' }).click();
  await expect(rows).toHaveCount(2);

  // Home's trials tab lists the spaces and opens them.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home' }).click();
  await page.getByRole('tab', { name: 'Trials' }).click();
  await page.getByRole('link', { name: 'Endocrinology' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Endocrinology' })).toBeVisible();
});
