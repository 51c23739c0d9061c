import type { Language } from './constants.js';

/**
 * The date written on a document (its text and its PDF header alike), in the document's language: one format per
 * language, so an English PDF never says "November 24, 2026" above a text dated "24 November 2026".
 */
const LOCALES: Record<Language, string> = { pt: 'pt-PT', en: 'en-GB', de: 'de-DE', es: 'es-ES' };

export function formatDocumentDate(d: Date, language: Language): string {
  return new Intl.DateTimeFormat(LOCALES[language], { dateStyle: 'long' }).format(d);
}
