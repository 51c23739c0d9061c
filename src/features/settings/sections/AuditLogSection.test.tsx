import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { Provider } from 'jotai';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DUser } from '../../../../contract/account';
import { auditEventsApi, type AuditEventView } from '../../../api/audit-events';
import { appStore, authAtom } from '../../../app-state';
import { saveFile } from '../../../ui/save-file';
import { AuditLogSection } from './AuditLogSection';

const ORG = '0b7c1a52-3f4e-4d6a-9b8c-1d2e3f4a5b6c';
const MEMBER = '5a6b7c8d-9e0f-4a1b-8c2d-3e4f5a6b7c8d';
const CONSULTATION = '9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a';

const event = (over: Partial<AuditEventView> = {}): AuditEventView => ({
  id: '42',
  occurred_at: '2026-11-20T09:30:00Z',
  actor: { kind: 'user', user_id: MEMBER, name: 'Dr. Rui Nunes' },
  action: 'read',
  resource_type: 'transcript',
  resource_id: CONSULTATION,
  related_ids: {},
  outcome: 'success',
  status_code: 200,
  client_address: '10.1.2.3',
  user_agent: 'Firefox/140',
  ...over,
});

let pages: Record<string, { audit_events: AuditEventView[]; next_cursor: string | null }> = {};
vi.mock('../../../api/audit-events', () => ({
  auditEventsApi: {
    list: vi.fn(async (_org: string, _filter: unknown, cursor?: string) => pages[cursor ?? 'first'] ?? { audit_events: [], next_cursor: null }),
    download: vi.fn(async () => new Blob(['{}\n'], { type: 'application/fhir+ndjson' })),
  },
}));
vi.mock('../../../api/organizations', () => ({
  organizationsApi: {
    get: vi.fn(async () => ({
      organization: {
        id: ORG,
        name: 'Clínica',
        role: 'admin',
        members: [
          { id: MEMBER, name: 'Dr. Rui Nunes', email: 'rui@clinic.test', role: 'member', created_at: '' },
          { id: 'a0000000-0000-4000-8000-000000000001', name: 'Dra. Ana Lopes', email: 'ana@clinic.test', role: 'admin', created_at: '' },
        ],
      },
    })),
  },
}));
vi.mock('../../../ui/save-file', () => ({ saveFile: vi.fn() }));

function signIn(role: 'admin' | 'member') {
  const user = { id: 'a0000000-0000-4000-8000-000000000001', name: 'Dra. Ana Lopes', organization_id: ORG, organization_role: role } as DUser;
  appStore.set(authAtom, { token: 'token', user, persistence: 'session' });
}
const mount = () =>
  render(
    <Provider store={appStore}>
      <I18nProvider i18n={i18n}>
        <AuditLogSection />
      </I18nProvider>
    </Provider>,
  );

beforeEach(() => {
  i18n.activate('en');
  vi.mocked(auditEventsApi.list).mockClear();
  vi.mocked(auditEventsApi.download).mockClear();
  vi.mocked(saveFile).mockClear();
  pages = {
    first: {
      audit_events: [
        event(),
        event({
          id: '41',
          action: 'read',
          resource_type: 'generated_document',
          related_ids: { document: 'main' },
          outcome: 'failure',
          status_code: 404,
          actor: { kind: 'user', user_id: 'c1', name: null },
        }),
        event({ id: '40', actor: { kind: 'anonymous', user_id: null, name: null }, outcome: 'failure', status_code: 401, user_agent: null }),
      ],
      next_cursor: '40',
    },
    '40': {
      audit_events: [
        event({ id: '39', action: 'export', resource_type: 'screening_result', resource_id: null }),
        event({
          id: '38',
          action: 'read',
          resource_type: 'generated_document',
          resource_id: null,
          related_ids: { template: CONSULTATION },
          outcome: 'client_disconnected',
          status_code: 200,
        }),
        event({ id: '37', outcome: 'client_disconnected', status_code: null }),
      ],
      next_cursor: null,
    },
  };
});
afterEach(cleanup);

describe('the access log in settings', () => {
  it('shows the newest events in a labelled, keyboard-scrollable table', async () => {
    signIn('admin');
    mount();
    const region = await screen.findByRole('region', { name: 'Access log, newest first, page 1' });
    expect(region.getAttribute('tabindex')).toBe('0');
    const rows = within(region).getAllByTestId('audit-event');
    expect(rows).toHaveLength(3);
    expect(rows[0]!.textContent).toContain('Dr. Rui Nunes');
    expect(rows[0]!.textContent).toContain('Opened');
    expect(rows[0]!.textContent).toContain(`Transcript ${CONSULTATION}`);
    expect(rows[0]!.textContent).toContain('Allowed');
    expect(rows[0]!.textContent).toContain('10.1.2.3');
    expect(rows[1]!.textContent).toContain('Document: main');
    expect(rows[1]!.textContent).toContain('Refused (404)');
    expect(rows[1]!.textContent).toContain('Deleted account');
    expect(rows[2]!.textContent).toContain('Not signed in');
    expect(auditEventsApi.list).toHaveBeenCalledWith(ORG, {}, undefined);
  });

  it('filters by member, kind of record, record id and days', async () => {
    signIn('admin');
    mount();
    await screen.findByRole('region');
    // The members arrive from the server: their option must exist before it can be chosen.
    await screen.findByRole('option', { name: 'Dr. Rui Nunes' });
    fireEvent.change(screen.getByRole('combobox', { name: 'Member' }), { target: { value: MEMBER } });
    fireEvent.change(screen.getByRole('combobox', { name: 'Kind of record' }), { target: { value: 'recording' } });
    fireEvent.change(screen.getByLabelText('Record id'), { target: { value: ` ${CONSULTATION} ` } });
    fireEvent.change(screen.getByLabelText('First day'), { target: { value: '2026-11-01' } });
    fireEvent.change(screen.getByLabelText('Last day'), { target: { value: '2026-11-30' } });
    fireEvent.click(screen.getByRole('button', { name: 'Show' }));
    await screen.findByRole('region');
    expect(auditEventsApi.list).toHaveBeenLastCalledWith(
      ORG,
      {
        member: MEMBER,
        resource_type: 'recording',
        resource_id: CONSULTATION,
        from: new Date('2026-11-01T00:00:00').toISOString(),
        to: new Date('2026-12-01T00:00:00').toISOString(),
      },
      undefined,
    );
  });

  it('refuses a period that ends before it starts', async () => {
    signIn('admin');
    mount();
    await screen.findByRole('region');
    fireEvent.change(screen.getByLabelText('First day'), { target: { value: '2026-11-10' } });
    fireEvent.change(screen.getByLabelText('Last day'), { target: { value: '2026-11-01' } });
    expect(screen.getByText('The last day must not be before the first.')).toBeTruthy();
    expect(screen.getByLabelText('Last day').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByRole('button', { name: 'Show' }).hasAttribute('disabled')).toBe(true);
  });

  it('pages to older events and back', async () => {
    signIn('admin');
    mount();
    await screen.findByRole('region', { name: /page 1/ });
    expect(screen.getByRole('button', { name: 'Newer' }).hasAttribute('disabled')).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Older' }));
    const second = await screen.findByRole('region', { name: /page 2/ });
    const older = within(second).getAllByTestId('audit-event');
    expect(older).toHaveLength(3);
    expect(within(second).getByText('Exported')).toBeTruthy();
    // A client that left before the answer was complete: neither allowed nor refused, the status if one was sent.
    expect(older[1]!.textContent).toContain(`Template: ${CONSULTATION}`);
    expect(older[1]!.textContent).toContain('Connection closed early (200)');
    expect(older[2]!.textContent).toContain('Connection closed early');
    expect(older[2]!.textContent).not.toContain('Connection closed early (');
    expect(within(older[2]!).getByText('Connection closed early').hasAttribute('data-status')).toBe(false);
    expect(auditEventsApi.list).toHaveBeenLastCalledWith(ORG, {}, '40');
    expect(screen.getByRole('button', { name: 'Older' }).hasAttribute('disabled')).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Newer' }));
    expect(await screen.findByRole('region', { name: /page 1/ })).toBeTruthy();
  });

  it('downloads the filtered log as FHIR NDJSON', async () => {
    signIn('admin');
    mount();
    await screen.findByRole('region');
    fireEvent.click(screen.getByRole('button', { name: 'Download (FHIR NDJSON)' }));
    await vi.waitFor(() => expect(saveFile).toHaveBeenCalledTimes(1));
    expect(auditEventsApi.download).toHaveBeenCalledWith(ORG, {});
    expect(vi.mocked(saveFile).mock.calls[0]![1]).toMatch(/^access-log-\d{4}-\d{2}-\d{2}\.ndjson$/);
  });

  it('tells members it is for administrators, without asking the server', async () => {
    signIn('member');
    mount();
    expect(await screen.findByText('Only administrators of an organization can see its access log.')).toBeTruthy();
    expect(auditEventsApi.list).not.toHaveBeenCalled();
  });
});
