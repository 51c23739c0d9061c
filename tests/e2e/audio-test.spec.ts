import { expect, test } from '@playwright/test';
import { signUpNewClinician } from './support/accounts';
import { expectNoAxeViolations } from './support/axe';
import { screenshotBothWidths } from './support/screenshots';

test('the 2-step audio test: choose the microphone, speak, see the level', async ({ page }) => {
  await signUpNewClinician(page, 'Dr. Hugo Matos');
  await page.goto('/settings/audio');
  await expect(page.getByText('Step 1 of 2: choose the microphone to record with.')).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByText('Step 2 of 2', { exact: false })).toBeVisible();
  // The fake microphone speaks: the level moves and the test says so.
  await expect(page.getByText('We can hear you.')).toBeVisible({ timeout: 15_000 });
  await expectNoAxeViolations(page);
  await screenshotBothWidths(page, 'audio-test');
  await page.getByRole('button', { name: 'Use this microphone' }).click();
  await expect(page.getByText('Your microphone works and will be used for recordings on this device.')).toBeVisible();
});
