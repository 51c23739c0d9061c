import { describe, expect, it } from 'vitest';
import { foldForSearch, searchMatcher } from './search-match';

describe('search matching', () => {
  it('ignores case and accents both ways', () => {
    expect(searchMatcher('familia')('Medicina Geral e Família')).toBe(true);
    expect(searchMatcher('FAMÍLIA')('medicina geral e familia')).toBe(true);
    expect(searchMatcher('Überweisung')('ueberweisung, uberweisung')).toBe(true);
    expect(searchMatcher('coração')('Cardiologia: coracao')).toBe(true);
    expect(searchMatcher('niño')('Pediatría: nino')).toBe(true);
    expect(searchMatcher('asma')('Medicina Geral e Família')).toBe(false);
  });

  it('matches everything when nothing is typed', () => {
    expect(searchMatcher('  ')('anything')).toBe(true);
  });

  it('folds precomposed and decomposed letters alike', () => {
    expect(foldForSearch('fami\u0301lia')).toBe(foldForSearch('família'));
  });
});
