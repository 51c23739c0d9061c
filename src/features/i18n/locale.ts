import { LANGUAGES, type Language } from '../../../contract/constants';

export const DEFAULT_LOCALE: Language = 'pt';

export function isSupportedLocale(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** Spec §4: the saved `locale`, then the first supported browser language, else pt. */
export function resolveLocale(saved: string | null | undefined, browserLanguages: readonly string[]): Language {
  if (isSupportedLocale(saved)) return saved;
  for (const tag of browserLanguages) {
    const base = tag.toLowerCase().split('-')[0];
    if (isSupportedLocale(base)) return base;
  }
  return DEFAULT_LOCALE;
}
