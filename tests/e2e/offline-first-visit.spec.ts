import { type BrowserContext, expect, type Page, test } from '@playwright/test';
import { signUpNewClinician } from './support/accounts';
import { appToken } from './support/api';
import { expectNoSeriousAxeFindings } from './support/axe';
import { screenshotBothWidths, VIEWPORTS } from './support/screenshots';

/**
 * The app keeps working on hospital Wi-Fi: once installed, every screen opens for the first time with no connection,
 * or shows a designed screen in the clinician's language that says what works offline and opens it by itself once
 * the connection is back. Never the router's raw English error.
 */

const RAW_ERROR = /Something went wrong/i;

/** Signs up, in Portuguese (the product's default), and waits until the service worker controls the page. */
async function installedInPortuguese(page: Page): Promise<void> {
  await signUpNewClinician(page, 'Dra. Inês Carvalho');
  await page.getByRole('banner').getByLabel('Language').selectOption('pt');
  await expect(page.locator('html')).toHaveAttribute('lang', 'pt');
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  // The first installation takes charge of the page that installed it: no reload is needed for the app to work offline.
  await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);
}

/** At phone and desktop width: nothing serious for axe, and a screenshot to look at. */
async function checkAtBothWidths(page: Page, name: string): Promise<void> {
  for (const size of [VIEWPORTS.phone, VIEWPORTS.desktop]) {
    await page.setViewportSize(size);
    await expectNoSeriousAxeFindings(page);
  }
  await screenshotBothWidths(page, name);
  await page.setViewportSize(VIEWPORTS.desktop);
}

/** The screen drew itself (its title is there) in Portuguese: neither the offline screen nor the router's error. */
async function expectScreen(page: Page, heading: ReturnType<Page['locator']>): Promise<void> {
  await expect(heading).toBeVisible();
  await expect(page.locator('.screen-problem')).toHaveCount(0);
  await expect(page.locator('body')).not.toContainText(RAW_ERROR);
  await expect(page.locator('html')).toHaveAttribute('lang', 'pt');
}

async function precachedPaths(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const urls: string[] = [];
    for (const name of await caches.keys())
      if (name.includes('precache')) for (const r of await (await caches.open(name)).keys()) urls.push(new URL(r.url).pathname);
    return urls;
  });
}

async function offline(context: BrowserContext, page: Page): Promise<void> {
  await context.setOffline(true);
  await expect.poll(() => page.evaluate(() => navigator.onLine)).toBe(false);
}

test('once installed, every screen opens for the first time offline, in the clinician’s language', async ({ page, context, request }) => {
  test.setTimeout(300_000);
  await installedInPortuguese(page);
  // Every screen's code is kept at installation, however rarely it is opened.
  const precached = await precachedPaths(page);
  for (const chunk of ['HomeScreen-', 'ConsultationScreen-', 'SettingsScreen-', 'settings._', 'editor._', 'trials._', 'organization.invitations.'])
    expect(
      precached.some((path) => path.startsWith(`/assets/${chunk}`)),
      chunk,
    ).toBe(true);
  expect(precached.filter((path) => path.includes('/on-demand/'))).toEqual([]);

  // A consultation this device has never opened, started elsewhere (on the clinician's phone, say).
  const token = await appToken(page);
  const created = await request.post('/v1/consultation_sessions', {
    headers: { authorization: `Bearer ${token}` },
    data: { consultation_type_id: 'general_consultation' },
  });
  const consultationId = (await created.json()).consultation_session.id as string;
  const userId = await page.evaluate(() => JSON.parse(localStorage.getItem('user') ?? sessionStorage.getItem('user') ?? '{}').id as string);

  await offline(context, page);
  // Through the app's own navigation first, as the clinician does: Settings, Templates and Research.
  const nav = page.locator('.app-nav');
  for (const [href, name] of [
    ['/settings', 'settings'],
    ['/editor', 'templates'],
    ['/trials', 'research'],
  ] as const) {
    await nav.locator(`a[href="${href}"]`).click();
    await expectScreen(page, page.locator('main h1'));
    await checkAtBothWidths(page, `offline-first-${name}`);
  }

  // Then by address (a bookmark, a reload): each screen and every section of Settings.
  const sections = ['account', 'organisation', 'access-log', 'audio', 'credits', 'history', 'support', 'tools', 'marketing', 'storage'];
  const screens: { path: string; name: string; heading: (p: Page) => ReturnType<Page['locator']> }[] = [
    { path: '/', name: 'home', heading: (p) => p.locator('[data-home]') },
    // Never seen on this device, it cannot be shown offline: the screen itself says the server cannot be reached.
    {
      path: `/consultation/${consultationId}`,
      name: 'consultation',
      heading: (p) => p.locator('main').getByRole('alert').filter({ hasText: 'Problemas de ligação' }),
    },
    { path: '/settings', name: 'settings', heading: (p) => p.locator('.settings-nav') },
    // A section whose content comes from the server says the server cannot be reached.
    ...sections.map((section) => ({
      path: `/settings/${section}`,
      name: `settings-${section}`,
      heading: (p: Page) => p.locator('.settings-detail').locator('h2, [role=alert]').first(),
    })),
    { path: `/settings/history/${userId}`, name: 'settings-history-user', heading: (p) => p.locator('main h1') },
    { path: '/editor', name: 'templates', heading: (p) => p.locator('main h1') },
    { path: '/trials', name: 'research', heading: (p) => p.locator('main h1') },
    { path: '/organization/invitations/an-invitation', name: 'invitation', heading: (p) => p.locator('h1') },
  ];
  for (const screen of screens) {
    await page.goto(screen.path);
    await expectScreen(page, screen.heading(page));
    await checkAtBothWidths(page, `offline-first-${screen.name}`);
  }

  // The alternative home (the assistants catalogue), chosen on another device: this one learns it from its stored account.
  await page.evaluate(() => {
    for (const storage of [localStorage, sessionStorage]) {
      const user = storage.getItem('user');
      if (user) storage.setItem('user', JSON.stringify({ ...JSON.parse(user), v2_home: true }));
    }
    localStorage.setItem('v2_home', 'true');
  });
  await page.goto('/v2');
  await expectScreen(page, page.locator('[data-home]'));
  await checkAtBothWidths(page, 'offline-first-catalog');
  await context.setOffline(false);
});

test('a screen whose code is not on the device yet says what works offline, in the language, and opens itself once back online', async ({ page, context }) => {
  test.setTimeout(120_000);
  await installedInPortuguese(page);
  // As if the installation had not finished: the research screen's code is neither kept nor in the browser's cache,
  // and cannot be fetched.
  const researchCode = /\/assets\/trials\._[^/]*\.js$/;
  const removed = await page.evaluate(async (pattern) => {
    const gone: string[] = [];
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      for (const request of await cache.keys())
        if (new RegExp(pattern).test(new URL(request.url).pathname) && (await cache.delete(request))) gone.push(request.url);
    }
    return gone;
  }, researchCode.source);
  expect(removed).toHaveLength(1);
  let reachable = false;
  await context.route(researchCode, (route) => (reachable ? route.continue() : route.abort('internetdisconnected')));

  await offline(context, page);
  await page.locator('.app-nav a[href="/trials"]').click();
  const heading = page.getByRole('heading', { level: 1, name: 'Este ecrã precisa de ligação da primeira vez' });
  await expect(heading).toBeVisible();
  await expect(page.getByText('Este dispositivo está sem ligação')).toBeVisible();
  await expect(page.getByText('a gravação funciona sem ligação')).toBeVisible();
  // Inside the app's frame: the way to home and to a recording stays.
  await expect(page.locator('.app-nav')).toBeVisible();
  await expect(page.locator('body')).not.toContainText(RAW_ERROR);
  await checkAtBothWidths(page, 'offline-screen-not-kept');

  // The button tries again (still offline: the same screen), and the connection's return opens the screen by itself.
  await page.getByRole('button', { name: 'Tentar novamente' }).click();
  await expect(heading).toBeVisible();
  reachable = true;
  await context.setOffline(false);
  await expect(page.getByRole('heading', { level: 1, name: 'Espaços de investigação' })).toBeVisible({ timeout: 20_000 });
  await expect(page.locator('.screen-problem')).toHaveCount(0);
});

test.describe('route errors', () => {
  // API answers are replaced below: the page's own requests, with no service worker in between.
  test.use({ serviceWorkers: 'block' });

  test('a screen that fails to draw, and an unknown address, say so in the language with a way home', async ({ page }) => {
    await signUpNewClinician(page, 'Dr. Rui Antunes');
    await page.getByRole('banner').getByLabel('Language').selectOption('pt');
    await expect(page.locator('html')).toHaveAttribute('lang', 'pt');

    // An answer the screen does not expect (a broken proxy, a server half-updated) makes it throw while drawing.
    await page.route('**/v1/research_spaces', (route) => route.fulfill({ json: { research_spaces: [null] } }));
    await page.locator('.app-nav a[href="/trials"]').click();
    await expect(page.getByRole('heading', { level: 1, name: 'Não foi possível mostrar este ecrã' })).toBeVisible();
    await expect(page.locator('.app-nav')).toBeVisible();
    await expect(page.locator('body')).not.toContainText(RAW_ERROR);
    await expect(page.locator('body')).not.toContainText(/Cannot read|TypeError/);
    await checkAtBothWidths(page, 'route-error-screen');

    // Trying again once the answer is right draws the screen.
    await page.unroute('**/v1/research_spaces');
    await page.getByRole('button', { name: 'Tentar novamente' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Espaços de investigação' })).toBeVisible();

    await page.goto('/no-such-screen');
    await expect(page.getByRole('heading', { level: 1, name: 'Página não encontrada' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Ir para a página inicial' })).toBeVisible();
    await checkAtBothWidths(page, 'route-not-found');
  });
});
