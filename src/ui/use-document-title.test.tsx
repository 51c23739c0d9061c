import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { cleanup, render } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { useDocumentTitle } from './use-document-title';

function Screen({ name }: { name?: string }) {
  useDocumentTitle(name);
  return null;
}

beforeAll(() => {
  i18n.loadAndActivate({ locale: 'en', messages: {} });
});
afterEach(cleanup);

describe('the tab title', () => {
  it('names the screen, then the product; the product alone while the screen has no name and after it closes', () => {
    const view = render(
      <I18nProvider i18n={i18n}>
        <Screen name="Settings" />
      </I18nProvider>,
    );
    expect(document.title).toBe('Settings · Consultation Notes');
    view.rerender(
      <I18nProvider i18n={i18n}>
        <Screen />
      </I18nProvider>,
    );
    expect(document.title).toBe('Consultation Notes');
    view.rerender(
      <I18nProvider i18n={i18n}>
        <Screen name="Ana P." />
      </I18nProvider>,
    );
    expect(document.title).toBe('Ana P. · Consultation Notes');
    view.unmount();
    expect(document.title).toBe('Consultation Notes');
  });
});
