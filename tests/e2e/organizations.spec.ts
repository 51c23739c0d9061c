import { expect, test, type Browser, type Page } from '@playwright/test';
import { AppFrame } from './pages/app-frame';
import { SignupPage } from './pages/signup-page';
import { signUpNewClinician } from './support/accounts';
import { uniqueEmail } from './support/admin';
import { appToken } from './support/api';
import { expectNoAxeViolations } from './support/axe';
import { lastMailedLink } from './support/outbox';
import { screenshotBothWidths } from './support/screenshots';

/** A colleague opens the mailed invitation link in their own browser and creates their account from it. */
async function joinThroughMail(browser: Browser, email: string, name: string): Promise<{ page: Page; id: string }> {
  const context = await browser.newContext({ locale: 'en-GB' });
  const page = await context.newPage();
  await page.goto(lastMailedLink('main', email));
  await expect(page.getByRole('heading', { name: 'Organization invitation' })).toBeVisible();
  await expect(page.getByText(`with the address ${email}`)).toBeVisible();
  await page.getByRole('link', { name: 'Create account' }).click();
  const signup = new SignupPage(page);
  await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();
  await signup.fill({ name, email, password: 'clinic-secret' });
  await signup.submit();
  await new AppFrame(page).expectSignedInAs(name);
  const me = await page.request.get('/v1/account', { headers: { authorization: `Bearer ${await appToken(page)}` } });
  return { page, id: ((await me.json()) as { d_user: { id: string } }).d_user.id };
}

test('an admin invites colleagues, promotes one and leaves; a member cannot see another member’s history', async ({ page, browser }) => {
  test.setTimeout(120_000);
  await signUpNewClinician(page, 'Dra. Ana Prata');
  await page.getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('link', { name: 'Organization' }).click();
  const invite = page.getByLabel('E-mail addresses to invite, one per line');
  const rita = uniqueEmail('rita');
  const joao = uniqueEmail('joao');
  await invite.fill(`${rita}\nnot-an-email`);
  await expect(page.getByText('Invalid email: not-an-email')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Send invitations' })).toBeDisabled();
  await invite.fill(`${rita}\n${joao}`);
  await expect(page.getByText('Valid email(s) entered: 2')).toBeVisible();
  await page.getByRole('button', { name: 'Send invitations' }).click();
  await expect(page.getByText('Invitations sent: 2.')).toBeVisible();
  // Inviting them again sends nothing, and says so; more than 50 addresses are refused before sending.
  await invite.fill(`${rita}`);
  await page.getByRole('button', { name: 'Send invitations' }).click();
  await expect(page.getByText(`No invitation was sent. Already invited (use Resend to send it again): ${rita}.`)).toBeVisible();
  await invite.fill(Array.from({ length: 60 }, (_, i) => `colleague${i}@clinic.test`).join('\n'));
  await expect(page.getByText('At most 50 addresses at a time: you entered 60.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Send invitations' })).toBeDisabled();
  await invite.fill('');
  const invitations = page.getByTestId('invitation');
  // Her own invitation (from support's CLI) is listed too, accepted.
  await expect(invitations).toHaveCount(3);
  await expect(invitations.filter({ hasText: 'Pending' })).toHaveCount(2);
  await expectNoAxeViolations(page);
  await screenshotBothWidths(page, 'settings-organisation');

  // The admin's access log: her own opening of the consultations list is in it, newest first.
  await page.getByRole('link', { name: 'Access log' }).click();
  await expect(page.getByRole('heading', { name: 'Access log' })).toBeVisible();
  await expect(page.getByRole('table')).toContainText('Dra. Ana Prata');
  await expectNoAxeViolations(page);
  await screenshotBothWidths(page, 'settings-access-log');
  await page.getByRole('link', { name: 'Organization' }).click();

  const ritaJoins = await joinThroughMail(browser, rita, 'Dra. Rita Sousa');
  const joaoJoins = await joinThroughMail(browser, joao, 'Dr. João Melo');
  await page.reload();
  const members = page.getByTestId('member');
  await expect(members).toHaveCount(3);
  await expect(invitations.filter({ hasText: 'Accepted' })).toHaveCount(3);

  // The only admin cannot leave; after promoting Rita, Ana can.
  await page.getByRole('button', { name: 'Leave the organization' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Leave' }).click();
  await expect(page.getByText("You can't leave the organization (only admin)")).toBeVisible();
  await page.getByLabel('Role of Dra. Rita Sousa').selectOption('admin');
  await expect(page.getByLabel('Role of Dra. Rita Sousa')).toHaveValue('admin');
  await page.getByRole('button', { name: 'Leave the organization' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Leave' }).click();
  await expect(page.getByText('You are not part of an organization.', { exact: false })).toBeVisible();

  // João is a member: Rita's history is not his to see; his own is.
  await joaoJoins.page.goto(`/settings/history/${ritaJoins.id}`);
  await expect(joaoJoins.page.getByText("Only administrators of your organization can see another member's history.")).toBeVisible();
  await joaoJoins.page.goto('/settings/history');
  await expect(joaoJoins.page.getByRole('heading', { name: 'Your history' })).toBeVisible();
  // Rita, now the admin, can see João's.
  await ritaJoins.page.goto(`/settings/history/${joaoJoins.id}`);
  await expect(ritaJoins.page.getByRole('heading', { name: 'History of Dr. João Melo' })).toBeVisible();
  await expectNoAxeViolations(ritaJoins.page);
});

test('every settings section is real and accessible', async ({ page }) => {
  test.setTimeout(90_000);
  await signUpNewClinician(page, 'Dr. Tiago Cruz');
  await page.goto('/settings/account');
  await page.getByLabel('Name').fill('Dr. Tiago Cruz Lima');
  await page.getByLabel('Phone').fill('+351 912 345 678');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Your details were saved.')).toBeVisible();
  await expect(page.getByLabel('E-mail')).toHaveAttribute('readonly', '');
  await expectNoAxeViolations(page);
  await screenshotBothWidths(page, 'settings-account');

  await page.goto('/settings/credits');
  await expect(page.getByTestId('credits-balance')).toContainText('credits available');
  await expect(page.getByText('More credits are bought through support')).toBeVisible();
  await expectNoAxeViolations(page);
  await screenshotBothWidths(page, 'settings-credits');

  await page.goto('/settings/support');
  await page.getByLabel('Subject').fill('Credits');
  await page.getByLabel('Message').fill('Please add 200 credits to our clinic.');
  await page.getByRole('button', { name: 'Send message' }).click();
  await expect(page.getByText('Your message was sent.')).toBeVisible();
  await expectNoAxeViolations(page);

  await page.goto('/settings/storage');
  await expect(page.getByText(/kept for 1 h, then deleted/)).toBeVisible();
  await page.getByLabel('Keep the audio until the data is deleted').uncheck();
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Saved.')).toBeVisible();
  await expectNoAxeViolations(page);
  await screenshotBothWidths(page, 'settings-storage');

  await page.goto('/settings/marketing');
  await page.getByLabel('Receive the newsletter').check();
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Saved.')).toBeVisible();

  await page.goto('/settings/tools');
  await expect(page.getByTestId('bookmarklet')).toHaveAttribute('href', /^javascript:/);
  await expectNoAxeViolations(page);
  await page.goto('/settings/history');
  await expect(page.getByText('No consultations kept.')).toBeVisible();
});
