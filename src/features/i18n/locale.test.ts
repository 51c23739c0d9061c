import { describe, expect, it } from 'vitest';
import { resolveLocale } from './locale';

describe('resolveLocale (spec §4: saved locale, then browser, then pt)', () => {
  it.each<[string | null, string[], string]>([
    ['de', ['es-ES'], 'de'],
    [null, ['es-ES', 'en'], 'es'],
    [null, ['fr-FR', 'en-GB'], 'en'],
    [null, ['pt-BR'], 'pt'],
    [null, ['fr', 'it'], 'pt'],
    [null, [], 'pt'],
    ['fr', ['de-AT'], 'de'],
    ['', ['EN-us'], 'en'],
  ])('saved %s, browser %j → %s', (saved, browser, expected) => {
    expect(resolveLocale(saved, browser)).toBe(expected);
  });
});
