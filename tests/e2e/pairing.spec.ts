import { devices, expect, test } from '@playwright/test';
import { ConsultationPage } from './pages/consultation-page';
import { signUpNewClinician } from './support/accounts';
import { expectNoAxeViolations } from './support/axe';
import { screenshotBothWidths } from './support/screenshots';

test('pairing: the phone signs in by the QR link and records; the computer follows and lands on the consultation', async ({ page, browser }) => {
  test.setTimeout(150_000);
  await signUpNewClinician(page, 'Dr. Nuno Pires');
  await page.getByRole('button', { name: 'Pair my phone' }).click();
  const link = page.getByTestId('pair-link');
  await expect(link).toBeVisible();
  await expect(page.getByRole('img', { name: 'QR code to sign in on your phone' })).toBeVisible();
  await expect(page.getByText('This computer follows the consultations you record on your phone.')).toBeVisible();
  await expectNoAxeViolations(page);
  await screenshotBothWidths(page, 'pairing');
  const url = (await link.textContent())!;
  expect(url).toMatch(/\/autologin\/[0-9a-f]{64}$/);

  const { defaultBrowserType: _ignored, ...iphone } = devices['iPhone 13'];
  const phoneContext = await browser.newContext({ ...iphone, locale: 'en-GB', permissions: ['microphone'] });
  const phone = await phoneContext.newPage();
  await phone.goto(url);
  await expect(phone.getByRole('heading', { name: 'Consultations', exact: true })).toBeVisible({ timeout: 15_000 });
  // The phone has no pairing card of its own.
  await expect(phone.getByRole('button', { name: 'Pair my phone' })).toHaveCount(0);

  const onPhone = new ConsultationPage(phone);
  await onPhone.startFromHome('General consultation');
  const id = onPhone.sessionId;
  await onPhone.startRecording();

  // The computer polls every 5 s and opens the same consultation.
  await expect(page).toHaveURL(new RegExp(`/consultation/${id}$`), { timeout: 20_000 });
  await expect(page.getByRole('heading', { name: 'General consultation' })).toBeVisible();

  await phone.waitForTimeout(6000);
  await onPhone.finish();
  await expect(page.getByText('Finished', { exact: true })).toBeVisible({ timeout: 20_000 });
  await phoneContext.close();
});
