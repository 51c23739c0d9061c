import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CreditsView } from '../../../api/organizations';
import { activateLocale } from '../../i18n/activate';
import { CreditsSection } from './CreditsSection';

let ledger: CreditsView['ledger'] = [];
vi.mock('../../../api/organizations', () => ({
  organizationsApi: { credits: vi.fn(async () => ({ credits: { balance: 10, shared_with_organization: false, ledger } })) },
}));
vi.mock('@tanstack/react-router', () => ({ Link: ({ children }: { children: React.ReactNode }) => <a href="/settings/support">{children}</a> }));

const row = (over: Partial<CreditsView['ledger'][number]>): CreditsView['ledger'][number] => ({
  id: crypto.randomUUID(),
  amount: 10,
  reason: 'grant',
  note: null,
  user_name: null,
  created_at: '2026-11-20T09:30:00Z',
  ...over,
});

afterEach(async () => {
  cleanup();
  await activateLocale('en');
});

describe('CreditsSection', () => {
  it('translates the reason of the grant made when the account was opened, new and older rows alike', async () => {
    await activateLocale('pt');
    ledger = [row({ reason: 'initial_grant' }), row({ note: 'initial grant' }), row({ note: 'Contrato 2027' })];
    render(
      <I18nProvider i18n={i18n}>
        <CreditsSection />
      </I18nProvider>,
    );
    const cells = await screen.findAllByText('Créditos atribuídos na abertura da conta');
    expect(cells).toHaveLength(2);
    expect(screen.getByText('Contrato 2027')).toBeTruthy();
    expect(screen.queryByText(/initial/)).toBeNull();
  });
});
