import { parseMarkdown, type DocBlock, type Span } from '../../../../contract/markdown-doc.js';

// Control characters are not allowed in XML, escaped or not: they are dropped (tabs and line breaks stay). So is
// half of a surrogate pair without its other half, which is no character at all and makes the XML invalid.
export const escapeXml = (text: string) =>
  text
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\ufffe\uffff]/g, '')
    .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');

/**
 * The markdown as FHIR narrative, from the same parse as the screen, the PDF and the plain text: headings,
 * paragraphs, numbered lists with their numbers, nested lists, quotes, code and tables, every character escaped
 * (no markup of the model's passes through).
 */
export function markdownToNarrative(markdown: string): string {
  const html = parseMarkdown(markdown).map(blockHtml).join('');
  // A narrative must hold some text (txt-2): a document of rules only keeps its characters as a paragraph.
  const body = /[^\s]/.test(html.replace(/<[^>]+>/g, '')) ? html : `<p>${escapeXml(markdown.trim()) || '-'}</p>`;
  return `<div xmlns="http://www.w3.org/1999/xhtml">${body}</div>`;
}

function blockHtml(block: DocBlock): string {
  switch (block.kind) {
    case 'heading':
      return `<h${block.level}>${inlineHtml(block.spans)}</h${block.level}>`;
    case 'paragraph':
      return `<p>${inlineHtml(block.spans)}</p>`;
    case 'list': {
      const tag = block.ordered ? 'ol' : 'ul';
      const start = block.ordered && block.start !== 1 ? ` start="${block.start}"` : '';
      const items = block.items.map((item) => `<li>${item.checked === null ? '' : item.checked ? '[x] ' : '[ ] '}${itemHtml(item.blocks)}</li>`);
      return `<${tag}${start}>${items.join('')}</${tag}>`;
    }
    case 'quote':
      return `<blockquote>${block.blocks.map(blockHtml).join('')}</blockquote>`;
    case 'code':
      return `<pre>${escapeXml(block.text)}</pre>`;
    case 'rule':
      return '';
    case 'table': {
      const row = (cells: Span[][], tag: 'th' | 'td') => `<tr>${cells.map((cell) => `<${tag}>${inlineHtml(cell)}</${tag}>`).join('')}</tr>`;
      return `<table><thead>${row(block.header, 'th')}</thead><tbody>${block.rows.map((r) => row(r, 'td')).join('')}</tbody></table>`;
    }
  }
}

/** A list item of one paragraph is written without the paragraph around it, as a tight list reads. */
function itemHtml(blocks: DocBlock[]): string {
  const [first, ...rest] = blocks;
  if (first?.kind === 'paragraph') return inlineHtml(first.spans) + rest.map(blockHtml).join('');
  return blocks.map(blockHtml).join('');
}

function inlineHtml(spans: Span[]): string {
  return spans
    .map((span) => {
      let html = escapeXml(span.text).replace(/\n/g, '<br/>');
      if (span.code) html = `<code>${html}</code>`;
      if (span.strike) html = `<s>${html}</s>`;
      if (span.italic) html = `<i>${html}</i>`;
      if (span.bold) html = `<b>${html}</b>`;
      return html;
    })
    .join('');
}
