import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { withoutFillers } from '../../server/src/clinical/fillers';
import { digitsForSpokenNumbers } from '../../server/src/clinical/units';
import { ConsultationPage } from './pages/consultation-page';
import { signUpNewClinician } from './support/accounts';
import { fetchSession } from './support/api';
import { expectNoAxeViolations } from './support/axe';
import { screenshotBothWidths } from './support/screenshots';

test.use({ permissions: ['microphone', 'clipboard-read', 'clipboard-write'] });

async function pdfText(file: string): Promise<string> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await pdfjs.getDocument({ data: new Uint8Array(readFileSync(file)), verbosity: 0 }).promise;
  const pages: string[] = [];
  for (let i = 1; i <= doc.numPages; i++) {
    const content = await (await doc.getPage(i)).getTextContent();
    pages.push(content.items.map((item) => ('str' in item ? item.str : '')).join(' '));
  }
  return pages.join('\n');
}

test('the whole loop: record → finish → transcript → document → edit by text and markdown → versions → PDF → copy → feedback', async ({ page, request }) => {
  test.setTimeout(180_000);
  await signUpNewClinician(page, 'Dra. Marta Lopes');
  await expectNoAxeViolations(page);
  await screenshotBothWidths(page, 'home-types');
  const consultation = new ConsultationPage(page);
  await consultation.startFromHome('General consultation');
  await consultation.startRecording();
  await page.waitForTimeout(31_000);
  await expect(page.getByRole('timer').or(page.getByLabel('Time recorded'))).not.toHaveText('0:00');
  await expectNoAxeViolations(page);
  await screenshotBothWidths(page, 'consultation-recording');
  await consultation.finish();
  await expect(page.getByText('Everything recorded has reached the server.')).toBeVisible({ timeout: 30_000 });

  // Clinical speech (espeak-ng) through the browser's recorder, Opus, the server and pocketsphinx.
  await expect(consultation.transcript).toContainText(/\p{L}{3,}/u, { timeout: 60_000 });
  await expect(page.getByText('Transcribing…')).toHaveCount(0, { timeout: 60_000 });
  // Debian's general model, the default, gets most of espeak-ng's words wrong (bench/speech-dialogues.ts), but the
  // speech did go through: words of five letters or more that the sentences say are heard.
  const text = (await fetchSession(request, page, consultation.sessionId)).transcription.replace(/[[\]?]/g, ' ');
  const spoken = new Set(
    readFileSync('tests/fixtures/speech/clinical-sentences.txt', 'utf8')
      .split('\n')
      .filter((l) => !l.startsWith('#'))
      .join(' ')
      .match(/\p{L}{5,}/gu),
  );
  const recognised = new Set(text.match(/\p{L}{5,}/gu)?.filter((w) => spoken.has(w)));
  expect(recognised.size, text).toBeGreaterThanOrEqual(3);
  // Each transcript says which engine wrote it, and the local engine's says its values are to be checked.
  await expect(page.getByTestId('transcript-quality').first()).toContainText(/Demo quality.* — check every value against the recording\./);
  await screenshotBothWidths(page, 'consultation-finished');

  // The main document was written when the consultation ended (offline composer: no AI configured).
  const documentText = page.getByTestId('document-text').first();
  await expect(documentText).toContainText('Assembled without AI', { timeout: 30_000 });
  await expect(documentText).toContainText('Dra. Marta Lopes');
  // Finished mid-speech: the last part reached the server after the finish, and the document waited for it.
  const finished = await fetchSession(request, page, consultation.sessionId);
  expect(finished.expected_parts).toBe(finished.audios.length);
  // The notes hold the consultation's own sentences, numbers in digits, up to its end (the last part reached them):
  // of its last six words, at least two are there. Not all: the notes leave out what they must (a clause about a
  // relative, a filler) and the speech engine's uncertain marks split differently from run to run.
  const lastWords = withoutFillers(digitsForSpokenNumbers(finished.transcription.trim(), 'en'), 'en')
    .split(/\s+/)
    .map((w) => w.replace(/[[\]?.,;:!]/g, '').toLowerCase())
    .filter((w) => w.length > 2)
    .slice(-6);
  expect(lastWords.length).toBeGreaterThan(1);
  const inNotes = async () => {
    // biome-ignore lint/performance/useDomNodeTextContent: a Playwright locator, not a DOM node; innerText gives the rendered text with the breaks between blocks.
    const notes = (await documentText.innerText()).toLowerCase();
    return lastWords.filter((w) => new RegExp(`(?<![a-z0-9])${w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![a-z0-9])`).test(notes)).length;
  };
  await expect.poll(inNotes, { message: `last words ${lastWords.join(' ')} in the notes`, timeout: 10_000 }).toBeGreaterThanOrEqual(2);
  await expect(page.getByText('Version 1 of 1')).toBeVisible();

  // Linked evidence: choosing a sentence of the notes highlights the stretch of the transcript it rests on.
  await page.getByRole('button', { name: 'Show sources' }).first().click();
  const source = page.locator('.evidence-list').first().getByRole('button').first();
  const sentence = ((await source.textContent()) ?? '').toLowerCase();
  await source.click();
  const highlighted = page.getByTestId('evidence-highlight').first();
  await expect(highlighted).toBeVisible();
  const marked = ((await highlighted.textContent()) ?? '').toLowerCase();
  const words = sentence.match(/\p{L}{4,}/gu) ?? [];
  expect(words.filter((w) => marked.includes(w)).length, `${sentence} / ${marked}`).toBeGreaterThanOrEqual(Math.ceil(words.length / 2));
  // The audio is kept: the sentence can be heard, from the recorded part it was said in.
  await page
    .locator('.evidence-list')
    .first()
    .getByRole('button', { name: /^Listen to where this was said/ })
    .first()
    .click();
  const player = page.getByTestId('evidence-audio').first();
  await expect(player).toBeVisible();
  await expect.poll(() => player.evaluate((a: HTMLAudioElement) => (a.error ? -1 : a.currentTime)), { timeout: 15_000 }).toBeGreaterThan(0);
  await expectNoAxeViolations(page);
  await screenshotBothWidths(page, 'document-sources');
  await page.getByRole('button', { name: 'Clear highlight' }).click();
  await page.getByRole('button', { name: 'Hide sources' }).first().click();

  // Edit-notes modal, text command: a new version.
  await page.getByRole('button', { name: 'Edit notes' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Edit notes' });
  await expect(dialog).toBeVisible();
  await expectNoAxeViolations(page);
  await screenshotBothWidths(page, 'edit-notes-dialog');
  await dialog.getByLabel('Request a change').fill('Add the patient walks daily to the plan.');
  await dialog.getByRole('button', { name: 'Send change' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Version 2 of 2')).toBeVisible({ timeout: 20_000 });
  await expect(documentText).toContainText('The patient walks daily');
  await page.getByRole('button', { name: 'Previous version' }).first().click();
  await expect(page.getByText('Version 1 of 2')).toBeVisible();
  await expect(documentText).not.toContainText('walks daily');
  await page.getByRole('button', { name: 'Next version' }).first().click();
  await expect(page.getByText('Version 2 of 2')).toBeVisible();

  // Manual markdown edit, with the accents of pt, de and es: version 3 of 3.
  await page.getByRole('button', { name: 'Edit notes' }).first().click();
  await dialog.getByRole('tab', { name: 'Edit text' }).click();
  const accented = 'Doente com tosse há três dias; Größe normal; niño sano; coração sem sopros.';
  const editor = dialog.getByLabel('Document text (markdown)');
  await editor.fill(`${await editor.inputValue()}\n\n## Nota\n\n${accented}`);
  await dialog.getByRole('button', { name: 'Save as new version' }).click();
  await expect(page.getByText('Version 3 of 3')).toBeVisible({ timeout: 20_000 });
  await expect(documentText).toContainText(accented);

  // Voice command: recorded from the microphone (the clinical speech file), stopped by hand, transcribed on the server.
  await page.getByRole('button', { name: 'Edit notes' }).first().click();
  await dialog.getByRole('tab', { name: 'Voice command' }).click();
  await dialog.getByRole('button', { name: 'Record voice command' }).click();
  await expect(dialog.getByRole('timer')).toHaveText(/1:2\d left/, { timeout: 10_000 });
  await page.waitForTimeout(5000);
  await dialog.getByRole('button', { name: 'Stop and transcribe' }).click();
  // The command is shown as heard, to be checked before it changes anything.
  const heard = dialog.getByLabel('Your command, as it was heard');
  await expect(heard).not.toHaveValue('', { timeout: 60_000 });
  await expect(page.getByText('Version 3 of 3')).toBeVisible();
  await dialog.getByRole('button', { name: 'Apply this change' }).click();
  // Without an AI engine only simple requests apply: anything else is refused, in words, and never written.
  await expect(dialog.getByRole('alert')).toContainText('cannot be made without an AI engine', { timeout: 60_000 });
  await expect(page.getByText('Version 3 of 3')).toBeVisible();
  await expect(documentText).not.toContainText('Changes requested');
  await page.keyboard.press('Escape');

  // Export to PDF: the file's text, accents included, with the header and page numbers.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export PDF' }).first().click()]);
  expect(download.suggestedFilename()).toMatch(/^consultation-notes-\d{4}-\d{2}-\d{2}\.pdf$/);
  const pdf = await pdfText(await download.path());
  for (const words of ['Consultation notes', 'Dra. Marta Lopes', accented, 'Page 1 of']) expect(pdf).toContain(words);

  // Copy: the clipboard holds the text (formatted and plain).
  await page.getByRole('button', { name: 'Copy as plain text' }).first().click();
  await expect(page.getByText('Copied.').first()).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toContain(accented);
  await page.getByRole('button', { name: 'Copy', exact: true }).first().click();
  // The write is asynchronous and the clipboard still holds the plain copy until it lands, so poll.
  const clipboardHtml = () =>
    page.evaluate(async () => {
      const [item] = await navigator.clipboard.read();
      return item!.types.includes('text/html') ? await (await item!.getType('text/html')).text() : '';
    });
  await expect.poll(clipboardHtml, { timeout: 5000 }).toContain('<h2>');
  expect(await clipboardHtml()).toContain(accented);
  await expectNoAxeViolations(page);
  await screenshotBothWidths(page, 'consultation-documents');

  // Feedback form.
  await page.getByRole('button', { name: 'Rate this consultation' }).click();
  const feedback = page.getByRole('dialog', { name: 'Rate this consultation' });
  await feedback
    .getByRole('group', { name: /How satisfied are you/ })
    .getByRole('radio', { name: '9', exact: true })
    .check();
  await feedback.getByRole('radio', { name: '1 to 5 min' }).check();
  await feedback.getByLabel('Comment (optional)').fill('Accurate notes.');
  await feedback.getByLabel('I agree to share this feedback anonymously to improve the product.').check();
  await expectNoAxeViolations(page);
  await screenshotBothWidths(page, 'feedback-dialog');
  await feedback.getByRole('button', { name: 'Send feedback' }).click();
  await expect(feedback.getByText('Thank you. Your feedback was sent.')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(feedback).toBeHidden();
});
