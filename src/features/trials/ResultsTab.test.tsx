import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { researchApi } from '../../api/research';
import type { EvaluationResult, Screening, Trial } from '../../api/research';
import { ResultsTab } from './ResultsTab';

/** A screening server in memory: started, then one more patient done at each poll. */
let screening: Screening | undefined;
let results: EvaluationResult[] = [];
const polls = vi.fn();

const result: EvaluationResult = {
  id: 'r1',
  trial_id: 't1',
  patient_id: 'p1',
  patient_label: 'P-0042',
  pre_evaluation: 'fit',
  criteria_met: 2,
  criteria_total: 2,
  criteria: [],
  explanation: '',
  status: 'in_review',
  engine: 'offline',
  reviewed_at: null,
  created_at: '2026-11-22T10:00:00Z',
};

vi.mock('../../api/research', async (original) => ({
  ...(await original<typeof import('../../api/research')>()),
  researchApi: {
    results: vi.fn(async () => ({ results })),
    screenings: vi.fn(async () => ({ screenings: screening ? [screening] : [] })),
    startScreening: vi.fn(async () => {
      screening = { id: 's1', trial_id: 't1', status: 'running', total: 2, done: 0, engine: 'offline', error: null, created_at: '', completed_at: null };
      return { screening };
    }),
    screening: vi.fn(async () => {
      polls();
      const done = screening!.done + 1;
      screening = { ...screening!, done, status: done === screening!.total ? 'completed' : 'running' };
      if (screening.status === 'completed') results = [result];
      return { screening };
    }),
  },
}));

const trial: Trial = { id: 't1', name: 'DIA-3', description: '', created_at: '', updated_at: '', criteria: [{ id: 'c1', definition: 'Adults', type: 'critical_inclusion', needs_review: false }] };

beforeEach(() => {
  screening = undefined;
  results = [];
  polls.mockReset();
  i18n.activate('en');
});
afterEach(cleanup);

const mount = (patientCount = 2, trials = [trial]) =>
  render(
    <I18nProvider i18n={i18n}>
      <ResultsTab spaceId="space" trials={trials} patientIds={Array.from({ length: patientCount }, (_, i) => `p${i + 1}`)} />
    </I18nProvider>,
  );

describe('the results tab', () => {
  it('shows the screening running with its progress, then the results when it ends', async () => {
    mount();
    expect(await screen.findByText('No results for this trial yet. Run the screening.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Run screening' }));
    expect(await screen.findByText('Screening 0 of 2 patients…')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Screening…' }).getAttribute('aria-busy')).toBe('true');
    expect(await screen.findByText('Screening 1 of 2 patients…', {}, { timeout: 3000 })).toBeTruthy();
    expect(await screen.findByText('P-0042', {}, { timeout: 3000 })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Run screening' })).toBeTruthy();
    expect(polls).toHaveBeenCalledTimes(2);
  });

  it('can screen only the patients added since the last screening', async () => {
    results = [result];
    mount(3);
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Only the 2 patients not yet screened for this trial' }));
    fireEvent.click(screen.getByRole('button', { name: 'Run screening' }));
    expect(await screen.findByText('Screening 0 of 2 patients…')).toBeTruthy();
    expect(researchApi.startScreening).toHaveBeenLastCalledWith('space', 't1', ['p2', 'p3']);
  });

  it('filters the results by pre-evaluation and by what is still to decide', async () => {
    results = [result, { ...result, id: 'r2', patient_id: 'p2', patient_label: 'P-0077', pre_evaluation: 'not_approved', status: 'declined' }];
    mount();
    expect(await screen.findByText('P-0077')).toBeTruthy();
    const show = screen.getByLabelText('Show');
    fireEvent.change(show, { target: { value: 'not_approved' } });
    expect(screen.queryByText('P-0042')).toBeNull();
    expect(screen.getByText('P-0077')).toBeTruthy();
    fireEvent.change(show, { target: { value: 'to_review' } });
    expect(screen.getByText('P-0042')).toBeTruthy();
    expect(screen.queryByText('P-0077')).toBeNull();
    expect(screen.getByRole('option', { name: 'Still to decide (1)' })).toBeTruthy();
  });

  it('says why a screening cannot run yet', async () => {
    mount(0);
    expect(await screen.findByText('Add patients before screening.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Run screening' }).hasAttribute('disabled')).toBe(true);
    cleanup();
    mount(2, [{ ...trial, criteria: [] }]);
    expect(await screen.findByText('This trial has no criteria yet.')).toBeTruthy();
  });
});
