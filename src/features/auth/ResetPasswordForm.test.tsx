import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiFailureError } from '../../api/client';
import { ResetPasswordForm } from './ResetPasswordForm';

vi.mock('../../api/account', () => ({
  accountApi: {
    resetPassword: vi.fn(async () => {
      throw new ApiFailureError({ kind: 'http', status: 400, code: 'invalid_request', message: 'Invalid request', fields: { token: 'Too small' } });
    }),
  },
}));
vi.mock('@tanstack/react-router', () => ({ Link: ({ to, children }: { to: string; children: ReactNode }) => <a href={to}>{children}</a> }));

afterEach(cleanup);

describe('ResetPasswordForm', () => {
  it('a garbled link: says the link is not valid and leads to asking for a new one', async () => {
    render(
      <I18nProvider i18n={i18n}>
        <ResetPasswordForm token="abc" />
      </I18nProvider>,
    );
    for (const field of screen.getAllByLabelText(/password/i)) fireEvent.change(field, { target: { value: 'Correct-horse-battery-9' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save new password' }));
    await screen.findByText('This link is not valid or has expired.');
    expect(screen.getByRole('link', { name: 'Ask for a new link' }).getAttribute('href')).toBe('/reset');
    expect(screen.queryByText(/Something entered is not valid/)).toBeNull();
  });
});
