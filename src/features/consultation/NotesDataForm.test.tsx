import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { consultationsApi, type ConsultationTypeView } from '../../api/consultations';
import { NotesDataForm } from './NotesDataForm';

vi.mock('../../api/consultations', () => ({
  consultationsApi: {
    suggestedInputs: vi.fn(async () => ({
      suggested_inputs: [
        { processor_input_id: 'bloodpressure', value: '150/95 mmHg', source: 'Your blood pressure is 150/95.' },
        { processor_input_id: 'medication', value: 'metformin 500 mg twice a day', source: 'I take metformin 500 mg twice a day.' },
      ],
    })),
    saveInputs: vi.fn(async () => ({})),
  },
}));
vi.mock('../../api/templates', () => ({ templatesApi: { inputs: vi.fn(async () => ({ processor_inputs: [] })) } }));

const type = { processor_inputs: [] } as unknown as ConsultationTypeView;
const mount = (status: string, user_inputs: unknown[] = []) =>
  render(
    <I18nProvider i18n={i18n}>
      <NotesDataForm session={{ id: 's1', status, user_inputs }} type={type} />
    </I18nProvider>,
  );

beforeEach(() => {
  i18n.activate('en');
  vi.mocked(consultationsApi.suggestedInputs).mockClear();
  vi.mocked(consultationsApi.saveInputs).mockClear();
});
afterEach(cleanup);

describe('notes data heard in the consultation', () => {
  it('offers what the transcript says for the empty fields, and saves only what the clinician takes', async () => {
    mount('finished', [{ processor_input_id: 'medication', value: 'none' }]);
    const offer = await screen.findByRole('group', { name: /Heard in the consultation/ });
    // The medication field is already filled: only the blood pressure is offered.
    expect(within(offer).queryByText(/metformin/)).toBeNull();
    expect(within(offer).getByText(/Your blood pressure is 150\/95/)).toBeTruthy();
    expect((screen.getByLabelText('Blood pressure') as HTMLInputElement).value).toBe('');
    fireEvent.click(within(offer).getByRole('button', { name: 'Use for Blood pressure: 150/95 mmHg' }));
    expect((screen.getByLabelText('Blood pressure') as HTMLInputElement).value).toBe('150/95 mmHg');
    expect(screen.queryByRole('group', { name: /Heard in the consultation/ })).toBeNull();
    expect(consultationsApi.saveInputs).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Save data' }));
    await vi.waitFor(() =>
      expect(consultationsApi.saveInputs).toHaveBeenCalledWith('s1', [
        { processor_input_id: 'medication', value: 'none' },
        { processor_input_id: 'bloodpressure', value: '150/95 mmHg' },
      ]),
    );
  });

  it('asks nothing while the consultation is still being recorded', async () => {
    mount('active');
    await new Promise((r) => setTimeout(r, 20));
    expect(consultationsApi.suggestedInputs).not.toHaveBeenCalled();
  });
});
