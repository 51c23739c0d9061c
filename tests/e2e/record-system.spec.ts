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
  await page.getByRole('link', { name: 'Organisation' }).click();
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
  await request.put(`/v1/consultation_sessions/${id}/transcription`, { headers, data: { transcription: 'Sore throat for four days, no fever. Paracetamol when needed.' } });
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
