import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { act, cleanup, render } from '@testing-library/react';
import { Provider } from 'jotai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { appStore } from '../app-state';
import { confirm } from './confirm';
import { ConfirmWhenAsked } from './ConfirmWhenAsked';

// The dialog's code cannot be fetched (offline before it was kept, or replaced by an update).
vi.mock('./ConfirmDialogHost', () => {
  throw new Error('Failed to fetch dynamically imported module');
});

afterEach(cleanup);

describe('a question asked while the dialog’s code cannot load', () => {
  it('is asked by the browser’s own dialog, and its answer is the answer', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const browserConfirm = vi.spyOn(window, 'confirm').mockReturnValue(true);
    render(
      <Provider store={appStore}>
        <I18nProvider i18n={i18n}>
          <ConfirmWhenAsked />
        </I18nProvider>
      </Provider>,
    );
    let answer: Promise<boolean> | undefined;
    await act(async () => {
      answer = confirm({ type: 'warning', title: 'Finish this consultation?', message: 'The documents are written next.' });
    });
    await expect(answer).resolves.toBe(true);
    expect(browserConfirm).toHaveBeenCalledWith('Finish this consultation?\n\nThe documents are written next.');
  });
});
