import type { DocumentReference } from '@medplum/fhirtypes';
import { expect, test } from '@playwright/test';
import { fhirErrors, startFhirTestServer, type FhirTestServer } from '../../server/src/test-support/fhir-test-server';
import { signUpNewClinician } from './support/accounts';
import { appToken } from './support/api';
import { expectNoAxeViolations } from './support/axe';
import { screenshotBothWidths } from './support/screenshots';

let fhir: FhirTestServer;
test.beforeAll(async () => {
  fhir = await startFhirTestServer();
});
test.afterAll(async () => {
  await fhir.close();
});

test('an admin sets the record system; a finished consultation goes to it as FHIR, and downloads as FHIR too', async ({ page, request }) => {
  test.setTimeout(90_000);
  await signUpNewClinician(page, 'Dra. Marta Leal');
  await page.getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('link', { name: 'Organization' }).click();
  const card = page.getByRole('region', { name: 'Record system (FHIR)' });
  await card.getByLabel('FHIR base address').fill(fhir.base);
  await card.getByLabel('Sign-in').selectOption({ label: 'Access token' });
  await card.getByLabel('Access token').fill('record-token-e2e');
  fhir.acceptToken('record-token-e2e');
  await card.getByRole('button', { name: 'Save' }).click();
  await expect(card.getByText('Record system saved.')).toBeVisible();
  await expect(card.getByText('A token is saved. Leave this empty to keep it.')).toBeVisible();
  expect(await page.content()).not.toContain('record-token-e2e');
  await expectNoAxeViolations(page);
  await screenshotBothWidths(page, 'settings-record-system');

  // A consultation with its notes written (through the API: the recording is tested elsewhere).
  const headers = { authorization: `Bearer ${await appToken(page)}` };
  const created = await request.post('/v1/consultation_sessions', { headers, data: { consultation_type_id: 'general_consultation' } });
  const id = (await created.json()).consultation_session.id as string;
  await request.put(`/v1/consultation_sessions/${id}/transcription`, {
    headers,
    data: { transcription: 'Sore throat for four days, no fever. Paracetamol when needed.' },
  });
  expect((await request.put(`/v1/consultation_sessions/${id}/finish`, { headers })).ok()).toBe(true);
  await page.goto(`/consultation/${id}`);
  await expect(page.getByText('Sore throat', { exact: false }).first()).toBeVisible({ timeout: 20_000 });

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download FHIR' }).first().click();
  expect((await download).suggestedFilename()).toMatch(/\.fhir\.json$/);

  await page.getByRole('button', { name: 'Send to record' }).first().click();
  await expect(page.getByText('Sent to the record system (documents filed: 1).').first()).toBeVisible();
  const filed = (fhir.stored.get('DocumentReference') ?? []) as DocumentReference[];
  expect(filed).toHaveLength(1);
  expect(fhirErrors(filed[0]!)).toEqual([]);
  expect(filed[0]!.author![0]!.display).toBe('Dra. Marta Leal');
  await expectNoAxeViolations(page);

  // The record system refuses: the clinician reads its answer, not a generic failure.
  fhir.failNext(5, 503);
  await page.getByRole('button', { name: 'Send to record' }).first().click();
  await expect(page.getByText('The record system did not accept the documents. (503: The record system is busy)').first()).toBeVisible({ timeout: 15_000 });
  fhir.failNext(0, 503);
});

test('a launch from the record system signs a new clinician in and opens the consultation for the patient on screen', async ({ page, browser }) => {
  test.setTimeout(90_000);
  const { email, password } = await signUpNewClinician(page, 'Dr. Paulo Lança');
  await page.getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('link', { name: 'Organization' }).click();
  const card = page.getByRole('region', { name: 'Record system (FHIR)' });
  await card.getByLabel('FHIR base address').fill(fhir.base);
  await card.getByLabel('Sign-in').selectOption({ label: 'Access token' });
  await card.getByLabel('Access token').fill('launch-token-e2e');
  await card.getByLabel('Client id for launches from the record system (optional)').fill('cn-e2e-launch');
  await card.getByRole('button', { name: 'Save' }).click();
  await expect(card.getByText('Record system saved.')).toBeVisible();
  // What the record system's admin registers: this organization's launch address and the return address.
  const origin = new URL(page.url()).origin;
  const callback = `${origin}/launch/callback`;
  await expect(card.getByText(callback)).toBeVisible();
  const launchAddress = (await card
    .locator('code', { hasText: `${origin}/launch/` })
    .filter({ hasNotText: 'callback' })
    .textContent())!;
  expect(launchAddress).toMatch(/\/launch\/[0-9a-f-]{36}$/);
  await screenshotBothWidths(page, 'settings-record-system-launch');

  fhir.registerLaunchClient('cn-e2e-launch', callback);
  // A colleague new to the app; an existing account (here the organization's admin) only with its password.
  const newcomer = `new.${Date.now()}@clinic.test`;
  fhir.registerLaunch('e2e-launch-1', { patient: 'pt-e2e', encounter: 'enc-e2e', email: newcomer, name: 'Dra. Sara Nova' });
  fhir.registerLaunch('e2e-launch-2', { patient: 'pt-e2e', email });
  // The record system's own window: nobody signed in there yet.
  const ehr = await browser.newContext();
  const window = await ehr.newPage();
  await window.goto(`${launchAddress}?iss=${encodeURIComponent(fhir.base)}&launch=e2e-launch-1`);
  // Home offers the consultation under way (or the app already followed it there).
  const goBack = window.getByRole('button', { name: 'Go back to it' });
  const heading = window.getByRole('heading', { level: 1, name: 'General consultation' });
  await expect(goBack.or(heading)).toBeVisible({ timeout: 20_000 });
  if (await goBack.isVisible()) await goBack.click();
  await expect(window).toHaveURL(/\/consultation(_v2)?\/[0-9a-f-]+$/);
  await expect(heading).toBeVisible();
  await ehr.close();

  const second = await browser.newContext();
  const other = await second.newPage();
  await other.goto(`${launchAddress}?iss=${encodeURIComponent(fhir.base)}&launch=e2e-launch-2`);
  await expect(other).toHaveURL(/\/launch_link$/);
  await expect(other.locator('strong', { hasText: email })).toBeVisible();
  // An admin's account: its password at every launch, and the record system's user shown before it is typed.
  await expect(other.getByText('This account administers its organization', { exact: false })).toBeVisible();
  await expectNoAxeViolations(other);
  await screenshotBothWidths(other, 'launch-link');
  const linkButton = other.getByRole('button', { name: 'Open the consultation' });
  await linkButton.click();
  await expect(other.getByText('Enter your password')).toBeVisible();
  await other.getByLabel('Password').fill('not-my-password');
  await linkButton.click();
  await expect(other.getByText('Invalid credentials')).toBeVisible();
  await other.getByLabel('Password').fill(password);
  await linkButton.click();
  const goBackThere = other.getByRole('button', { name: 'Go back to it' });
  const headingThere = other.getByRole('heading', { level: 1, name: 'General consultation' });
  await expect(goBackThere.or(headingThere)).toBeVisible({ timeout: 20_000 });
  await second.close();

  // A member's record system user, linked at the first launch: the next launch signs in with no password.
  fhir.registerLaunch('e2e-launch-3', { patient: 'pt-e2e-2', email: newcomer });
  const third = await browser.newContext();
  const again = await third.newPage();
  await again.goto(`${launchAddress}?iss=${encodeURIComponent(fhir.base)}&launch=e2e-launch-3`);
  await expect(again.getByRole('button', { name: 'Go back to it' }).or(again.getByRole('heading', { level: 1, name: 'General consultation' }))).toBeVisible({
    timeout: 20_000,
  });
  await expect(again).not.toHaveURL(/launch_link|launch_failed/);

  // A launch the record system refuses lands on the page that says why, also from a browser whose service worker
  // already holds the app (it must leave the launch address to the server, not answer it with the cached app).
  await again.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await again.goto(`${launchAddress}?iss=${encodeURIComponent(fhir.base)}&launch=no-such-launch`);
  await expect(again).toHaveURL(/\/launch_failed\?reason=refused$/);
  await expect(again.getByText('The record system did not authorize this app.', { exact: false })).toBeVisible();
  await expectNoAxeViolations(again);
  await screenshotBothWidths(again, 'launch-failed');
  await third.close();
});
