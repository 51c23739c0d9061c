import { expect, test } from '@playwright/test';
import { signUpNewClinician } from './support/accounts';
import { appToken } from './support/api';
import { expectNoAxeViolations } from './support/axe';
import { screenshotBothWidths, VIEWPORTS } from './support/screenshots';

type Bundle = { entry: { resource: { resourceType: string; docStatus?: string; status?: string } }[] };

test('a document is a draft until the clinician signs it; the record gets it as preliminary, then final', async ({ page, request }) => {
  test.setTimeout(90_000);
  await signUpNewClinician(page, 'Dra. Sofia Lima');
  const headers = { authorization: `Bearer ${await appToken(page)}` };
  const created = await request.post('/v1/consultation_sessions', { headers, data: { consultation_type_id: 'general_consultation' } });
  const id = (await created.json()).consultation_session.id as string;
  await request.put(`/v1/consultation_sessions/${id}/transcription`, {
    headers,
    data: { transcription: 'Clinician: What brings you in?\nPatient: A dry cough for a week, no fever.\nClinician: Come back in two weeks.' },
  });
  expect((await request.put(`/v1/consultation_sessions/${id}/finish`, { headers })).ok()).toBe(true);
  const fhirDocStatus = async () => {
    const bundle = (await (await request.get(`/v1/consultation_sessions/${id}/fhir?document=main`, { headers })).json()) as Bundle;
    return bundle.entry.find((e) => e.resource.resourceType === 'DocumentReference')?.resource.docStatus;
  };

  for (const [label, size] of [
    ['phone', VIEWPORTS.phone],
    ['desktop', VIEWPORTS.desktop],
  ] as const) {
    await page.setViewportSize(size);
    await page.goto(`/consultation/${id}`);
    await expect(page.getByText(/Version \d+ of \d+/).first()).toBeVisible({ timeout: 20_000 });
    const status = page.getByTestId('sign-status').first();
    await expect(status).toContainText('Draft');
    await expect(page.getByRole('button', { name: 'Sign document' })).toBeVisible();
    await expectNoAxeViolations(page);
    if (label === 'desktop') {
      await screenshotBothWidths(page, 'document-draft');
      expect(await fhirDocStatus()).toBe('preliminary');
      // Signed after a confirmation that says what signing means.
      await page.getByRole('button', { name: 'Sign document' }).click();
      const dialog = page.getByRole('alertdialog').or(page.getByRole('dialog'));
      await expect(dialog).toContainText('Sign this document?');
      await dialog.getByRole('button', { name: 'Sign', exact: true }).click();
      await expect(status).toContainText('Signed on');
      await expect(page.getByRole('button', { name: 'Sign document' })).toHaveCount(0);
      await expectNoAxeViolations(page);
      await screenshotBothWidths(page, 'document-signed');
      expect(await fhirDocStatus()).toBe('final');
      // Still signed after a reload: the server keeps the signature, not the page.
      await page.reload();
      await expect(page.getByTestId('sign-status').first()).toContainText('Signed on', { timeout: 20_000 });
    }
  }
});
