import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DUser } from '../../../contract/account';
import type { GeneratedDocument } from '../../api/documents';
import { appStore, authAtom, clearAuth } from '../../app-state';
import { endSession } from '../auth/session-actions';
import { EditNotesDialog } from './EditNotesDialog';

vi.mock('../../api/documents', () => ({
  documentsApi: { change: vi.fn(async () => ({ generated_document: { id: 'v2' } as GeneratedDocument })) },
}));
vi.mock('../../api/account', () => ({ accountApi: { logout: vi.fn(async () => undefined) } }));

const SESSION = '9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a';
const signIn = (id = 'a0000000-0000-4000-8000-000000000001') =>
  appStore.set(authAtom, { token: 'token', user: { id, name: 'Dra. Ana Lopes' } as DUser, persistence: 'session' });

const mount = (onNewVersion = vi.fn()) =>
  render(
    <I18nProvider i18n={i18n}>
      <EditNotesDialog open onOpenChange={() => undefined} sessionId={SESSION} docKey="main" currentText="# Notes" onNewVersion={onNewVersion} />
    </I18nProvider>,
  );
const command = () => screen.getByLabelText('Request a change') as HTMLTextAreaElement;

afterEach(() => {
  cleanup();
  sessionStorage.clear();
});

describe('EditNotesDialog text command', () => {
  it('keeps a command being typed through an expired session and a new sign-in, and forgets it once sent', async () => {
    signIn();
    const first = mount();
    fireEvent.change(command(), { target: { value: 'add pain radiating to the left arm' } });
    // The session expires: the app clears the session and shows the sign-in screen, unmounting the dialog.
    first.unmount();
    clearAuth();
    signIn();
    const onNewVersion = vi.fn();
    mount(onNewVersion);
    expect(command().value).toBe('add pain radiating to the left arm');

    fireEvent.click(screen.getByRole('button', { name: 'Send change' }));
    await waitFor(() => expect(onNewVersion).toHaveBeenCalled());
    cleanup();
    mount();
    expect(command().value).toBe('');
  });

  it('shows no draft to another clinician, nor after signing out', async () => {
    signIn();
    const first = mount();
    fireEvent.change(command(), { target: { value: 'remove the allergy' } });
    first.unmount();
    signIn('b0000000-0000-4000-8000-000000000002');
    const second = mount();
    expect(command().value).toBe('');
    second.unmount();
    signIn();
    await endSession();
    signIn();
    mount();
    expect(command().value).toBe('');
  });
});
