import { describe, expect, it } from 'vitest';
import { markdownToBlocks, markdownToPlainText } from '../../../contract/markdown-text';

describe('markdown as text', () => {
  it('keeps the words and drops the syntax', () => {
    const md = '# Notas\n\n## Subjetivo\nDor **forte** há _dois_ dias, ver [guia](https://x.test) e `ECG`.\n\n- Paracetamol 1 g\n1. Rever\n\n---\n> citação';
    expect(markdownToPlainText(md)).toBe('NOTAS\n\nSUBJETIVO\nDor forte há dois dias, ver guia e ECG.\n\n- Paracetamol 1 g\n- Rever\n\ncitação');
  });

  it('does not mistake words with underscores or lone asterisks for emphasis', () => {
    expect(markdownToBlocks('snake_case_name and 2 * 3 * 4')).toEqual([{ kind: 'p', text: 'snake_case_name and 2 * 3 * 4' }]);
  });
});
