import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Provider } from 'jotai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DUser } from '../../../../contract/account';
import { accountApi } from '../../../api/account';
import { appStore, authAtom } from '../../../app-state';
import { activateLocale } from '../../i18n/activate';
import { AccountSection } from './AccountSection';

vi.mock('../../../api/account', () => ({
  accountApi: {
    medicalSpecialities: vi.fn(async () => ({ medical_specialities: [] })),
    updateAccount: vi.fn(async (body: Partial<DUser>) => ({ d_user: { ...user, ...body } })),
  },
}));
vi.mock('../../auth/ChangePasswordForm', () => ({ ChangePasswordForm: () => null }));

const user = { id: 'a0000000-0000-4000-8000-000000000001', name: 'Dra. Ana Lopes', email: 'ana@clinic.test', language: 'pt' } as DUser;

afterEach(async () => {
  cleanup();
  await activateLocale('en');
});

describe('AccountSection', () => {
  it('follows the language chosen in the header, and Save keeps it', async () => {
    await activateLocale('pt');
    appStore.set(authAtom, { token: 'token', user, persistence: 'session' });
    render(
      <Provider store={appStore}>
        <I18nProvider i18n={i18n}>
          <AccountSection />
        </I18nProvider>
      </Provider>,
    );
    expect((screen.getByLabelText('Idioma') as HTMLSelectElement).value).toBe('pt');
    await act(() => activateLocale('de'));
    const language = screen.getByLabelText('Sprache') as HTMLSelectElement;
    expect(language.value).toBe('de');
    fireEvent.click(screen.getAllByRole('button', { name: 'Speichern' })[0]!);
    await waitFor(() => expect(accountApi.updateAccount).toHaveBeenCalledWith(expect.objectContaining({ language: 'de' })));
    expect(i18n.locale).toBe('de');
  });
});
