import { expect, type Page } from '@playwright/test';

export const VIEWPORTS = { phone: { width: 360, height: 780 }, tablet: { width: 768, height: 1024 }, desktop: { width: 1280, height: 800 } } as const;

/** Saves the screen at phone, tablet and desktop width under .tmp/screenshots, for people to look at, after checking it fits the width. */
export async function screenshotBothWidths(page: Page, name: string): Promise<void> {
  const original = page.viewportSize();
  for (const [label, size] of Object.entries(VIEWPORTS)) {
    await page.setViewportSize(size);
    // Nothing may widen the page past the screen: on a 360 px phone that means sideways scrolling.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `${name} at ${label} width scrolls sideways by ${overflow}px`).toBeLessThanOrEqual(0);
    // From the top, so that the sticky header and the fixed navigation are drawn where a person sees them.
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: `.tmp/screenshots/${name}-${label}.png`, fullPage: true });
  }
  if (original) await page.setViewportSize(original);
}
