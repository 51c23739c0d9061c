import { expect, test, type Page } from '@playwright/test';
import { ConsultationPage } from './pages/consultation-page';
import { signUpNewClinician } from './support/accounts';
import { fetchSession } from './support/api';
import { expectNoSeriousAxeFindings } from './support/axe';
import { screenshotBothWidths } from './support/screenshots';

const elapsedMs = async (page: Page) => Number(await page.getByLabel('Time recorded').getAttribute('data-elapsed-ms'));
/** "3:12" → 192 000 ms. */
const msOf = (time: string) => time.split(':').reduce((total, part) => total * 60 + Number(part), 0) * 1000;

test("a clinician's first consultation suggests the audio test, which runs in a dialog and is not suggested again once done", async ({ page }) => {
  await signUpNewClinician(page, 'Dra. Sofia Brandão');
  const consultation = new ConsultationPage(page);
  await consultation.startFromHome('General consultation');
  const suggestion = page.getByRole('region', { name: 'Audio test' });
  await expect(suggestion).toContainText('Your first consultation: check the microphone with the audio test before recording.');
  await expectNoSeriousAxeFindings(page);
  await screenshotBothWidths(page, 'consultation-audio-test-suggestion');

  await suggestion.getByRole('button', { name: 'Test the microphone' }).click();
  const dialog = page.getByRole('dialog', { name: 'Audio test' });
  await expect(dialog.getByText('Step 1 of 2: choose the microphone to record with.')).toBeVisible();
  await dialog.getByRole('button', { name: 'Next' }).click();
  await expect(dialog.getByText('We can hear you.')).toBeVisible({ timeout: 15_000 });
  await expectNoSeriousAxeFindings(page);
  await screenshotBothWidths(page, 'consultation-audio-test-dialog');
  await dialog.getByRole('button', { name: 'Use this microphone' }).click();
  await expect(dialog.getByText('Your microphone works and will be used for recordings on this device.')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(suggestion).toHaveCount(0);
  // The consultation's screen stayed where it was, ready to record.
  await expect(page.getByRole('button', { name: 'Start recording' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('button', { name: 'Start recording' })).toBeVisible({ timeout: 15_000 });
  await expect(page.getByRole('region', { name: 'Audio test' })).toHaveCount(0);
});

test('a reload mid-recording says recording stopped and at what time; one touch continues it, and every part reaches the server in order', async ({
  page,
  request,
}) => {
  test.setTimeout(150_000);
  await signUpNewClinician(page, 'Dr. Vasco Amaral');
  const consultation = new ConsultationPage(page);
  await consultation.startFromHome('General consultation');
  const id = consultation.sessionId;
  // The first consultation's suggestion, dismissed: it does not come back.
  await page.getByRole('region', { name: 'Audio test' }).getByRole('button', { name: 'Dismiss' }).click();
  await expect(page.getByRole('region', { name: 'Audio test' })).toHaveCount(0);

  await consultation.startRecording();
  await page.waitForTimeout(7000);
  const beforeReload = await elapsedMs(page);
  await page.reload();

  const notice = page.getByRole('region', { name: 'Recording stopped' });
  await expect(notice).toBeVisible({ timeout: 15_000 });
  const said = (await notice.getByRole('status').textContent()) ?? '';
  const match = said.match(/^Recording stopped at (\d+:\d\d) when the page was reloaded\. What was recorded is kept\.$/);
  expect(match, said).not.toBeNull();
  // The time the saved audio reaches: what the timer showed, less at most the half second not yet saved.
  expect(msOf(match![1]!)).toBeGreaterThanOrEqual(Math.floor((beforeReload - 1500) / 1000) * 1000);
  expect(msOf(match![1]!)).toBeLessThanOrEqual(beforeReload + 1000);
  // One way to continue on the screen, in the notice; the suggestion does not come back.
  await expect(page.getByRole('button', { name: /^(Start|Continue) recording$/ })).toHaveCount(1);
  await expect(page.getByRole('region', { name: 'Audio test' })).toHaveCount(0);
  await expectNoSeriousAxeFindings(page);
  await screenshotBothWidths(page, 'consultation-recording-stopped');

  await notice.getByRole('button', { name: 'Continue recording' }).click();
  await expect(page.locator('.recording-status').getByText('Recording', { exact: true })).toBeVisible();
  await expect(notice).toHaveCount(0);
  // The timer continues from the time the notice said.
  await expect.poll(() => elapsedMs(page), { timeout: 2000 }).toBeGreaterThanOrEqual(msOf(match![1]!));
  await page.waitForTimeout(7000);
  await consultation.finish();
  const recorded = await elapsedMs(page);
  await expect(page.getByText('Everything recorded has reached the server.')).toBeVisible({ timeout: 30_000 });

  // Every part, before and after the reload, numbered without a gap and counted by the finish.
  await expect.poll(async () => (await fetchSession(request, page, id)).status, { timeout: 30_000 }).toBe('finished');
  await expect.poll(async () => (await fetchSession(request, page, id)).audios.every((a) => a.duration_ms !== null), { timeout: 60_000 }).toBe(true);
  const session = await fetchSession(request, page, id);
  expect(session.audios.length).toBeGreaterThanOrEqual(2);
  expect(session.audios.map((a) => a.order)).toEqual(session.audios.map((_, i) => i));
  expect(session.expected_parts).toBe(session.audios.length);
  const stored = session.audios.reduce((sum, a) => sum + (a.duration_ms ?? 0), 0);
  expect(recorded).toBeGreaterThan(beforeReload + 6000);
  expect(Math.abs(stored - recorded), `stored ${stored} ms, recorded ${recorded} ms`).toBeLessThanOrEqual(1500);

  // Finished: nothing is said to have stopped any more.
  await page.reload();
  await expect(page.getByText('Finished', { exact: true })).toBeVisible({ timeout: 15_000 });
  await expect(page.getByRole('region', { name: 'Recording stopped' })).toHaveCount(0);
});

test('a microphone that delivers only silence is announced after 10 seconds, and the warning goes when sound returns; leaving the screen mid-recording is said on return', async ({
  page,
}) => {
  test.setTimeout(90_000);
  // The microphone: a tone at zero volume (silence, as from a muted microphone), turned up by the test later.
  await page.addInitScript(() => {
    const devices = navigator.mediaDevices;
    const original = devices.getUserMedia.bind(devices);
    devices.getUserMedia = async (constraints) => {
      if (!constraints?.audio) return original(constraints);
      const context = new AudioContext();
      const tone = context.createOscillator();
      const volume = context.createGain();
      volume.gain.value = 0;
      const out = context.createMediaStreamDestination();
      tone.connect(volume).connect(out);
      tone.start();
      (window as unknown as { setMicrophoneVolume: (v: number) => void }).setMicrophoneVolume = (v) => {
        volume.gain.value = v;
      };
      return out.stream;
    };
  });
  await signUpNewClinician(page, 'Dr. Duarte Neves');
  const consultation = new ConsultationPage(page);
  await consultation.startFromHome('General consultation');
  await consultation.startRecording();
  const warning = page.getByRole('alert').filter({ hasText: 'No sound has reached the microphone for 10 seconds.' });
  await page.waitForTimeout(6000);
  await expect(warning).toHaveCount(0);
  await expect(warning).toBeVisible({ timeout: 10_000 });
  await expect(warning).toHaveText('No sound has reached the microphone for 10 seconds. Check that it is connected and not muted. Recording goes on.');
  await expectNoSeriousAxeFindings(page);
  await screenshotBothWidths(page, 'consultation-silent-microphone');

  await page.evaluate(() => (window as unknown as { setMicrophoneVolume: (v: number) => void }).setMicrophoneVolume(0.5));
  await expect(warning).toHaveCount(0, { timeout: 5000 });

  // Leaving the consultation's screen inside the app stops its recorder too: back on it, the screen says so.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('alertdialog', { name: 'Leave without documents?' }).getByRole('button', { name: 'Leave' }).click();
  await expect(page).toHaveURL(/\/settings/);
  await page.goBack();
  await expect(page.getByRole('region', { name: 'Recording stopped' })).toContainText(
    /^Recording stopped at \d+:\d\d when this consultation's screen was left\. What was recorded is kept\./,
    { timeout: 15_000 },
  );
  await consultation.finish();
  await expect(page.getByRole('region', { name: 'Recording stopped' })).toHaveCount(0);
});
