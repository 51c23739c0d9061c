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
  relevance: 64,
  criteria: [],
  explanation: '',
  status: 'in_review',
  machine_status: 'in_review',
  engine: 'offline',
  decision: null,
  decision_note: '',
  decided_by: null,
  decided_at: null,
  decided_on_pre_evaluation: null,
  machine_changed_since_decision: false,
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
    decideResult: vi.fn(async (_space: string, id: string, change: { decision?: 'approved' | 'declined' | null; note?: string }) => {
      const found = results.find((r) => r.id === id)!;
      const decision = change.decision === undefined ? found.decision : change.decision;
      return {
        result: {
          ...found,
          decision,
          status: decision ?? found.machine_status,
          decision_note: change.note ?? found.decision_note,
          machine_changed_since_decision: false,
        },
      };
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

const trial: Trial = {
  id: 't1',
  name: 'DIA-3',
  description: '',
  created_at: '',
  updated_at: '',
  criteria: [{ id: 'c1', definition: 'Adults', type: 'critical_inclusion', needs_review: false }],
};

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
    results = [
      result,
      { ...result, id: 'r2', patient_id: 'p2', patient_label: 'P-0077', pre_evaluation: 'not_approved', status: 'declined', decision: 'declined' },
    ];
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

  it('shows who decided and when, and says when the screening changed under the decision', async () => {
    const decided: EvaluationResult = {
      ...result,
      pre_evaluation: 'not_approved',
      status: 'approved',
      decision: 'approved',
      decision_note: 'Confirmed by phone.',
      decided_by: { id: 'u1', name: 'Ana Lopes' },
      decided_at: '2026-11-23T09:30:00Z',
      decided_on_pre_evaluation: 'fit',
      machine_changed_since_decision: true,
    };
    results = [decided, { ...result, id: 'r2', patient_id: 'p2', patient_label: 'P-0077' }];
    mount();
    expect(await screen.findByText('The screening changed since the decision')).toBeTruthy();
    // Only the decision the screening moved under is flagged.
    expect(screen.getAllByText('The screening changed since the decision')).toHaveLength(1);
    expect(screen.getByText('The screening changed since the decision').getAttribute('title')).toBe('When decided: Fit. Now: Not approved.');
    expect(screen.getByText(/^Approved by Ana Lopes, /)).toBeTruthy();
    expect((screen.getByLabelText('Result for P-0042') as HTMLSelectElement).value).toBe('approved');

    fireEvent.click(screen.getByRole('button', { name: 'Details for P-0042' }));
    expect(await screen.findByText(/The decision stands; approve or decline again to confirm it/)).toBeTruthy();
    const note = screen.getByLabelText("Reviewer's note") as HTMLTextAreaElement;
    expect(note.value).toBe('Confirmed by phone.');
    fireEvent.change(note, { target: { value: 'Confirmed again after the new screening.' } });
    fireEvent.click(screen.getByRole('button', { name: 'Approve' }));
    expect(researchApi.decideResult).toHaveBeenLastCalledWith('space', 'r1', { decision: 'approved', note: 'Confirmed again after the new screening.' });
    await screen.findByText('P-0042');
    expect(screen.queryByText('The screening changed since the decision')).toBeNull();

    // Choosing the screening's own status in the list undoes the decision.
    fireEvent.change(screen.getByLabelText('Result for P-0042'), { target: { value: '' } });
    expect(researchApi.decideResult).toHaveBeenLastCalledWith('space', 'r1', { decision: null });
  });

  it("shows each patient's relevance, and under an unclear criterion the closest sentences with the matched words marked", async () => {
    results = [
      {
        ...result,
        relevance: 81,
        criteria: [
          {
            criterion_id: 'c1',
            definition: 'Platelet count < 100,000/µL',
            type: 'non_critical_exclusion',
            needs_review: false,
            verdict: 'unclear',
            evidence: '',
            passages: [{ text: 'Laboratory findings reveal a normal platelet count.', matched: ['platelet', 'count'] }],
          },
        ],
      },
    ];
    mount();
    expect(await screen.findByText('81 of 100')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Details for P-0042' }));
    expect(await screen.findByText('Relevance 81/100', { exact: false })).toBeTruthy();
    expect(screen.getByText('Closest sentences in the records, best first:')).toBeTruthy();
    const marked = [...document.querySelectorAll('.passages mark')].map((m) => m.textContent);
    expect(marked).toEqual(['platelet', 'count']);
    expect(screen.getByText('Matched: platelet, count')).toBeTruthy();
    // The passages stand in for 'not found': the record does speak of it.
    expect(screen.queryByText('Not found in the records.')).toBeNull();
  });
});
