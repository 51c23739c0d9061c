import { expect, test } from '@playwright/test';
import { AppFrame } from './pages/app-frame';
import { ConsultationPage } from './pages/consultation-page';
import { LoginPage } from './pages/login-page';
import { signUpNewClinician } from './support/accounts';
import { expectNoAxeViolations } from './support/axe';
import { screenshotBothWidths } from './support/screenshots';

const EHR = 'http://ehr.clinic.test';

test('the bookmarklet pastes a consultation note into another system’s text box', async ({ page, context }) => {
  test.setTimeout(90_000);
  const { email, password } = await signUpNewClinician(page, 'Dr. Hugo Alves');
  // Remembered on this device, so the bookmarklet's window is signed in too.
  await new AppFrame(page).signOut();
  await new LoginPage(page).login(email, password, { remember: true });
  await new AppFrame(page).expectSignedInAs('Dr. Hugo Alves');

  const consultation = new ConsultationPage(page);
  await consultation.startFromHome('General consultation');
  await consultation.finish();
  await expect(page.getByTestId('document-text').first()).toContainText('Assembled without AI', { timeout: 30_000 });

  await page.goto('/settings/tools');
  // The link's code is set once the page has rendered (React will not render a javascript: address itself).
  const link = page.getByTestId('bookmarklet');
  await expect(link).toHaveAttribute('href', /^javascript:/);
  const code = (await link.getAttribute('href'))!;

  // Another system, on another origin, with a text box and without one.
  await context.route(`${EHR}/**`, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: route.request().url().endsWith('/plain')
        ? '<!doctype html><title>EHR</title><p>No text box here.</p>'
        : '<!doctype html><title>EHR</title><label for="n">Clinical notes</label><textarea id="n"></textarea>',
    }),
  );
  const ehr = await context.newPage();
  const runBookmarklet = () => ehr.evaluate((c) => new Function(decodeURIComponent(c.slice('javascript:'.length)))(), code);

  await ehr.goto(`${EHR}/plain`);
  const dialog = ehr.waitForEvent('dialog');
  void runBookmarklet();
  const alert = await dialog;
  expect(alert.message()).toContain('this page has no text box');
  await alert.dismiss();

  await ehr.goto(`${EHR}/record`);
  await ehr.getByLabel('Clinical notes').click();
  const [popup] = await Promise.all([ehr.waitForEvent('popup'), runBookmarklet()]);
  await expect(popup.getByText(`Paste into: ${EHR}`)).toBeVisible();
  await expect(popup.getByRole('button', { name: 'Paste', exact: true })).toHaveCount(1);
  await expectNoAxeViolations(popup);
  await screenshotBothWidths(popup, 'bookmarklet-paste');
  await popup.getByRole('button', { name: 'Paste', exact: true }).click();
  await expect(ehr.getByLabel('Clinical notes')).toHaveValue(/Assembled without AI[\s\S]*Dr\. Hugo Alves/);
});
