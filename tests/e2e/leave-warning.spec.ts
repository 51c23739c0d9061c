import { expect, test } from '@playwright/test';
import { ConsultationPage } from './pages/consultation-page';
import { signUpNewClinician } from './support/accounts';

test('leaving a consultation without generated documents warns that the chance is lost', async ({ page }) => {
  await signUpNewClinician(page, 'Dr. Paulo Sá');
  const consultation = new ConsultationPage(page);
  await consultation.startFromHome('General consultation');
  const url = page.url();

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Leave without documents?' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Stay' }).click();
  await expect(page).toHaveURL(url);

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('alertdialog', { name: 'Leave without documents?' }).getByRole('button', { name: 'Leave' }).click();
  await expect(page).toHaveURL(/\/settings/);
});
