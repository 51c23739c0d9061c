import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AwaitedPartsNotice } from './AwaitedPartsNotice';
import type { AwaitedOnDevice } from './awaited-parts';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const mount = (awaited: AwaitedOnDevice) =>
  render(
    <I18nProvider i18n={i18n}>
      <AwaitedPartsNotice awaited={awaited} />
    </I18nProvider>,
  );

describe('the parts the notes wait for', () => {
  it('names each part and its device, counts down every second, and tells screen readers the clock time instead', () => {
    vi.useFakeTimers({ now: new Date('2026-03-02T10:00:00') });
    mount({
      missing: [
        { first_order: 3, last_order: 3, device: 'phone' },
        { first_order: 6, last_order: 7, device: 'teleconsultation' },
      ],
      deadline: Date.now() + 460_000,
    });
    const shown = screen.getByTestId('awaited-parts').querySelector('[aria-hidden="true"]')!;
    expect(shown.textContent).toBe(
      'Waiting for part 4 from the phone. Waiting for parts 7–8 from the computer recording the call. The document will be written without them in 7:40.',
    );
    const status = screen.getByRole('status');
    const said = status.textContent;
    expect(said).toMatch(/^Waiting for part 4 from the phone\. .* The document will be written without them at 10:07/);
    act(() => vi.advanceTimersByTime(3000));
    expect(shown.textContent).toContain('in 7:37.');
    // The status does not change with the seconds: nothing is announced every second.
    expect(status.textContent).toBe(said);
  });

  it('says the document is being written without the part once the time is up', () => {
    vi.useFakeTimers({ now: new Date('2026-03-02T10:00:00') });
    mount({ missing: [{ first_order: 0, last_order: 0, device: null }], deadline: Date.now() + 1500 });
    expect(screen.getByTestId('awaited-parts').textContent).toContain('Waiting for part 1. The document will be written without it in 0:02.');
    act(() => vi.advanceTimersByTime(2000));
    expect(screen.getByRole('status').textContent).toBe('Waiting for part 1. The document is being written without it.');
  });
});
