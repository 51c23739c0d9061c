import { cleanup, renderHook, waitFor } from '@testing-library/react';
import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { appDb } from '../../offline/db';
import { transcriptPrefix, useConsultationSession } from './useConsultationSession';

const ID = '6f1c1f7e-8a43-4f4e-9d36-8f3f0f7a0001';
const summary = {
  id: ID,
  status: 'active',
  consultation_type_id: 'dictation',
  show_transcription: true,
  mobile: false,
  recording_state: 'recording',
  platform: null,
  created_at: '2026-11-24T10:00:00Z',
  finished_at: null,
  expires_at: null,
  read_only: false,
  audio_deleted_at: null,
  patient_label: null,
  user_inputs: [],
  transcription_edited: false,
  transcription_status: 'processing',
  recorded_ms: 10_000,
  expected_parts: null,
  awaited_parts: null,
  recorder: null,
};
const api = vi.hoisted(() => ({ get: vi.fn(), progress: vi.fn() }));
vi.mock('../../api/consultations', () => ({ consultationsApi: api }));
vi.mock('../../offline/session-ops', () => ({ startWaiting: async () => false }));

// Each hook is unmounted, and the database's change notices it was subscribed to given time to arrive, before the
// next test (or the end of the file, when the page environment goes away: a render after it fails on a busy machine).
afterEach(async () => {
  cleanup();
  await new Promise((resolve) => setTimeout(resolve, 20));
});

beforeEach(async () => {
  await appDb().sessions.clear();
  api.get.mockReset();
  api.progress.mockReset();
});

describe('the consultation screen’s copy of the session', () => {
  it('is read whole once, then grows by what each poll brings after the text it holds', async () => {
    // The screen's first question: the whole transcript (from 0), asked before the device's database answered.
    api.progress.mockResolvedValueOnce({ consultation_progress: { ...summary, transcription: { from: 0, text: 'Dry cough.' }, parts: 2, next_order: 2 } });
    api.progress.mockResolvedValue({ consultation_progress: { ...summary, transcription: { from: 10, text: ' No fever.' }, parts: 3, next_order: 3 } });
    const { result } = renderHook(() => useConsultationSession(ID));
    await waitFor(() => expect(result.current.session?.transcription).toBe('Dry cough.'));
    expect(api.progress).toHaveBeenNthCalledWith(1, ID, undefined);
    expect(api.get).not.toHaveBeenCalled();
    expect(result.current.session?.nextOrder).toBe(2);
    await result.current.refresh();
    expect(api.progress).toHaveBeenLastCalledWith(ID, { from: 10, prefix: createHash('sha256').update('Dry cough.').digest('hex').slice(0, 16) });
    await waitFor(() => expect(result.current.session?.transcription).toBe('Dry cough. No fever.'));
    expect(result.current.session?.nextOrder).toBe(3);
    // An answer that starts anywhere else than where this device's text ends (or at 0) is not used.
    api.progress.mockResolvedValue({ consultation_progress: { ...summary, transcription: { from: 4, text: 'garbled' }, parts: 3, next_order: 3 } });
    await result.current.refresh();
    expect((await appDb().sessions.get(ID))?.transcription).toBe('Dry cough. No fever.');
    // The server no longer recognises the beginning (an edited transcript): it sends the whole text, which replaces it.
    api.progress.mockResolvedValue({ consultation_progress: { ...summary, transcription: { from: 0, text: 'Edited by hand.' }, parts: 3, next_order: 3 } });
    await result.current.refresh();
    await waitFor(() => expect(result.current.session?.transcription).toBe('Edited by hand.'));
  });

  it('keeps no answer older than one already kept: a slow first answer does not overwrite the next poll', async () => {
    let answerFirst: (value: unknown) => void = () => undefined;
    api.progress.mockReturnValueOnce(new Promise((resolve) => (answerFirst = resolve)));
    api.get.mockResolvedValue({
      consultation_session: { ...summary, status: 'finished', transcription: 'Dry cough. No fever.', audios: [{ order: 0 }, { order: 1 }, { order: 2 }] },
    });
    const { result } = renderHook(() => useConsultationSession(ID));
    await result.current.refresh();
    await waitFor(() => expect(result.current.session?.status).toBe('finished'));
    answerFirst({ consultation_progress: { ...summary, transcription: { from: 0, text: 'Dry cough.' }, parts: 2, next_order: 2 } });
    await new Promise((r) => setTimeout(r, 50));
    const cached = await appDb().sessions.get(ID);
    expect(cached?.status).toBe('finished');
    expect(cached?.transcription).toBe('Dry cough. No fever.');
  });

  it('asks again when the first question failed (a start sent meanwhile may have made the consultation known)', async () => {
    api.progress.mockRejectedValueOnce(new Error('not found'));
    api.get.mockResolvedValue({ consultation_session: { ...summary, transcription: 'Dry cough.', audios: [{ order: 0 }] } });
    const { result } = renderHook(() => useConsultationSession(ID));
    await waitFor(() => expect(result.current.session?.transcription).toBe('Dry cough.'));
    expect(result.current.problem).toBeUndefined();
    expect(api.get).toHaveBeenCalledTimes(1);
  });

  it('names a text as the server does, by the SHA-256 of its UTF-8 bytes', async () => {
    const text = 'Dor torácica, 2 dias — sem febre';
    expect(await transcriptPrefix(text)).toBe(createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 16));
  });
});
