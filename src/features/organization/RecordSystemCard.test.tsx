import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiFailureError } from '../../api/client';
import { RecordSystemCard } from './RecordSystemCard';

const api = vi.hoisted(() => ({ recordSystem: vi.fn(), saveRecordSystem: vi.fn(), removeRecordSystem: vi.fn() }));
vi.mock('../../api/organizations', () => ({ organizationsApi: api }));

afterEach(cleanup);
const mount = () =>
  render(
    <I18nProvider i18n={i18n}>
      <RecordSystemCard orgId="org-1" onChange={() => undefined} />
    </I18nProvider>,
  );

describe('the record system card', () => {
  it('shows no empty form when the saved settings could not be read, so nobody saves over them', async () => {
    api.recordSystem.mockRejectedValue(new ApiFailureError({ kind: 'http', status: 500, code: 'internal_error', message: 'boom', fields: {} }));
    mount();
    expect(await screen.findByRole('alert')).toBeTruthy();
    expect(screen.queryByLabelText('FHIR base address')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
    expect(screen.queryByText('Loading…')).toBeNull();
  });

  it('shows the form once they are read (or there are none yet)', async () => {
    api.recordSystem.mockResolvedValue({ fhir_endpoint: null });
    mount();
    expect(await screen.findByLabelText('FHIR base address')).toBeTruthy();
  });
});
