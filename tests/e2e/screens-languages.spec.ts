import { expect, test, type Page } from '@playwright/test';
import { signUpNewClinician } from './support/accounts';
import { expectNoSeriousAxeFindings } from './support/axe';
import { VIEWPORTS } from './support/screenshots';

/** The screens a clinician moves between every day, each with something on it that says it has loaded. */
const SCREENS: { name: string; path: string; ready: (page: Page) => ReturnType<Page['locator']> }[] = [
  { name: 'home', path: '/', ready: (p) => p.locator('[data-home]') },
  { name: 'settings', path: '/settings', ready: (p) => p.locator('.settings-nav') },
  { name: 'settings-account', path: '/settings/account', ready: (p) => p.locator('.settings-detail form').first() },
  { name: 'settings-organization', path: '/settings/organisation', ready: (p) => p.locator('#org-invitations') },
  { name: 'settings-access-log', path: '/settings/access-log', ready: (p) => p.locator('.settings-detail h2').first() },
  { name: 'templates', path: '/editor', ready: (p) => p.locator('.template-new').first() },
  { name: 'research', path: '/trials', ready: (p) => p.locator('main h1') },
];

/**
 * Controls a person cannot reach on this screen: outside the window's width, or cut off by a container that
 * scrolls or clips sideways (a table's last column off the side of a phone).
 */
async function clippedControls(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    const width = window.innerWidth;
    for (const el of document.querySelectorAll<HTMLElement>('button, a[href], input:not([type=hidden]), select, textarea')) {
      if (!el.checkVisibility({ visibilityProperty: true }) || el.closest('.visually-hidden') || el.classList.contains('visually-hidden')) continue;
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      const name = `${el.tagName.toLowerCase()} "${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 40)}"`;
      if (r.left < -1 || r.right > width + 1) {
        out.push(`${name} is outside the window (${Math.round(r.left)}–${Math.round(r.right)} of ${width})`);
        continue;
      }
      for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
        const overflow = getComputedStyle(p).overflowX;
        if (overflow === 'visible') continue;
        const box = p.getBoundingClientRect();
        if (r.left < box.left - 1 || r.right > box.right + 1) {
          out.push(`${name} is cut off by its container (${p.className || p.tagName})`);
          break;
        }
      }
    }
    return out;
  });
}

for (const language of ['pt', 'de'] as const) {
  test(`every main screen fits a phone, a tablet and a desktop in ${language}, with nothing off-screen`, async ({ page }) => {
    test.setTimeout(180_000);
    await signUpNewClinician(page, 'Dra. Beatriz Nogueira-Sampaio');
    await page.getByRole('banner').getByLabel('Language').selectOption(language);
    await expect(page.locator('html')).toHaveAttribute('lang', language);
    for (const screen of SCREENS) {
      await page.setViewportSize(VIEWPORTS.desktop);
      await page.goto(screen.path);
      await expect(screen.ready(page)).toBeVisible();
      await expect(page.locator('html')).toHaveAttribute('lang', language);
      for (const [label, size] of Object.entries(VIEWPORTS)) {
        await page.setViewportSize(size);
        if (screen.name === 'settings' && label === 'phone') await expect(page.locator('.settings-nav')).toBeVisible();
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, `${screen.name} at ${label} scrolls sideways`).toBeLessThanOrEqual(0);
        expect(await clippedControls(page), `${screen.name} at ${label}`).toEqual([]);
        await page.evaluate(() => window.scrollTo(0, 0));
        await page.screenshot({ path: `.tmp/screenshots/${language}-${screen.name}-${label}.png`, fullPage: true });
      }
      // The stricter accessibility pass, on the phone layout where most of the layout changes happen.
      await page.setViewportSize(VIEWPORTS.phone);
      await expectNoSeriousAxeFindings(page);
    }
  });
}
