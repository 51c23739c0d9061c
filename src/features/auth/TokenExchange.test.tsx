import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { cleanup, render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiFailureError } from '../../api/client';
import { TokenExchange } from './TokenExchange';

vi.mock('@tanstack/react-router', () => ({
  useNavigate: () => vi.fn(),
  Link: ({ to, children }: { to: string; children: ReactNode }) => <a href={to}>{children}</a>,
}));

afterEach(cleanup);

const refused = (code: string, fields: Record<string, string> = {}) => new ApiFailureError({ kind: 'http', status: 400, code, message: code, fields });
const mount = (key: string, err: unknown) =>
  render(
    <I18nProvider i18n={i18n}>
      <TokenExchange exchangeKey={key} exchange={() => Promise.reject(err)} persistence="session" nextStep="Open the app again from your record system." />
    </I18nProvider>,
  );

describe('TokenExchange', () => {
  it('a garbled link says the link is not valid and what to do next, never that something typed is wrong', async () => {
    mount('garbled', refused('invalid_request', { token: 'Too small: expected string to have >=10 characters' }));
    await screen.findByText('This link is not valid or has expired.');
    expect(screen.getByText('Open the app again from your record system.')).toBeTruthy();
    expect(screen.queryByText(/Something entered is not valid/)).toBeNull();
  });

  it('an expired link the same', async () => {
    mount('expired', refused('invalid_or_expired_token'));
    await screen.findByText('This link is not valid or has expired.');
    expect(screen.getByText('Open the app again from your record system.')).toBeTruthy();
  });

  it('other failures keep their own message, without the link advice', async () => {
    mount('used', refused('token_already_used'));
    await screen.findByText(/This sign-in link has already been used/);
    expect(screen.queryByText('Open the app again from your record system.')).toBeNull();
  });
});
