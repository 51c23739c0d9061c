import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { cleanup, render, screen } from '@testing-library/react';
import { Provider } from 'jotai';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CachedSession } from '../../offline/db';
import { TranscriptPanel } from './TranscriptPanel';

vi.mock('../../api/consultations', () => ({ consultationsApi: { saveTranscription: vi.fn(async () => ({})) } }));

const session = (over: Partial<CachedSession>): CachedSession => ({
  id: 's1',
  status: 'finished',
  consultation_type_id: 'general_consultation',
  show_transcription: true,
  recording_state: 'stopped',
  created_at: '2026-11-28T10:00:00Z',
  finished_at: null,
  expires_at: null,
  cachedAt: 0,
  ...over,
});
const mount = (s: CachedSession, speechLanguages?: string[]) =>
  render(
    <Provider>
      <I18nProvider i18n={i18n}>
        <TranscriptPanel session={s} live={false} speechLanguages={speechLanguages} />
      </I18nProvider>
    </Provider>,
  );

beforeEach(() => i18n.activate('en'));
afterEach(cleanup);

describe('the transcript panel', () => {
  it('shows uncertain words as uncertain, to the eye and to screen readers, without their brackets', () => {
    mount(
      session({
        transcription: 'do you take any medicines [the codeine?] i take loratadine',
        transcription_status: 'done',
        transcription_engines: ['openai:whisper-1'],
      }),
    );
    const uncertain = screen.getByTestId('uncertain-words');
    expect(uncertain.textContent).toBe('(uncertain: the codeine)');
    expect(uncertain.querySelector('.visually-hidden')?.textContent).toBe('(uncertain: ');
    expect(screen.getByTestId('transcript').textContent).not.toContain('[');
    expect(screen.getByTestId('uncertain-legend').textContent).toMatch(/not heard clearly/);
    expect(screen.getByTestId('transcript-engine').textContent).toBe('Transcribed by whisper-1 (connected engine).');
  });

  it('says which engine wrote a demo-quality transcript, and that its values must be checked', () => {
    mount(session({ transcription: 'the patient has a cough', transcription_status: 'done', transcription_engines: ['pocketsphinx:clinical'] }));
    expect(screen.getByTestId('transcript-quality').textContent).toBe(
      'Transcribed by the local speech engine (clinical model). Demo quality — check every value against the recording.',
    );
    expect(screen.queryByTestId('uncertain-legend')).toBeNull();
  });

  it('tells a consultation kept untranscribed for its language apart from a server with no engine', () => {
    mount(session({ transcription: '', transcription_status: 'unavailable', language: 'pt' }), ['en']);
    expect(screen.getByText(/does not speak this consultation's language/)).toBeTruthy();
    cleanup();
    mount(session({ transcription: '', transcription_status: 'unavailable', language: 'pt' }), []);
    expect(screen.getByText(/No speech engine is available/)).toBeTruthy();
  });
});
