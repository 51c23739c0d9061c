// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { markdownToPlainText } from '../../../contract/markdown-text';

describe('markdown as text', () => {
  it('keeps the words and drops the syntax', () => {
    const md = '# Notas\n\n## Subjetivo\nDor **forte** há _dois_ dias, ver [guia](https://x.test) e `ECG`.\n\n- Paracetamol 1 g\n1. Rever\n\n---\n> citação';
    // "1. Rever" right after a bullet starts a numbered list of its own, as the screen shows it.
    expect(markdownToPlainText(md)).toBe('Notas\n\nSubjetivo\n\nDor forte há dois dias, ver guia e ECG.\n\n- Paracetamol 1 g\n\n1. Rever\n\ncitação');
  });

  it('does not mistake words with underscores or lone asterisks for emphasis', () => {
    expect(markdownToPlainText('snake_case_name and 2 * 3 * 4')).toBe('snake_case_name and 2 * 3 * 4');
  });
});
