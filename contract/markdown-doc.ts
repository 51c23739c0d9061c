/**
 * The one reading of a document's markdown: GitHub-flavoured (tables, task lists, strikethrough, footnotes), by
 * the same parser and plugins the screen renders with (react-markdown's `remarkPlugins`), turned into the few
 * blocks a document needs. The PDF, the plain-text copy and the FHIR narrative are all drawn from this, so none of
 * them can read a list, a table or an escape differently from what the clinician saw.
 */
import type { Definition, ListItem, Nodes, Paragraph, PhrasingContent, Root, RootContent, TableRow } from 'mdast';
import remarkGfm, { type Options as GfmOptions } from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified, type PluggableList } from 'unified';

// A single tilde is how clinicians write "about" (~5 mg … ~10 mg): it must never strike text out.
const GFM: GfmOptions = { singleTilde: false };

/**
 * A line such as "[Alergias]: penicilina" is, to markdown, a link reference definition: an address, shown nowhere.
 * A clinician writing it means the text, so it is kept as the paragraph it was written as. With no definition
 * left, a reference to it ("ver [1]") is no link either and reads as written too, on screen and in the exports.
 */
export function remarkDefinitionsAsText() {
  // The file is react-markdown's or the parse's: its value is the markdown the positions point into.
  return (tree: Root, file: { value: unknown }) => literalDefinitions(tree, String(file.value ?? ''));
}

function literalDefinitions(node: Nodes, source: string) {
  if (!('children' in node)) return;
  const children: Nodes[] = node.children;
  children.forEach((child, i) => {
    if (child.type === 'definition') children[i] = definitionParagraph(child, source);
    else literalDefinitions(child, source);
  });
}

function definitionParagraph(node: Definition, source: string): Paragraph {
  const start = node.position?.start;
  const end = node.position?.end;
  let text: string;
  if (start?.offset !== undefined && end?.offset !== undefined) {
    // A definition continued on further lines inside a quote or a list item carries their markers: those go.
    const [first = '', ...rest] = source.slice(start.offset, end.offset).split(/\r\n?|\n/);
    const marker = new RegExp(`^[ \\t>]{0,${start.column - 1}}`);
    text = [first, ...rest.map((line) => line.replace(marker, ''))].join('\n');
  } else {
    text = `[${node.label ?? node.identifier}]: ${node.url}${node.title ? ` "${node.title}"` : ''}`;
  }
  return { type: 'paragraph', children: [{ type: 'text', value: text }], position: node.position };
}

/** For react-markdown's `remarkPlugins`, so the screen parses exactly as the exports do. */
export const markdownPlugins: PluggableList = [[remarkGfm, GFM], remarkDefinitionsAsText];

export type Span = { text: string; bold?: boolean; italic?: boolean; code?: boolean; strike?: boolean };
export type Align = 'left' | 'right' | 'center' | null;
export type DocBlock =
  | { kind: 'heading'; level: number; spans: Span[] }
  | { kind: 'paragraph'; spans: Span[] }
  /** `start`: the number of the first item (a list may start at 4); `checked`: a task list item's box, per item. */
  | { kind: 'list'; ordered: boolean; start: number; items: { blocks: DocBlock[]; checked: boolean | null }[] }
  | { kind: 'quote'; blocks: DocBlock[] }
  | { kind: 'code'; text: string }
  | { kind: 'rule' }
  | { kind: 'table'; align: Align[]; header: Span[][]; rows: Span[][][] };

const parser = unified().use(remarkParse).use(remarkGfm, GFM).use(remarkDefinitionsAsText);

export function parseMarkdown(markdown: string): DocBlock[] {
  // Text pasted from Windows ends its lines in CR LF, and old Mac text in CR alone: a CR left in would print as a
  // character of its own ("[U+000D]") and stay in the copied text.
  const text = markdown.replace(/\r\n?/g, '\n');
  const tree = parser.parse(text);
  // The definitions plugin rewrites the tree in place.
  parser.runSync(tree, text);
  return blocksOf(tree.children);
}

function blocksOf(nodes: RootContent[]): DocBlock[] {
  return nodes.flatMap(blockOf);
}

function blockOf(node: RootContent): DocBlock[] {
  switch (node.type) {
    case 'heading':
      return [{ kind: 'heading', level: node.depth, spans: spansOf(node.children) }];
    case 'paragraph':
      return [{ kind: 'paragraph', spans: spansOf(node.children) }];
    case 'list':
      return [{ kind: 'list', ordered: node.ordered === true, start: node.start ?? 1, items: node.children.map(itemOf) }];
    case 'blockquote':
      return [{ kind: 'quote', blocks: blocksOf(node.children) }];
    case 'code':
      return [{ kind: 'code', text: node.value }];
    case 'thematicBreak':
      return [{ kind: 'rule' }];
    case 'table': {
      const [head, ...rows] = node.children;
      const cells = (row: TableRow | undefined) => (row ? row.children.map((cell) => spansOf(cell.children)) : []);
      return [{ kind: 'table', align: node.align ?? [], header: cells(head), rows: rows.map(cells) }];
    }
    // Raw HTML is not rendered on screen, but its characters are the clinician's text ("<3 days" and the like): kept.
    case 'html':
      return [{ kind: 'paragraph', spans: [{ text: node.value }] }];
    case 'footnoteDefinition':
      return prefixed(`[${node.label ?? node.identifier}] `, blocksOf(node.children));
    default:
      return [];
  }
}

function itemOf(item: ListItem): { blocks: DocBlock[]; checked: boolean | null } {
  return { blocks: blocksOf(item.children), checked: item.checked ?? null };
}

/** A footnote's label before its first paragraph. */
function prefixed(label: string, blocks: DocBlock[]): DocBlock[] {
  const [first, ...rest] = blocks;
  if (first?.kind === 'paragraph') return [{ kind: 'paragraph', spans: [{ text: label }, ...first.spans] }, ...rest];
  return [{ kind: 'paragraph', spans: [{ text: label.trimEnd() }] }, ...blocks];
}

type Style = Omit<Span, 'text'>;

function spansOf(nodes: PhrasingContent[], style: Style = {}): Span[] {
  const spans: Span[] = [];
  for (const node of nodes) {
    for (const span of spansOfNode(node, style)) {
      const last = spans.at(-1);
      if (last && sameStyle(last, span)) last.text += span.text;
      else spans.push({ ...span });
    }
  }
  return spans;
}

function spansOfNode(node: PhrasingContent, style: Style): Span[] {
  switch (node.type) {
    case 'text':
      return [{ ...style, text: node.value }];
    case 'strong':
      return spansOf(node.children, { ...style, bold: true });
    case 'emphasis':
      return spansOf(node.children, { ...style, italic: true });
    case 'delete':
      return spansOf(node.children, { ...style, strike: true });
    case 'inlineCode':
      return [{ ...style, code: true, text: node.value }];
    case 'break':
      return [{ ...style, text: '\n' }];
    case 'link':
      return spansOf(node.children, style);
    // Only a written definition makes a reference, and definitions are kept as text: the reference reads as
    // written, brackets and all, as the screen shows it.
    case 'linkReference':
      return spansOf([{ type: 'text', value: '[' }, ...node.children, { type: 'text', value: referenceEnd(node) }], style);
    case 'image':
      return node.alt ? [{ ...style, text: node.alt }] : [];
    case 'imageReference':
      return [{ ...style, text: `![${node.alt ?? ''}${referenceEnd(node)}` }];
    case 'footnoteReference':
      return [{ ...style, text: `[${node.label ?? node.identifier}]` }];
    case 'html':
      return [{ ...style, text: node.value }];
    default:
      return [];
  }
}

function referenceEnd(node: Extract<PhrasingContent, { type: 'linkReference' | 'imageReference' }>): string {
  if (node.referenceType === 'collapsed') return '][]';
  if (node.referenceType === 'full') return `][${node.label ?? node.identifier}]`;
  return ']';
}

const sameStyle = (a: Style, b: Style) => !!a.bold === !!b.bold && !!a.italic === !!b.italic && !!a.code === !!b.code && !!a.strike === !!b.strike;

/** The characters of a run of spans, styles dropped. */
export const spanText = (spans: Span[]) => spans.map((s) => s.text).join('');

/** Whether any span anywhere in the blocks is set in `style` (to load only the font faces a document uses). */
export function usesStyle(blocks: DocBlock[], test: (span: Span) => boolean): boolean {
  return blocks.some((block) => {
    switch (block.kind) {
      case 'heading':
      case 'paragraph':
        return block.spans.some(test);
      case 'list':
        return block.items.some((item) => usesStyle(item.blocks, test));
      case 'quote':
        return usesStyle(block.blocks, test);
      case 'table':
        return [block.header, ...block.rows].some((row) => row.some((cell) => cell.some(test)));
      default:
        return false;
    }
  });
}
