/**
 * Text as a search compares it: lower case, accents and other combining marks removed, so that "familia" finds
 * "Família" and "família" finds "Familia" — clinicians type fast, often without accents, on any keyboard.
 */
export function foldForSearch(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLocaleLowerCase().normalize('NFC');
}

/** A matcher for one query typed in a search field: an empty query matches everything. */
export function searchMatcher(query: string): (text: string) => boolean {
  const q = foldForSearch(query.trim());
  return (text) => !q || foldForSearch(text).includes(q);
}
