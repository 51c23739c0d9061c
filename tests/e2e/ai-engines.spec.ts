import { expect, test } from '@playwright/test';
import { E2E_PORTS } from '../../playwright.config';
import { startFakeOpenAi } from '../../server/src/test-support/fake-openai';
import { signUpNewClinician } from './support/accounts';
import { grantServerAdminWithCli } from './support/admin';
import { expectNoAxeViolations } from './support/axe';
import { screenshotBothWidths } from './support/screenshots';

// Copying a document writes the clipboard.
test.use({ permissions: ['microphone', 'clipboard-read', 'clipboard-write'] });

const KEY = 'sk-e2e-5b1c9d7a3f20e4c6';
let fake: Awaited<ReturnType<typeof startFakeOpenAi>>;
/** What the engine answers next; empty, it answers 'ok'. */
const script: Parameters<typeof startFakeOpenAi>[0] = [];
let admin: { email: string; password: string } | undefined;

test.beforeAll(async () => {
  // An engine speaking the OpenAI format where the server looks for engines on this machine.
  fake = await startFakeOpenAi(script, E2E_PORTS.fakeAi);
});

test.afterAll(async ({ request }) => {
  // The server is shared with the other browser tests: whatever happened, it goes back to its default engines.
  if (admin) {
    const login = await request.post('/v1/login', { data: { user: admin } });
    const headers = { authorization: String(login.headers().authorization) };
    for (const kind of ['speech', 'text']) await request.post(`/v1/ai_engines/${kind}/reset`, { headers, data: { password: admin.password } });
  }
  await fake.close();
});

test('an administrator of the server finds a local engine, tests it and switches the notes to it', async ({ page, request }) => {
  const clinician = await signUpNewClinician(page, 'Dr. Inês Teles');
  await page.goto('/settings/account');
  // A clinician, even an organisation's administrator, has no such section.
  await expect(page.getByRole('link', { name: 'AI engines' })).toHaveCount(0);

  grantServerAdminWithCli('main', E2E_PORTS.main, clinician.email);
  admin = clinician;
  await page.reload();
  await page.getByRole('link', { name: 'AI engines' }).click();
  await expect(page).toHaveURL(/\/settings\/ai-engines$/);
  const speech = page.getByTestId('engine-speech');
  const text = page.getByTestId('engine-text');
  await expect(text.getByTestId('active-engine')).toContainText('Assembled without AI');
  await expect(text.getByTestId('active-engine')).toContainText('default');

  // The local speech engine hears the test clip.
  await speech.getByRole('button', { name: 'Test the engine running now' }).click();
  await expect(speech.getByText(/The engine answered in \d+ ms/)).toBeVisible({ timeout: 30_000 });
  await expect(speech.getByText(/the clip says: “Blood pressure/)).toBeVisible();

  await page.getByRole('button', { name: 'Look for engines on this machine' }).click();
  const found = page.getByRole('list', { name: 'Engines found on this machine' });
  await expect(found).toContainText(`http://127.0.0.1:${E2E_PORTS.fakeAi}/v1`);
  await found.getByRole('button', { name: 'Use llama3.2:3b for text' }).click();
  await expect(text.getByLabel('Address (base URL)')).toHaveValue(`http://127.0.0.1:${E2E_PORTS.fakeAi}/v1`);
  await expect(text.getByLabel('Model')).toHaveValue('llama3.2:3b');
  await text.getByLabel('API key').fill(KEY);

  fake.received.length = 0;
  await text.getByRole('button', { name: 'Test', exact: true }).click();
  await expect(text.getByText(/The engine answered in \d+ ms: “ok”/)).toBeVisible();
  expect(fake.received.at(-1)!.headers.authorization).toBe(`Bearer ${KEY}`);
  await expectNoAxeViolations(page);

  // Saving asks for the password again.
  await text.getByRole('button', { name: 'Save…' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Enter your password to confirm.');
  await dialog.getByLabel('Password').fill('not-the-password');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText('The password is not correct.')).toBeVisible();
  await expectNoAxeViolations(page);
  await dialog.getByLabel('Password').fill(clinician.password);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect(text.getByText('Saved: new consultations use this engine now.')).toBeVisible();
  await expect(text.getByTestId('active-engine')).toContainText('OpenAI-compatible endpoint');
  await expect(text.getByTestId('active-engine')).toContainText('llama3.2:3b');
  await expect(text.getByTestId('active-engine')).toContainText('set here');
  // The key went to the server and does not come back.
  await expect(text.getByLabel('API key')).toHaveValue('');
  await expect(text.getByText('A key is saved for this address. Leave this empty to keep it.')).toBeVisible();
  expect(await page.content()).not.toContain(KEY);
  await screenshotBothWidths(page, 'settings-ai-engines');

  // The setting holds after a reload.
  await page.reload();
  await expect(text.getByTestId('active-engine')).toContainText('set here');

  // The notes are now the model's: what it adds that nobody said is flagged, and a copy waits for the clinician.
  const login = await request.post('/v1/login', { data: { user: { email: clinician.email, password: clinician.password } } });
  const headers = { authorization: String(login.headers().authorization) };
  const created = await request.post('/v1/consultation_sessions', { headers, data: { consultation_type_id: 'general_consultation' } });
  const id = (await created.json()).consultation_session.id as string;
  await request.put(`/v1/consultation_sessions/${id}/transcription`, {
    headers,
    data: { transcription: 'I have had chest pain for two days, mostly on the stairs.' },
  });
  script.push({ text: '# Consultation notes\n\n## Subjective\n- Chest pain for 2 days on the stairs.\n\n## Plan\n- Started aspirin 300 mg.', chunks: 3 });
  expect((await request.put(`/v1/consultation_sessions/${id}/finish`, { headers })).ok()).toBe(true);
  await page.goto(`/consultation/${id}`);
  await expect(page.getByText('Started aspirin 300 mg.').first()).toBeVisible({ timeout: 20_000 });
  await page.getByRole('button', { name: 'Copy as plain text' }).first().click();
  const check = page.getByRole('alertdialog', { name: 'Check these terms first' });
  await expect(check).toContainText('300, aspirin');
  await expectNoAxeViolations(page);
  await check.getByRole('button', { name: 'Cancel' }).click();
  await expect(check).toBeHidden();
  await expect(page.getByText('Copied.')).toHaveCount(0);
  await page.getByRole('button', { name: 'Copy as plain text' }).first().click();
  await page.getByRole('button', { name: 'I have checked them' }).click();
  await expect(page.getByText('Copied.').first()).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toContain('aspirin 300 mg');

  // A model stopped by its length limit: the note is not done, says why, costs nothing, and is written again.
  const cut = await request.post('/v1/consultation_sessions', { headers, data: { consultation_type_id: 'general_consultation' } });
  const cutId = (await cut.json()).consultation_session.id as string;
  await request.put(`/v1/consultation_sessions/${cutId}/transcription`, { headers, data: { transcription: 'He volunteers as a basketball coach.' } });
  script.push({ text: '# Consultation notes\n\n## Social\n- Volunteers as a basketb', chunks: 3, finishReason: 'length' });
  expect((await request.put(`/v1/consultation_sessions/${cutId}/finish`, { headers })).ok()).toBe(true);
  await page.goto(`/consultation/${cutId}`);
  await expect(page.getByRole('alert').filter({ hasText: 'it reached its length limit' })).toContainText('Nothing was charged.', { timeout: 20_000 });
  await expect(page.getByText('Incomplete: the engine stopped before the end.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Copy as plain text' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Export PDF' })).toHaveCount(0);
  await expectNoAxeViolations(page);
  await screenshotBothWidths(page, 'document-cut-off');
  script.push({ text: '# Consultation notes\n\n## Social\n- Volunteers as a basketball coach.', chunks: 3 });
  await page.getByRole('button', { name: 'Write again' }).first().click();
  await expect(page.getByText('Volunteers as a basketball coach.').first()).toBeVisible({ timeout: 20_000 });
  await expect(page.getByText('Incomplete: the engine stopped before the end.')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Copy as plain text' }).first()).toBeVisible();

  await page.goto('/settings/ai-engines');

  await text.getByRole('button', { name: 'Back to the default engine…' }).click();
  await page.getByRole('dialog').getByLabel('Password').fill(clinician.password);
  await page.getByRole('dialog').getByRole('button', { name: 'Go back to the default' }).click();
  await expect(text.getByText('The default engine runs again.')).toBeVisible();
  await expect(text.getByTestId('active-engine')).toContainText('Assembled without AI');
});
