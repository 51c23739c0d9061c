import { expect, test } from '@playwright/test';
import { signUpNewClinician } from './support/accounts';
import { appToken } from './support/api';
import { expectNoAxeViolations } from './support/axe';
import { screenshotBothWidths } from './support/screenshots';

test('what was said and left out of the notes is listed beside them, added to its section or dismissed', async ({ page, request }) => {
  test.setTimeout(90_000);
  await signUpNewClinician(page, 'Dr. Omar Reis');
  // A consultation with its notes written (through the API: the recording is tested elsewhere).
  const headers = { authorization: `Bearer ${await appToken(page)}` };
  const created = await request.post('/v1/consultation_sessions', { headers, data: { consultation_type_id: 'general_consultation' } });
  const id = (await created.json()).consultation_session.id as string;
  const transcription =
    'Clinician: Any allergies?\nPatient: Penicillin, it gives me a rash.\nClinician: Your blood pressure is 150 over 95 today. I will start lisinopril 10 mg once daily. Come back in two weeks.';
  await request.put(`/v1/consultation_sessions/${id}/transcription`, { headers, data: { transcription } });
  expect((await request.put(`/v1/consultation_sessions/${id}/finish`, { headers })).ok()).toBe(true);
  await expect
    .poll(
      async () =>
        (
          (await (await request.get(`/v1/consultation_sessions/${id}/generated_documents/main`, { headers })).json()) as {
            generated_document?: { status: string };
          }
        ).generated_document?.status,
      { timeout: 20_000 },
    )
    .toBe('done');
  // The clinician rewrote the notes by hand and left the medicine and the follow-up out.
  const rewritten =
    '# Consultation notes\n\n## Subjective\n- Allergic to penicillin (rash).\n\n## Objective\n- Blood pressure: 150/95 mmHg\n\n## Plan\n- Review.\n';
  const edit = await request.post(`/v1/consultation_sessions/${id}/generated_documents/main/regenerate`, {
    headers,
    multipart: { requested_changes: JSON.stringify({ markdown: rewritten }) },
  });
  expect(edit.status()).toBe(202);

  await page.goto(`/consultation/${id}`);
  await expect(page.getByText('Version 2 of 2')).toBeVisible({ timeout: 20_000 });
  const list = page.getByRole('region', { name: 'Said but not in the note' });
  await expect(list.getByRole('listitem')).toHaveCount(2);
  await expect(list.getByRole('listitem').first()).toContainText('I will start lisinopril 10 mg once daily.');
  await expect(list.getByRole('listitem').first()).toContainText('Not in the note: lisinopril, 10 mg');
  await expect(list.getByRole('listitem').nth(1)).toContainText('Come back in 2 weeks.');
  await expectNoAxeViolations(page);
  await screenshotBothWidths(page, 'notes-said-but-not-in-the-note');

  // Added to the plan as a new version; the list no longer names it.
  await list.getByRole('button', { name: 'Add to the note: I will start lisinopril 10 mg once daily.' }).click();
  await expect(page.getByText('Version 3 of 3')).toBeVisible({ timeout: 20_000 });
  const notes = page.getByTestId('document-text').first();
  await expect(notes.getByRole('heading', { name: 'Plan' })).toBeVisible();
  await expect(notes).toContainText('I will start lisinopril 10 mg once daily.');
  await expect(list.getByRole('listitem')).toHaveCount(1);

  // Dismissed: gone, and still gone after a reload.
  await list.getByRole('button', { name: 'Dismiss: Come back in 2 weeks.' }).click();
  await expect(list).toHaveCount(0);
  await page.reload();
  await expect(page.getByText('Version 3 of 3')).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole('region', { name: 'Said but not in the note' })).toHaveCount(0);
});
