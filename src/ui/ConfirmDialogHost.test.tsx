import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { I18nProvider } from '@lingui/react';
import { i18n } from '@lingui/core';
import { Provider } from 'jotai';
import { afterEach, describe, expect, it } from 'vitest';
import { appStore } from '../app-state';
import { confirm } from './confirm';
import { ConfirmDialogHost } from './ConfirmDialogHost';

afterEach(cleanup);
const mount = () =>
  render(
    <Provider store={appStore}>
      <I18nProvider i18n={i18n}>
        <ConfirmDialogHost />
      </I18nProvider>
    </Provider>,
  );

describe('general confirmation dialog', () => {
  it('confirm type: Confirm and Cancel buttons and a close button; Confirm resolves true', async () => {
    mount();
    let answer: Promise<boolean>;
    act(() => {
      answer = confirm({ title: 'Delete?', message: 'It cannot be undone.' });
    });
    expect(screen.getByRole('alertdialog', { name: 'Delete?' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Close' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    await expect(answer!).resolves.toBe(true);
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('info type: only OK, no cancel or close', async () => {
    mount();
    let answer: Promise<boolean>;
    act(() => {
      answer = confirm({ type: 'info', title: 'Saved', message: 'Done.' });
    });
    expect(screen.queryByRole('button', { name: 'Cancel' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Close' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'OK' }));
    await expect(answer!).resolves.toBe(true);
  });

  it('Escape cancels a warning', async () => {
    mount();
    let answer: Promise<boolean>;
    act(() => {
      answer = confirm({ type: 'warning', title: 'Leave?', message: 'Documents not generated.' });
    });
    fireEvent.keyDown(screen.getByRole('alertdialog'), { key: 'Escape' });
    await expect(answer!).resolves.toBe(false);
  });

  it('custom labels replace the defaults', async () => {
    mount();
    act(() => {
      void confirm({ title: 'T', message: 'M', confirmLabel: 'Leave', cancelLabel: 'Stay' });
    });
    expect(screen.getByRole('button', { name: 'Leave' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Stay' })).toBeTruthy();
  });
});
