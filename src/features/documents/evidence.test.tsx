import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Provider } from 'jotai';
import { createRef } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { appStore } from '../../app-state';
import type { DocumentEvidence } from '../../api/documents';
import type { CachedSession } from '../../offline/db';
import { ConfirmDialogHost } from '../../ui/ConfirmDialogHost';
import { TranscriptPanel } from '../consultation/TranscriptPanel';
import { DocumentActions } from './DocumentActions';
import { evidenceHighlightAtom, highlightPieces } from './evidence-highlight';
import { EvidenceList } from './EvidenceList';

afterEach(cleanup);
beforeEach(() => appStore.set(evidenceHighlightAtom, null));

const wrap = (children: React.ReactNode) => (
  <Provider store={appStore}>
    <I18nProvider i18n={i18n}>
      {children}
      <ConfirmDialogHost />
    </I18nProvider>
  </Provider>
);

const transcript = 'Good morning. I have had chest pain for two days. Your blood pressure is 150 over 95.';
const evidence: DocumentEvidence = {
  sentences: [
    { text: 'I have had chest pain for 2 days.', spans: [{ start: 14, end: 49, quote: 'I have had chest pain for two days.' }], source: 'transcript' },
    { text: 'Started aspirin 300 mg.', spans: [], source: 'none' },
  ],
  flagged: ['300', 'aspirin'],
};

describe('linked evidence', () => {
  it('finds a span where it was, or where its words moved after a correction', () => {
    expect(highlightPieces(transcript, evidence.sentences[0]!.spans)).toEqual([
      { text: 'Good morning. ', marked: false },
      { text: 'I have had chest pain for two days.', marked: true },
      { text: ' Your blood pressure is 150 over 95.', marked: false },
    ]);
    const corrected = `Hello. ${transcript}`;
    expect(highlightPieces(corrected, evidence.sentences[0]!.spans).find((p) => p.marked)?.text).toBe('I have had chest pain for two days.');
    expect(highlightPieces('Another text.', evidence.sentences[0]!.spans)).toEqual([{ text: 'Another text.', marked: false }]);
  });

  it('choosing a sentence highlights its span in the transcript; one with no support is marked, not chosen', async () => {
    const session = { id: 's1', transcription: transcript, transcription_status: 'done' } as unknown as CachedSession;
    render(
      wrap(
        <>
          <EvidenceList sessionId="s1" evidence={evidence} />
          <TranscriptPanel session={session} live={false} />
        </>,
      ),
    );
    expect(screen.getByText('Not in the transcript')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Started aspirin 300 mg.' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'I have had chest pain for 2 days.' }));
    await waitFor(() => expect(screen.getByTestId('evidence-highlight').textContent).toBe('I have had chest pain for two days.'));
    expect(screen.getByRole('button', { name: 'I have had chest pain for 2 days.' }).getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: 'Clear highlight' }));
    await waitFor(() => expect(screen.queryByTestId('evidence-highlight')).toBeNull());
  });

  it('a flagged term stops a silent copy: the clinician must say they checked it, once a version', async () => {
    const writeText = vi.fn(async () => undefined);
    Object.assign(navigator, { clipboard: { writeText } });
    render(wrap(<DocumentActions title="Notes" markdown="Started aspirin 300 mg." rendered={createRef()} flagged={evidence.flagged} />));
    fireEvent.click(screen.getByRole('button', { name: 'Copy as plain text' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Check these terms first' });
    expect(dialog.textContent).toContain('300, aspirin');
    expect(writeText).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(writeText).not.toHaveBeenCalled();

    fireEvent.click(screen.getByRole('button', { name: 'Copy as plain text' }));
    fireEvent.click(await screen.findByRole('button', { name: 'I have checked them' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith('Started aspirin 300 mg.'));
    // Checked once: the next copy goes straight through.
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Copy as plain text' })));
    await waitFor(() => expect(writeText).toHaveBeenCalledTimes(2));
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });
});
