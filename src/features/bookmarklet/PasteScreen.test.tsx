import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PasteScreen } from './PasteScreen';
import { PASTE_MESSAGE } from './bookmarklet';

const NOTE = '# Consultation notes\n\n**Subjective:** Dry cough for three days.';

vi.mock('../../api/consultations', () => ({
  consultationsApi: {
    recent: vi.fn(async () => ({
      consultation_sessions: [
        { id: 's1', consultation_type_id: 'general_consultation', finished_at: '2026-11-24T10:00:00Z', created_at: '2026-11-24T09:50:00Z' },
      ],
    })),
  },
}));
vi.mock('../../api/documents', () => ({ documentsApi: { get: vi.fn(async () => ({ generated_document: { status: 'done', text: NOTE } })) } }));
vi.mock('../home/useConsultationTypes', () => ({ useConsultationTypes: () => ({ types: [{ id: 'general_consultation', name: 'General consultation' }] }) }));

const EHR = 'https://ehr.example.test';
const opener = { postMessage: vi.fn() };
let clipboard: () => Promise<string>;

beforeEach(() => {
  opener.postMessage.mockClear();
  Object.defineProperty(window, 'opener', { value: opener, configurable: true });
  Object.defineProperty(navigator, 'clipboard', { value: { readText: () => clipboard() }, configurable: true });
  vi.spyOn(window, 'close').mockImplementation(() => undefined);
});
afterEach(cleanup);

const mount = () =>
  render(
    <I18nProvider i18n={i18n}>
      <PasteScreen to={EHR} />
    </I18nProvider>,
  );

describe('the paste window', () => {
  it('pastes what was copied from a note here, to the page that opened it only', async () => {
    clipboard = async () => 'Consultation notes\r\n\r\nSubjective: Dry cough for three days.  ';
    mount();
    fireEvent.click(await screen.findByRole('button', { name: 'Paste what I copied' }));
    await screen.findByText('Pasted.');
    expect(opener.postMessage).toHaveBeenCalledWith({ type: PASTE_MESSAGE, text: expect.stringContaining('Dry cough for three days.') }, EHR);
  });

  it('refuses anything else on the clipboard, and says when the clipboard cannot be read', async () => {
    clipboard = async () => 'DROP TABLE patients; -- not from the product';
    mount();
    const button = await screen.findByRole('button', { name: 'Paste what I copied' });
    fireEvent.click(button);
    await screen.findByText(/is not a note from this app/);
    clipboard = async () => {
      throw new DOMException('Read permission denied.', 'NotAllowedError');
    };
    fireEvent.click(button);
    await screen.findByText(/The clipboard could not be read/);
    expect(opener.postMessage).not.toHaveBeenCalled();
  });
});
