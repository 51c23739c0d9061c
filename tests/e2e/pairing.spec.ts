import { devices, expect, test } from '@playwright/test';
import { ConsultationPage } from './pages/consultation-page';
import { signUpNewClinician } from './support/accounts';
import { fetchSession } from './support/api';
import { expectNoAxeViolations } from './support/axe';
import { screenshotBothWidths } from './support/screenshots';

test('pairing: the phone signs in by the QR link and records; the computer follows, shows where it records, and takes the recording over', async ({
  page,
  browser,
  request,
}) => {
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
  await expect(phone.getByRole('tab', { name: 'Consultations', exact: true })).toBeVisible({ timeout: 15_000 });
  // The phone has no pairing card of its own.
  await expect(phone.getByRole('button', { name: 'Pair my phone' })).toHaveCount(0);

  const onPhone = new ConsultationPage(phone);
  await onPhone.startFromHome('General consultation');
  const id = onPhone.sessionId;
  await onPhone.startRecording();

  // The computer polls every 5 s and opens the same consultation.
  await expect(page).toHaveURL(new RegExp(`/consultation/${id}$`), { timeout: 20_000 });
  await expect(page.getByRole('heading', { name: 'General consultation' })).toBeVisible();

  // One recorder: the computer says where the recording happens and offers no second recorder of its own.
  await expect(page.getByText('Recording on your phone', { exact: true })).toBeVisible({ timeout: 15_000 });
  await expect(page.getByRole('button', { name: /^(Start|Continue) recording$/ })).toHaveCount(0);
  await expectNoAxeViolations(page);
  await screenshotBothWidths(page, 'consultation-recording-elsewhere');
  await phone.waitForTimeout(6000);

  // "Record here instead": confirmed, the phone stops and hands over, the computer continues the numbering.
  await page.getByRole('button', { name: 'Record here instead' }).click();
  await page.getByRole('alertdialog', { name: 'Record on this device instead?' }).getByRole('button', { name: 'Record here' }).click();
  await expect(phone.getByText(/Recording continues on your other device/)).toBeVisible({ timeout: 20_000 });
  // The status line, not the panel's heading (also "Recording"), which matched at once whatever the state.
  await expect(page.locator('.recording-status').getByText('Recording', { exact: true })).toBeVisible({ timeout: 20_000 });
  await expect(phone.getByText('Recording on another device', { exact: true })).toBeVisible({ timeout: 15_000 });
  await page.waitForTimeout(6000);
  const onComputer = new ConsultationPage(page);
  await onComputer.finish();
  await expect(phone.getByText('Everything recorded has reached the server.')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText('Everything recorded has reached the server.')).toBeVisible({ timeout: 30_000 });
  await expect(phone.getByText('Error sending audio.')).toHaveCount(0);

  // Both devices' parts are there, numbered without a gap or a clash, and the finish counted them all.
  await expect.poll(async () => (await fetchSession(request, page, id)).status, { timeout: 20_000 }).toBe('finished');
  const session = await fetchSession(request, page, id);
  expect(session.audios.length).toBeGreaterThanOrEqual(2);
  expect(session.audios.map((a) => a.order)).toEqual(session.audios.map((_, i) => i));
  expect(session.expected_parts).toBe(session.audios.length);
  await phoneContext.close();
});
