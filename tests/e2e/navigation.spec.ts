import { expect, test } from '@playwright/test';
import { signUpNewClinician } from './support/accounts';
import { expectNoAxeViolations } from './support/axe';

test('an unauthenticated visit to a protected route lands on login', async ({ page }) => {
  for (const path of ['/', '/settings/account', '/consultation/123', '/trials', '/v2']) {
    await page.goto(path);
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  }
});

test('the sign-in screen loads none of the signed-in code (the device database, pairing)', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  const scripts = await page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .map((entry) => entry.name)
      .filter((name) => name.endsWith('.js')),
  );
  expect(scripts.length).toBeGreaterThan(0);
  expect(scripts.filter((name) => /\/assets\/(signed-in|dexie[\w-]*|db)-[\w-]+\.js$/.test(name))).toEqual([]);
});

test('/signup without a valid ref lands on login', async ({ page }) => {
  await page.goto('/signup');
  await expect(page).toHaveURL(/\/login$/);
  await page.goto('/signup?ref=/somewhere/else');
  await expect(page).toHaveURL(/\/login$/);
  await page.goto('/signup?ref=/organization/invitations/abc-123');
  await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();
});

test('switching to German shows German text, and the choice is kept', async ({ page }) => {
  await page.goto('/login');
  await page.getByLabel('Language').selectOption('de');
  await expect(page.getByRole('heading', { name: 'Anmelden' })).toBeVisible();
  await expect(page.getByLabel('Passwort')).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Anmelden' })).toBeVisible();
  await page.getByRole('button', { name: 'Anmelden' }).click();
  await expect(page.getByText('Füllen Sie alle Felder aus')).toBeVisible();
  await expectNoAxeViolations(page);
});

test('the dark theme keeps every text readable (axe contrast checks) on the sign-in screen', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto('/login');
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  // The page really is dark: its background token took the dark value.
  expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(14, 21, 27)');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText('Fill all the fields', { exact: false })).toBeVisible();
  await expectNoAxeViolations(page);
  await page.screenshot({ path: '.tmp/screenshots/login-dark-phone.png' });
});

test('Portuguese is the default when the browser speaks no supported language', async ({ browser }) => {
  const context = await browser.newContext({ locale: 'fr-FR' });
  const page = await context.newPage();
  await page.goto('/login');
  await expect(page.getByRole('heading', { name: 'Iniciar sessão' })).toBeVisible();
  await expect(page.getByLabel('Palavra-passe')).toBeVisible();
  await context.close();
});

test('a signed-in screen opened cold fetches its code and the language at once, allowed by the policy', async ({ page }) => {
  await signUpNewClinician(page, 'Dra. Inês Pressa');
  await page.evaluate(() => localStorage.setItem('locale', 'de'));
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  await page.reload();
  await expect(page.getByRole('link', { name: 'Startseite' })).toBeVisible();
  // index.html's inline script ran (the Content-Security-Policy allows it by its hash) and named home's code...
  const preloads = await page.evaluate(() => [...document.querySelectorAll<HTMLLinkElement>('link[data-route-preload]')].map((link) => link.href));
  expect(preloads.some((href) => /\/assets\/HomeScreen-[\w-]+\.js$/.test(href))).toBe(true);
  // ...and the catalog it chose is the one the app used: no second one was fetched.
  const catalogs = await page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .map((entry) => entry.name)
      .filter((name) => /\/messages-[\w-]+\.js$/.test(name)),
  );
  expect(catalogs).toHaveLength(1);
  expect(preloads).toContain(catalogs[0]);
  // The stylesheet is in the page itself: no request for it, not even from the code split from the entry.
  const stylesheets = await page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .map((entry) => entry.name)
      .filter((name) => name.endsWith('.css')),
  );
  expect(stylesheets).toEqual([]);
  expect(await page.evaluate(() => getComputedStyle(document.querySelector('.app-nav')!).display)).not.toBe('inline');
  expect(violations).toEqual([]);
});

test('a launch address answered with the app by an outdated service worker still reaches the server', async ({ page }) => {
  // What a service worker of an older version did: answer /launch/… with the cached app. Once, as it would until
  // removed; the app then removes the worker and asks again, and the server's answer is what the clinician sees.
  const shell = await (await page.request.get('/', { headers: { accept: 'text/html' } })).text();
  let answeredWithApp = 0;
  await page.route('**/launch/**', async (route) => {
    if (answeredWithApp++ === 0) await route.fulfill({ status: 200, contentType: 'text/html', body: shell });
    else await route.continue();
  });
  await page.goto('/launch/8f0c1c9e-3f4a-4b8e-9a55-0e1b2c3d4e5f?iss=https%3A%2F%2Fehr.example%2Ffhir&launch=x');
  // No record system is linked to that organization: the server's own answer.
  await expect(page).toHaveURL(/\/launch_failed\?reason=unknown_record_system$/);
  await expect(page.getByText('This record system is not linked to an organization here.', { exact: false })).toBeVisible();
  expect(answeredWithApp).toBe(2);
});
