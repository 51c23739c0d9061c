/**
 * Markdown as the plain text a clinician pastes into a record system, and as blocks for the PDF. Only what
 * documents use: headings, paragraphs, lists, emphasis, links and code spans.
 */
export type TextBlock = { kind: 'h1' | 'h2' | 'h3' | 'p' | 'li' | 'blank'; text: string };

/** Emphasis, code and link syntax removed from one line, keeping the words. */
export function inlinePlain(line: string): string {
  return line
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/(\*\*|__)(.+?)\1/g, '$2')
    .replace(/(^|[^\w*])[*_]([^*_\s][^*_]*?)[*_](?=[^\w*]|$)/g, '$1$2')
    .replace(/\\([\\`*_{}[\]()#+\-.!])/g, '$1');
}

export function markdownToBlocks(markdown: string): TextBlock[] {
  const blocks: TextBlock[] = [];
  for (const raw of markdown.replace(/\r\n?/g, '\n').split('\n')) {
    const line = raw.trimEnd();
    if (!line.trim()) {
      if (blocks.length && blocks.at(-1)!.kind !== 'blank') blocks.push({ kind: 'blank', text: '' });
      continue;
    }
    const heading = line.match(/^(#{1,6})\s+(.*)$/);
    if (heading) {
      const level = heading[1]!.length;
      blocks.push({ kind: level === 1 ? 'h1' : level === 2 ? 'h2' : 'h3', text: inlinePlain(heading[2]!) });
      continue;
    }
    const item = line.match(/^\s*(?:[-*+]|\d+[.)])\s+(.*)$/);
    if (item) {
      blocks.push({ kind: 'li', text: inlinePlain(item[1]!) });
      continue;
    }
    if (/^\s*([-*_])\s*\1\s*\1[\s\-*_]*$/.test(line)) continue;
    blocks.push({ kind: 'p', text: inlinePlain(line.replace(/^>\s?/, '')) });
  }
  while (blocks.at(-1)?.kind === 'blank') blocks.pop();
  return blocks;
}

export function markdownToPlainText(markdown: string): string {
  return markdownToBlocks(markdown)
    .map((b) => (b.kind === 'li' ? `- ${b.text}` : b.kind === 'h1' || b.kind === 'h2' || b.kind === 'h3' ? b.text.toUpperCase() : b.text))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n');
}
