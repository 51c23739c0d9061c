import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { cleanup, render, screen } from '@testing-library/react';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LANGUAGES } from '../../../contract/constants';
import { activateLocale, catalogLoaders } from './activate';

afterEach(async () => {
  cleanup();
  await activateLocale('en');
});

const msgids = (locale: string) => {
  const po = readFileSync(path.resolve('src/locales', locale, 'messages.po'), 'utf8');
  return [...po.matchAll(/^msgid "(.+)"\nmsgstr "(.*)"$/gm)].map((m) => ({ id: m[1]!, str: m[2]! }));
};

describe('catalogs', () => {
  it.each(LANGUAGES)('%s translates every message of the source catalog', (locale) => {
    const source = msgids('en').map((m) => m.id);
    const entries = msgids(locale);
    expect(entries.map((m) => m.id).sort()).toEqual([...source].sort());
    expect(entries.filter((m) => m.str === '').map((m) => m.id)).toEqual([]);
  });

  it.each(LANGUAGES)('%s has as many compiled messages as the source catalog', async (locale) => {
    const { messages } = await catalogLoaders[locale]();
    expect(Object.keys(messages).length).toBe(msgids('en').length);
  });

  it('renders messages whose id hash contains + or / (compiled by the SWC plugin in URL-safe form)', async () => {
    await activateLocale('pt');
    render(
      <I18nProvider i18n={i18n}>
        <p>
          <Trans>Create your account</Trans>
        </p>
        <p>
          <Trans>Audio</Trans>
        </p>
      </I18nProvider>,
    );
    expect(screen.getByText('Crie a sua conta')).toBeTruthy();
    expect(screen.getByText('Áudio')).toBeTruthy();
  });
});
