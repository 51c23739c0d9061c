/**
 * Markdown as the plain text a clinician pastes into a record system that keeps only text: drawn from the same
 * parse as the screen and the PDF (markdown-doc.ts), so tables keep their cells and numbered lists their numbers as
 * the screen shows them: counted on from the list's first number, not as each item was typed ("1. 3. 7." reads 1. 2. 3.).
 * Nothing is re-cased: an upper-cased heading would turn "µg" into "ΜG" and "Größe" into "GRÖSSE".
 */
import { parseMarkdown, type DocBlock, type Span } from './markdown-doc.js';

export function markdownToPlainText(markdown: string): string {
  return blocksText(parseMarkdown(markdown), '\n\n');
}

function blocksText(blocks: DocBlock[], gap: string): string {
  return blocks
    .map(blockText)
    .filter((text) => text !== '')
    .join(gap);
}

function blockText(block: DocBlock): string {
  switch (block.kind) {
    case 'heading':
    case 'paragraph':
      return inlineText(block.spans);
    case 'list':
      return block.items
        .map((item, i) => {
          const marker = `${block.ordered ? `${block.start + i}.` : '-'} ${item.checked === null ? '' : item.checked ? '[x] ' : '[ ] '}`;
          const body = blocksText(item.blocks, '\n');
          // Continuation lines (a second paragraph, a nested list) line up under the item's first word.
          return marker + body.replace(/\n/g, `\n${' '.repeat(marker.length)}`);
        })
        .join('\n');
    case 'quote':
      return blocksText(block.blocks, '\n\n');
    case 'code':
      return block.text;
    // A rule only separates sections, which the blank line between blocks already does.
    case 'rule':
      return '';
    case 'table':
      return [block.header, ...block.rows].map((row) => row.map((cell) => inlineText(cell).replace(/\s*\n\s*/g, ' ')).join(' | ')).join('\n');
  }
}

/** Struck-out text stays marked as struck: a line through a dose means it was withdrawn, not that it stands. */
function inlineText(spans: Span[]): string {
  return spans.map((s) => (s.strike ? `~~${s.text}~~` : s.text)).join('');
}
