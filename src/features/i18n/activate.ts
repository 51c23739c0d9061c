import { i18n, type Messages } from '@lingui/core';
import type { Language } from '../../../contract/account';
import { STORAGE_KEYS } from '../../offline/storage-keys';

// One catalog is loaded at a time; each is its own chunk, fetched when the language is chosen.
const loaders: Record<Language, () => Promise<{ messages: Messages }>> = {
  pt: () => import('../../locales/pt/messages.po'),
  en: () => import('../../locales/en/messages.po'),
  de: () => import('../../locales/de/messages.po'),
  es: () => import('../../locales/es/messages.po'),
};

export async function activateLocale(locale: Language, opts: { remember?: boolean } = {}): Promise<void> {
  const { messages } = await loaders[locale]();
  i18n.loadAndActivate({ locale, messages });
  document.documentElement.lang = locale;
  if (opts.remember) localStorage.setItem(STORAGE_KEYS.locale, locale);
}
