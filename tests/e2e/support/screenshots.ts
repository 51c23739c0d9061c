import type { Page } from '@playwright/test';

export const VIEWPORTS = { phone: { width: 360, height: 780 }, desktop: { width: 1280, height: 800 } } as const;

/** Saves the screen at phone and desktop width under .tmp/screenshots, for people to look at. */
export async function screenshotBothWidths(page: Page, name: string): Promise<void> {
  const original = page.viewportSize();
  for (const [label, size] of Object.entries(VIEWPORTS)) {
    await page.setViewportSize(size);
    await page.screenshot({ path: `.tmp/screenshots/${name}-${label}.png`, fullPage: true });
  }
  if (original) await page.setViewportSize(original);
}
