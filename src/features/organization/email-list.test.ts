import { describe, expect, it } from 'vitest';
import { parseEmailList } from './email-list';

describe('parseEmailList', () => {
  it('takes one address per line, ignores blanks and repeats, and tells the invalid ones apart', () => {
    expect(parseEmailList('ana@clinic.pt\n\n  rui@clinic.pt \nana@clinic.pt\nnot-an-email; eva@x.de')).toEqual({
      valid: ['ana@clinic.pt', 'rui@clinic.pt', 'eva@x.de'],
      invalid: ['not-an-email'],
    });
    expect(parseEmailList('   \n ')).toEqual({ valid: [], invalid: [] });
  });
});
