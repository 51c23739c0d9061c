import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DUser } from '../../../contract/account';
import { appStore, authAtom, clearAuth } from '../../app-state';
import { customDocumentsApi } from '../../api/custom-documents';
import { DocumentBuilder } from './DocumentBuilder';

vi.mock('../../api/custom-documents', () => ({
  customDocumentsApi: { create: vi.fn(), update: vi.fn(), submit: vi.fn(), addExample: vi.fn(), removeExample: vi.fn() },
}));

afterEach(() => {
  cleanup();
  sessionStorage.clear();
});
const mount = () =>
  render(
    <I18nProvider i18n={i18n}>
      <DocumentBuilder documents={[]} onDone={() => undefined} />
    </I18nProvider>,
  );

describe('DocumentBuilder', () => {
  it('says a section is missing only until one is added', async () => {
    render(
      <I18nProvider i18n={i18n}>
        <DocumentBuilder documents={[]} onDone={() => undefined} />
      </I18nProvider>,
    );
    fireEvent.change(screen.getByLabelText('Document title'), { target: { value: 'Referral letter' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send to support' }));
    expect(await screen.findByText('Add at least one section before sending.')).toBeTruthy();
    expect(customDocumentsApi.create).not.toHaveBeenCalled();

    fireEvent.click(screen.getByRole('button', { name: 'Add a section' }));
    fireEvent.change(await screen.findByLabelText('Section title'), { target: { value: 'Reason for referral' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save section' }));
    expect(await screen.findByTestId('request-section')).toBeTruthy();
    expect(screen.queryByText('Add at least one section before sending.')).toBeNull();
  });

  it('keeps a request being written through an expired session and a new sign-in', async () => {
    const signIn = () => appStore.set(authAtom, { token: 't', user: { id: 'a0000000-0000-4000-8000-000000000001' } as DUser, persistence: 'session' });
    signIn();
    const first = mount();
    fireEvent.change(screen.getByLabelText('Document title'), { target: { value: 'Referral letter' } });
    fireEvent.change(screen.getByLabelText('Other comments'), { target: { value: 'We write "utente", not "paciente".' } });
    first.unmount();
    clearAuth();
    signIn();
    mount();
    expect((screen.getByLabelText('Document title') as HTMLInputElement).value).toBe('Referral letter');
    expect((screen.getByLabelText('Other comments') as HTMLTextAreaElement).value).toBe('We write "utente", not "paciente".');
  });
});
