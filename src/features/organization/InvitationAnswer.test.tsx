import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { Provider } from 'jotai';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DUser } from '../../../contract/account';
import { ApiFailureError } from '../../api/client';
import { organizationsApi } from '../../api/organizations';
import { appStore, authAtom } from '../../app-state';
import { InvitationAnswer } from './InvitationAnswer';

vi.mock('../../api/organizations', () => ({
  organizationsApi: {
    invitation: vi.fn(async () => ({
      invitation: { organization_name: 'Clínica Sul', email: 'ana@clinic.test', role: 'member', status: 'pending', expires_at: '2099-01-01T00:00:00Z' },
    })),
    accept: vi.fn(),
    reject: vi.fn(async () => ({ invitation: {} })),
  },
}));
const navigate = vi.fn();
// The page's links only need to show where they lead; the router itself is not under test.
vi.mock('@tanstack/react-router', () => ({
  useNavigate: () => navigate,
  Link: ({ to, search, children }: { to: string; search?: { ref?: string }; children: ReactNode }) => (
    <a href={search?.ref ? `${to}?ref=${search.ref}` : to}>{children}</a>
  ),
}));
vi.mock('../auth/session-actions', () => ({ endSession: vi.fn(async () => appStore.set(authAtom, null)) }));

const signIn = (email: string) => appStore.set(authAtom, { token: 't', user: { email } as DUser, persistence: 'session' });
const mount = () =>
  render(
    <Provider store={appStore}>
      <I18nProvider i18n={i18n}>
        <InvitationAnswer token="tok-123" />
      </I18nProvider>
    </Provider>,
  );

beforeEach(() => {
  appStore.set(authAtom, null);
  vi.mocked(organizationsApi.reject).mockClear();
  navigate.mockClear();
});
afterEach(cleanup);

describe('InvitationAnswer', () => {
  it('signed out: no way to decline, but to sign in (back to this page) or create the account', async () => {
    mount();
    await screen.findByText(/Sign in with ana@clinic.test to accept or decline the invitation/);
    expect(screen.queryByRole('button', { name: 'Decline' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/login?ref=/organization/invitations/tok-123');
    expect(screen.getByRole('link', { name: 'Create account' }).getAttribute('href')).toBe('/signup?ref=/organization/invitations/tok-123');
  });

  it('signed in with another address: says so and offers to switch accounts instead of answering', async () => {
    signIn('rui@clinic.test');
    mount();
    await screen.findByText(/sent to ana@clinic.test, but you are signed in as rui@clinic.test/);
    expect(screen.queryByRole('button', { name: 'Accept' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Decline' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Sign in with another account' }));
    await vi.waitFor(() => expect(navigate).toHaveBeenCalledWith({ to: '/login', search: { ref: '/organization/invitations/tok-123' } }));
    expect(appStore.get(authAtom)).toBeNull();
  });

  it('signed in as the invited clinician: declines', async () => {
    signIn('Ana@Clinic.test');
    mount();
    fireEvent.click(await screen.findByRole('button', { name: 'Decline' }));
    await screen.findByText('You declined the invitation to Clínica Sul.');
    expect(organizationsApi.reject).toHaveBeenCalledWith('tok-123');
  });

  it('a garbled link: says the link is not valid and what to do, not that something typed is wrong', async () => {
    vi.mocked(organizationsApi.invitation).mockRejectedValueOnce(
      new ApiFailureError({ kind: 'http', status: 400, code: 'invalid_request', message: 'Invalid request', fields: { token: 'Too small' } }),
    );
    mount();
    await screen.findByText('This link is not valid or has expired.');
    expect(screen.getByText(/Ask your organization's administrator to send you a new invitation/)).toBeTruthy();
    expect(screen.queryByText(/Something entered is not valid/)).toBeNull();
  });
});
