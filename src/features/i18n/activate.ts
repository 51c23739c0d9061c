import { i18n, type Messages } from '@lingui/core';
import type { Language } from '../../../contract/account';
import { STORAGE_KEYS } from '../../offline/storage-keys';
import { withUrlSafeIds } from './catalog-ids';

// One catalog is loaded at a time; each is its own chunk, fetched when the language is chosen.
export const catalogLoaders: Record<Language, () => Promise<{ messages: Messages }>> = {
  pt: () => import('../../locales/pt/messages.po'),
  en: () => import('../../locales/en/messages.po'),
  de: () => import('../../locales/de/messages.po'),
  es: () => import('../../locales/es/messages.po'),
};

export async function activateLocale(locale: Language, opts: { remember?: boolean } = {}): Promise<void> {
  const { messages } = await catalogLoaders[locale]();
  i18n.loadAndActivate({ locale, messages: withUrlSafeIds(messages) });
  document.documentElement.lang = locale;
  if (opts.remember) localStorage.setItem(STORAGE_KEYS.locale, locale);
}
