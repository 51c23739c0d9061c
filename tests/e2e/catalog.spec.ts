import { expect, test } from '@playwright/test';
import { E2E_PORTS } from '../../playwright.config';
import { signUpNewClinician } from './support/accounts';
import { publishAnnouncementWithCli } from './support/admin';
import { expectNoAxeViolations } from './support/axe';
import { screenshotBothWidths } from './support/screenshots';

test('home-v2: the assistants catalogue by country, pinned to quick access, started from there', async ({ page }) => {
  test.setTimeout(90_000);
  await signUpNewClinician(page, 'Dra. Lúcia Faria');
  await page.goto('/settings/account');
  await page.getByLabel('Use the alternative home page').check();
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Your details were saved.')).toBeVisible();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home' }).click();
  await expect(page).toHaveURL(/\/v2$/);
  await expect(page.getByRole('heading', { name: 'Quick access' })).toBeVisible();
  // Quick access holds the recent completed consultations (none yet for a new clinician) before the assistants.
  const quick = page.getByRole('region', { name: 'Quick access' });
  await expect(quick.getByRole('heading', { name: 'Recent consultations', level: 3 })).toBeVisible();
  await expect(quick.getByText('No recent consultations.')).toBeVisible();
  await expect(page.getByTestId('recommended-assistant').first()).toBeVisible();

  const catalogue = page.getByRole('region', { name: 'Assistants catalogue' }).or(page.locator('section.catalog'));
  await catalogue.getByLabel('Country catalogue').selectOption({ label: 'Germany' });
  await expect(catalogue.getByRole('button', { name: 'General practice consultation (Germany)' })).toBeVisible();
  await catalogue.getByLabel('Search assistants').fill('dictat');
  await expect(catalogue.getByRole('button', { name: 'General practice consultation (Germany)' })).toHaveCount(0);
  await catalogue.getByRole('button', { name: 'Dictaphone' }).click();
  await expect(catalogue.getByRole('heading', { name: 'Dictaphone', level: 3 })).toBeVisible();
  await catalogue.getByRole('button', { name: 'Pin to quick access' }).click();
  await expect(page.getByTestId('pinned-assistant')).toHaveCount(1);
  await expect(page.getByTestId('pinned-assistant')).toContainText('Dictaphone');
  await expectNoAxeViolations(page);
  await screenshotBothWidths(page, 'home-v2-catalogue');

  await page.getByTestId('pinned-assistant').getByRole('button', { name: 'Start: Dictaphone' }).click();
  await expect(page).toHaveURL(/\/dictaphone\/consultation\/[0-9a-f-]+$/);
});

test('home shows support’s announcements in the clinician’s language, paged by hand', async ({ page }) => {
  const stamp = Date.now().toString(36);
  publishAnnouncementWithCli('main', E2E_PORTS.main, 'en', `Templates ${stamp}`, 'Keep your own layouts in the Templates page.');
  publishAnnouncementWithCli('main', E2E_PORTS.main, 'en', `Catalogue ${stamp}`, 'Pin your assistants on the alternative home.');
  publishAnnouncementWithCli('main', E2E_PORTS.main, 'pt', `Só em português ${stamp}`, 'Não aparece em inglês.');
  await signUpNewClinician(page, 'Dr. Filipe Rocha');
  const carousel = page.getByRole('region', { name: 'Announcements' });
  await expect(carousel.getByRole('heading', { name: `Catalogue ${stamp}` })).toBeVisible();
  await expect(carousel).toContainText(/1 of \d+/);
  await expect(page.getByText(`Só em português ${stamp}`)).toHaveCount(0);
  await carousel.getByRole('button', { name: 'Next announcement' }).click();
  await expect(carousel.getByRole('heading', { name: `Templates ${stamp}` })).toBeVisible();
  await expectNoAxeViolations(page);
});
