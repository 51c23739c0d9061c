import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RecentConsultations } from './RecentConsultations';

const inAnHour = new Date(Date.now() + 3_600_000).toISOString();
const sessions = Array.from({ length: 7 }, (_, i) => ({
  id: `s${i}`,
  status: 'finished',
  consultation_type_id: 'general_consultation',
  show_transcription: false,
  finished_at: `2026-11-24T1${i}:00:00Z`,
  created_at: `2026-11-24T1${i}:00:00Z`,
  expires_at: inAnHour,
  patient_label: `Patient ${i}`,
  excerpt: i === 6 ? 'Persistent dry cough' : i === 5 ? 'Antecedentes: história familiar de asma' : null,
}));

vi.mock('../../api/consultations', () => ({ consultationsApi: { recent: vi.fn(async () => ({ consultation_sessions: sessions })) } }));
// The list's links need no router to be counted and read.
vi.mock('@tanstack/react-router', () => ({ Link: ({ children }: { children: ReactNode }) => <a href="#consultation">{children}</a> }));

afterEach(cleanup);

const mount = (compact: boolean) =>
  render(
    <I18nProvider i18n={i18n}>
      <RecentConsultations types={[{ id: 'general_consultation', name: 'General consultation' } as never]} compact={compact} />
    </I18nProvider>,
  );

describe('recent consultations', () => {
  it('in quick access lists the latest five until all are asked for, and a search looks through all of them', async () => {
    mount(true);
    expect(await screen.findAllByTestId('recent-consultation')).toHaveLength(5);
    expect(screen.getByRole('heading', { level: 3, name: 'Recent consultations' })).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Search consultations'), { target: { value: 'dry cough' } });
    expect(screen.getAllByTestId('recent-consultation')).toHaveLength(1);
    expect(screen.getByText('Patient 6')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Search consultations'), { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Show all (7)' }));
    expect(screen.getAllByTestId('recent-consultation')).toHaveLength(7);
    expect(screen.queryByRole('button', { name: /Show all/ })).toBeNull();
  });

  it('on the classic home lists every kept consultation under its own section heading', async () => {
    mount(false);
    expect(await screen.findAllByTestId('recent-consultation')).toHaveLength(7);
    // Those whose notes have no words yet say so calmly, instead of a row of blanks or nothing.
    expect(screen.getAllByText('No notes yet')).toHaveLength(5);
    expect(screen.getByRole('heading', { level: 2, name: 'Recent consultations' })).toBeTruthy();
  });

  it('finds words typed with or without their accents', async () => {
    mount(false);
    await screen.findAllByTestId('recent-consultation');
    fireEvent.change(screen.getByLabelText('Search consultations'), { target: { value: 'historia' } });
    expect(screen.getAllByTestId('recent-consultation')).toHaveLength(1);
    expect(screen.getByText('Patient 5')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Search consultations'), { target: { value: 'família' } });
    expect(screen.getAllByTestId('recent-consultation')).toHaveLength(1);
  });
});
