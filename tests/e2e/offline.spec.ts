import { expect, test } from '@playwright/test';

test('the shell loads offline after a first visit', async ({ page, context }) => {
  await page.goto('/login');
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  // Wait until the service worker is installed and controls the page.
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.reload();
  await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);

  await context.setOffline(true);
  await page.goto('/reset');
  await expect(page.getByRole('heading', { name: 'Reset your password' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Reset your password' })).toBeVisible();
  // Calls fail with the connection message, not a broken page.
  await page.getByLabel('E-mail').fill('someone@clinic.test');
  await page.getByRole('button', { name: 'Send link' }).click();
  await expect(page.getByRole('alert')).toContainText('Connection problems');
  await context.setOffline(false);
});

test('the app has a web manifest for installation', async ({ page, request }) => {
  await page.goto('/login');
  const href = await page.locator('link[rel="manifest"]').getAttribute('href');
  expect(href).toBeTruthy();
  const manifest = await (await request.get(href!)).json();
  expect(manifest).toMatchObject({ display: 'standalone', start_url: '/', theme_color: '#0f5c6e' });
  expect(manifest.icons.map((i: { sizes: string }) => i.sizes)).toEqual(expect.arrayContaining(['192x192', '512x512']));
});
