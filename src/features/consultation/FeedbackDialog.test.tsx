import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiFailureError } from '../../api/client';
import { type ConsultationFeedbackInput, feedbackApi } from '../../api/documents';
import { FeedbackDialog } from './FeedbackDialog';

/** The server's copy of this clinician's rating of the consultation. */
let stored: (ConsultationFeedbackInput & { created_at: string }) | undefined;
vi.mock('../../api/documents', () => ({
  feedbackApi: {
    get: vi.fn(async () => {
      if (!stored) throw new ApiFailureError({ kind: 'http', status: 404, code: 'not_found', message: 'none', fields: {} });
      return { feedback: stored };
    }),
    send: vi.fn(async (_id: string, feedback: ConsultationFeedbackInput) => {
      stored = { ...feedback, created_at: '2026-11-28T10:00:00Z' };
      return { feedback };
    }),
  },
}));

afterEach(cleanup);
const SESSION = '9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a';
const mount = () =>
  render(
    <I18nProvider i18n={i18n}>
      <FeedbackDialog sessionId={SESSION} open onOpenChange={() => undefined} />
    </I18nProvider>,
  );

describe('FeedbackDialog', () => {
  it('thanks after sending, and opened again shows the rating sent, not a blank form', async () => {
    stored = undefined;
    const first = mount();
    await waitFor(() => expect(feedbackApi.get).toHaveBeenCalled());
    fireEvent.click(screen.getAllByRole('radio', { name: '8' })[0]!);
    fireEvent.change(screen.getByLabelText('Comment (optional)'), { target: { value: 'Good notes' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send feedback' }));
    expect(await screen.findByText('Thank you. Your feedback was sent.')).toBeTruthy();
    first.unmount();

    mount();
    expect(await screen.findByText(/Thank you: your feedback was sent on .+\. Sending it again replaces it\./)).toBeTruthy();
    expect((screen.getAllByRole('radio', { name: '8' })[0] as HTMLInputElement).checked).toBe(true);
    expect((screen.getByLabelText('Comment (optional)') as HTMLTextAreaElement).value).toBe('Good notes');
  });
});
