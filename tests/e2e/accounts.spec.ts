import { expect, test } from '@playwright/test';
import { E2E_PORTS } from '../../playwright.config';
import { AppFrame } from './pages/app-frame';
import { LoginPage } from './pages/login-page';
import { SignupPage } from './pages/signup-page';
import { createOrganizationWithCli, uniqueEmail } from './support/admin';
import { expectNoAxeViolations } from './support/axe';
import { lastMailedLink } from './support/outbox';
import { screenshotBothWidths } from './support/screenshots';

test('first admin: CLI → signup through the invitation → login with and without remember me → logout', async ({ page, context }) => {
  const email = uniqueEmail('admin');
  const password = 'clinic-secret';
  const link = createOrganizationWithCli('main', E2E_PORTS.main, 'Clínica Central', email);
  expect(link).toMatch(new RegExp(`^http://localhost:${E2E_PORTS.main}/signup\\?ref=/organization/invitations/[0-9a-f]+$`));

  const signup = new SignupPage(page);
  await signup.open(link);
  await expectNoAxeViolations(page);
  await screenshotBothWidths(page, 'signup');

  // The form checks before it sends.
  await signup.fill({ name: 'Jo', email, password: '12345', confirmation: '54321' });
  await signup.submit();
  await expect(page.getByText('The name must have at least 3 characters')).toBeVisible();
  await expect(page.getByText('The password must have a minimum of 6 characters')).toBeVisible();
  await expect(page.getByText('The given passwords do not match')).toBeVisible();

  await signup.fill({ name: 'Dra. Inês Carvalho', email, password });
  await signup.submit();
  const frame = new AppFrame(page);
  await frame.expectSignedInAs('Dra. Inês Carvalho');
  await expectNoAxeViolations(page);
  await screenshotBothWidths(page, 'home');
  await frame.signOut();

  // Without "remember me" the session lives in this tab only.
  const login = new LoginPage(page);
  await expectNoAxeViolations(page);
  await screenshotBothWidths(page, 'login');
  await login.login(email, 'wrong-password', { remember: false });
  // A wrong password and an address not confirmed yet answer alike; the screen says what to do in the second case.
  await expect(page.getByRole('alert')).toHaveText('Invalid credentials If you have just created your account, open the link in the e-mail we sent you first.');
  await login.login(email, password, { remember: false });
  await frame.expectSignedInAs('Dra. Inês Carvalho');
  const otherTab = await context.newPage();
  await otherTab.goto('/');
  await expect(otherTab).toHaveURL(/\/login$/);
  await otherTab.close();
  await frame.signOut();

  // With "remember me" a new tab is signed in too.
  await login.login(email, password, { remember: true });
  await frame.expectSignedInAs('Dra. Inês Carvalho');
  const rememberedTab = await context.newPage();
  await rememberedTab.goto('/');
  await new AppFrame(rememberedTab).expectSignedInAs('Dra. Inês Carvalho');
  await rememberedTab.close();

  await page.goto('/settings/account');
  await expect(page.getByRole('heading', { name: 'Settings' })).toBeVisible();
  await expectNoAxeViolations(page);
  await screenshotBothWidths(page, 'settings');

  await frame.signOut();
  // The revoked session is gone from this browser, and a protected page sends back to login.
  await page.goto('/settings/account');
  await expect(page).toHaveURL(/\/login$/);
});

test('reset password: request, mailed link, new password, sign in with it', async ({ page }) => {
  const email = uniqueEmail('reset');
  const link = createOrganizationWithCli('main', E2E_PORTS.main, 'Clínica Sul', email);
  const signup = new SignupPage(page);
  await signup.open(link);
  await signup.fill({ name: 'Dr. Tiago Mendes', email, password: 'first-password' });
  await signup.submit();
  const frame = new AppFrame(page);
  await frame.expectSignedInAs('Dr. Tiago Mendes');
  await frame.signOut();

  await page.getByRole('link', { name: 'Forgot your password?' }).click();
  await expect(page.getByRole('heading', { name: 'Reset your password' })).toBeVisible();
  await page.getByLabel('E-mail').fill(email);
  await page.getByRole('button', { name: 'Send link' }).click();
  await expect(page.getByText(`If an account exists for ${email}`)).toBeVisible();
  await expectNoAxeViolations(page);
  await screenshotBothWidths(page, 'reset');

  // The server answers before it mails (so the answer's timing says nothing of the account): wait for the mail.
  let resetLink = '';
  await expect
    .poll(() => {
      try {
        resetLink = lastMailedLink('main', email);
      } catch {
        resetLink = '';
      }
      return resetLink;
    })
    .toMatch(/\/reset_password\/[0-9a-f]{64}$/);
  await page.goto(resetLink);
  await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
  await page.getByLabel('New password', { exact: true }).fill('second-password');
  await page.getByLabel('Confirm new password').fill('second-passwort');
  await page.getByRole('button', { name: 'Save new password' }).click();
  await expect(page.getByText('The given passwords do not match')).toBeVisible();
  await page.getByLabel('Confirm new password').fill('second-password');
  await page.getByRole('button', { name: 'Save new password' }).click();
  await expect(page.getByText('Your password was changed.')).toBeVisible();
  await expectNoAxeViolations(page);
  await screenshotBothWidths(page, 'reset-password');

  // The link is single-use.
  await page.goto(resetLink);
  await page.getByLabel('New password', { exact: true }).fill('third-password');
  await page.getByLabel('Confirm new password').fill('third-password');
  await page.getByRole('button', { name: 'Save new password' }).click();
  await expect(page.getByRole('alert')).toHaveText('This link is not valid or has expired.');

  const login = new LoginPage(page);
  await login.goto();
  await login.login(email, 'first-password', { remember: false });
  // A wrong password and an address not confirmed yet answer alike; the screen says what to do in the second case.
  await expect(page.getByRole('alert')).toHaveText('Invalid credentials If you have just created your account, open the link in the e-mail we sent you first.');
  await login.login(email, 'second-password', { remember: false });
  await frame.expectSignedInAs('Dr. Tiago Mendes');
});
