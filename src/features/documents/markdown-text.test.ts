// @vitest-environment node
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import Markdown from 'react-markdown';
import { describe, expect, it } from 'vitest';
import { markdownPlugins } from '../../../contract/markdown-doc';
import { markdownToPlainText } from '../../../contract/markdown-text';
import { CLINICAL_MARKDOWN, CLINICAL_STRINGS } from './clinical-text.fixture';

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

describe('the plain-text copy, from the parse the screen and the PDF use', () => {
  it('keeps every symbol, Greek letter and accent as written', () => {
    const text = markdownToPlainText(CLINICAL_MARKDOWN);
    for (const s of CLINICAL_STRINGS) expect(text).toContain(s);
  });

  it('keeps list numbers, a list that starts at 4, nested lists and tables', () => {
    const md =
      '1. Primeiro\n2. Segundo\n   - sub-item\n3. Terceiro\n\nTexto.\n\n4. Quarto\n5. Quinto\n\n| Parâmetro | Valor |\n|---|--:|\n| HbA1c | 7,2 % |\n| TA | ≤ 140/90 |';
    expect(markdownToPlainText(md)).toBe(
      '1. Primeiro\n2. Segundo\n   - sub-item\n3. Terceiro\n\nTexto.\n\n4. Quarto\n5. Quinto\n\nParâmetro | Valor\nHbA1c | 7,2 %\nTA | ≤ 140/90',
    );
  });

  it('reads "~5 mg" as about five, not as struck-out text, and marks real strikethrough', () => {
    expect(markdownToPlainText('Dose ~5 mg a ~10 mg; ~~varfarina~~')).toBe('Dose ~5 mg a ~10 mg; ~~varfarina~~');
  });
});

describe('text the markdown syntax would otherwise swallow', () => {
  const definitions = 'Antes\n\n[Alergias]: penicilina\n\n[1]: Paracetamol\n\nVer [1] e [Alergias].\n\n> [Nota]: rever\n\nDepois';

  it('keeps a line that reads as a link reference definition as written, and the references to it', () => {
    expect(markdownToPlainText(definitions)).toBe('Antes\n\n[Alergias]: penicilina\n\n[1]: Paracetamol\n\nVer [1] e [Alergias].\n\n[Nota]: rever\n\nDepois');
  });

  it('shows those lines on screen too, with the plugins the screen renders with', () => {
    const html = renderToStaticMarkup(createElement(Markdown, { remarkPlugins: markdownPlugins }, definitions));
    expect(html).toContain('<p>[Alergias]: penicilina</p>');
    expect(html).toContain('<p>[1]: Paracetamol</p>');
    expect(html).toContain('<p>Ver [1] e [Alergias].</p>');
    expect(html).toContain('<blockquote>\n<p>[Nota]: rever</p>\n</blockquote>');
    expect(html).not.toContain('<a');
  });

  it('reads Windows and old Mac line ends as line ends, with no carriage return left', () => {
    const text = markdownToPlainText('Linha um\r\nLinha dois  \r\nLinha três\r\n\r\n- a\r\n- b\rc');
    expect(text).toBe('Linha um\nLinha dois\nLinha três\n\n- a\n- b\n  c');
  });
});
