import { expect, test } from '@playwright/test';
import { ConsultationPage } from './pages/consultation-page';
import { signUpNewClinician } from './support/accounts';
import { fetchSession } from './support/api';
import { expectNoAxeViolations } from './support/axe';
import { screenshotBothWidths } from './support/screenshots';

test.use({ permissions: ['microphone'] });

test('a Portuguese consultation with only the English local engine: told before recording, kept untranscribed, transcribed once said to be English', async ({
  page,
  request,
}) => {
  test.setTimeout(150_000);
  await signUpNewClinician(page, 'Dr. Tiago Reis');
  const consultation = new ConsultationPage(page);
  await consultation.startFromHome('General consultation');
  const language = page.getByLabel('Language spoken in this consultation');
  // The clinician's own language (this browser's English) until changed.
  await expect(language).toHaveValue('en');
  await expect(page.getByText(/does not transcribe/)).toHaveCount(0);

  await language.selectOption('pt');
  const warning = page.getByText('The speech engine on this server does not transcribe Português: it would write words that were never said.', {
    exact: false,
  });
  await expect(warning).toBeVisible();
  await expect(page.getByText('Ask the administrator of this server to connect one (Settings › AI engines).')).toBeVisible();
  await expectNoAxeViolations(page);
  await screenshotBothWidths(page, 'consultation-language-warning');

  // Recorded anyway (the espeak-ng microphone speaks English): nothing is transcribed, and the audio is kept.
  await consultation.startRecording();
  await page.waitForTimeout(7000);
  await consultation.finish();
  await expect(page.getByText('Everything recorded has reached the server.')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText(/Not transcribed: the speech engine on this server does not speak this consultation's language/)).toBeVisible({
    timeout: 30_000,
  });
  const kept = await fetchSession(request, page, consultation.sessionId);
  expect(kept.language).toBe('pt');
  expect(kept.transcription).toBe('');
  expect(kept.audios.length).toBeGreaterThan(0);
  expect(kept.audios.every((a) => a.transcription_status === 'unavailable' && a.audio_kept)).toBe(true);
  await screenshotBothWidths(page, 'consultation-language-kept');

  // It was English after all: the kept parts are transcribed, and the transcript says which engine wrote it.
  await language.selectOption('en');
  await expect(language).toHaveValue('en');
  await expect(warning).toBeHidden();
  await expect.poll(async () => (await fetchSession(request, page, consultation.sessionId)).transcription, { timeout: 90_000 }).not.toBe('');
  // The screen follows without a reload.
  await expect(page.getByText('Nothing transcribed yet.')).toBeHidden({ timeout: 30_000 });
  await expect(consultation.transcript).toContainText(/\p{L}{3,}/u);
  await expect(page.getByTestId('transcript-quality').first()).toContainText(/Demo quality.* — check every value against the recording\./);
  const done = await fetchSession(request, page, consultation.sessionId);
  expect(done.transcription_engines).toEqual(['pocketsphinx:generic']);
  await expectNoAxeViolations(page);
});
