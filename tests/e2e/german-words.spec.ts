import { expect, test, type Page } from '@playwright/test';
import { signUpNewClinician } from './support/accounts';
import { VIEWPORTS } from './support/screenshots';

/** German screens whose labels hold long compounds (Einstellungen, Organisationseinstellungen, Aufbewahrungsfrist…). */
const SCREENS = ['/', '/settings/account', '/settings/organisation', '/settings/credits', '/settings/preferences', '/editor', '/trials'];

/**
 * The words drawn over two lines: a range over a word that has more than one line box was broken inside. Words of
 * addresses and code (e-mail, links, keys) may break anywhere and are left out.
 */
async function wordsBrokenAcrossLines(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || parent.closest('code, .visually-hidden, [aria-hidden="true"], input, textarea, select, option')) continue;
      if (!parent.checkVisibility({ visibilityProperty: true })) continue;
      const hyphenated = getComputedStyle(parent).hyphens === 'auto';
      // A break after a hyphen (SOAP-|Notizen) is a proper one; e-mail addresses and links break where they must.
      if (/[@/]/.test(node.textContent ?? '')) continue;
      for (const match of (node.textContent ?? '').matchAll(/[\p{L}\p{M}\u00AD]{6,}/gu)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
        if (lines.size > 1) out.push(`${match[0]}${hyphenated ? '' : ' (without hyphens: auto)'}`);
      }
    }
    return out;
  });
}

test('German at 360 px: long words are hyphenated, in the page language, never cut at a random letter without it', async ({ page, browser }) => {
  test.setTimeout(120_000);
  await signUpNewClinician(page, 'Dr. Friedrich Vollständigkeitsprüfer');
  await page.getByRole('banner').getByLabel('Language').selectOption('de');
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await page.setViewportSize(VIEWPORTS.phone);
  const broken: string[] = [];
  for (const path of SCREENS) {
    await page.goto(path);
    await expect(page.locator('main h1, main h2').first()).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('de');
    // Text may hyphenate, in the page's language, wherever it is drawn.
    expect(await page.evaluate(() => getComputedStyle(document.querySelector('main') ?? document.body).hyphens)).toBe('auto');
    for (const word of await wordsBrokenAcrossLines(page)) broken.push(`${path}: ${word}`);
    await page.screenshot({ path: `.tmp/screenshots/de-words${path.replaceAll('/', '-') || '-home'}-phone.png`, fullPage: true });
  }
  // A consultation, and the screens before signing in (their card lets long addresses wrap anywhere).
  await page.goto('/');
  await page.getByRole('button', { name: 'Starten' }).first().click();
  await expect(page.locator('main h1').first()).toBeVisible();
  await page.waitForLoadState('networkidle');
  for (const word of await wordsBrokenAcrossLines(page)) broken.push(`consultation: ${word}`);
  await page.screenshot({ path: '.tmp/screenshots/de-words-consultation-phone.png', fullPage: true });
  const signedOut = await browser.newContext({ viewport: VIEWPORTS.phone });
  await signedOut.addInitScript(() => localStorage.setItem('locale', 'de'));
  const visitor = await signedOut.newPage();
  for (const path of ['/login', '/signup', '/reset']) {
    await visitor.goto(path);
    await expect(visitor.locator('h1, h2').first()).toBeVisible();
    expect(await visitor.evaluate(() => document.documentElement.lang)).toBe('de');
    for (const word of await wordsBrokenAcrossLines(visitor)) broken.push(`${path}: ${word}`);
    await visitor.screenshot({ path: `.tmp/screenshots/de-words${path.replaceAll('/', '-')}-phone.png`, fullPage: true });
  }
  await signedOut.close();
  // A word broken across lines is acceptable only where the browser may hyphenate it (hyphens: auto, lang="de").
  expect(broken.filter((w) => w.includes('without hyphens'))).toEqual([]);
});
