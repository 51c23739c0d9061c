import { expect, test } from '@playwright/test';
import { readdirSync } from 'node:fs';

test('the shell loads offline after a first visit', async ({ page, context }) => {
  await page.goto('/login');
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  // Wait until the service worker is installed and controls the page.
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.reload();
  await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);
  // The page the service worker answers with carries the server's runtime settings too (error reporting's address).
  await expect(page.locator('meta[name="sentry-dsn"]')).toHaveCount(1);

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

test('the service worker keeps the shell at once and code used now and then from its first use', async ({ page, context }) => {
  await page.goto('/login');
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.reload();
  await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);
  const precached = await page.evaluate(async () => {
    const urls: string[] = [];
    for (const name of await caches.keys())
      if (name.includes('precache')) for (const r of await (await caches.open(name)).keys()) urls.push(new URL(r.url).pathname);
    return urls;
  });
  // What records offline is there from the first visit; PDF export and error reporting are not.
  expect(precached.some((u) => /\/assets\/ConsultationScreen-/.test(u))).toBe(true);
  expect(precached.filter((u) => u.includes('/assets/on-demand/'))).toEqual([]);

  const onDemand = readdirSync('dist/assets/on-demand').filter((f) => f.startsWith('export-pdf-') && f.endsWith('.js'));
  expect(onDemand).toHaveLength(1);
  const url = `/assets/on-demand/${onDemand[0]}`;
  const fetchStatus = () =>
    page.evaluate(
      (u) =>
        fetch(u).then(
          (r) => r.status,
          () => 0,
        ),
      url,
    );
  expect(await fetchStatus()).toBe(200);
  await context.setOffline(true);
  expect(await fetchStatus()).toBe(200);
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
