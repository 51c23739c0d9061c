import { jsPDF } from 'jspdf';
import { parseMarkdown, usesStyle, type DocBlock } from './markdown-doc.js';
import { binaryString, FONT_FILES, FONT_NAMES, glyphCoverage, printable, type FontFace, type FontSource } from './pdf-fonts.js';
import { drawTable } from './pdf-table.js';
import { baselineIn, drawLine, lineHeight, room, wrap, type Line, type Writer } from './pdf-text.js';

export type PdfDocumentInput = {
  title: string;
  clinician: string;
  /** Already formatted in the interface's language. */
  date: string;
  markdown: string;
  /** "Page {n} of {total}", already translated, with the two placeholders. */
  pageLabel: (page: number, total: number) => string;
};

const PAGE = { width: 210, height: 297, margin: 18, footer: 14 };
const TITLE = 12;
const META = 9;
// Repeated on every page, the header is kept to a few lines: a longer title or name ends in "…", the date always shows.
const TITLE_LINES = 3;
const META_LINES = 2;
const HEADING_SIZES = [15, 12.5, 11.5, 10.5, 10.5, 10.5];
const BODY = 10.5;
const CODE = 9.5;
const BULLETS = ['•', '◦', '▪'];
// Quotes and lists nested deeper than the page can indent stop indenting here: their text keeps a readable width.
const MIN_WIDTH = 60;

/**
 * Shared by the browser (Export PDF) and the server (the PDF attached to a FHIR DocumentReference), so both give
 * the same page, and it is what the record system keeps. A generated document as an A4 PDF: a header with the
 * document title, the clinician and the date on every page, page numbers in the footer, and the markdown as the
 * screen shows it (markdown-doc.ts): headings, emphasis, numbered and nested lists, quotes, code and tables.
 * The text is set in an embedded Unicode font (pdf-fonts.ts), so "≥", "→", "µ" and Greek letters print as written.
 */
export async function documentToPdf(input: PdfDocumentInput, fonts: FontSource): Promise<jsPDF> {
  const blocks = parseMarkdown(input.markdown);
  const italic = usesStyle(blocks, (s) => !!s.italic);
  const faces: FontFace[] = italic ? ['normal', 'bold', 'italic', 'bolditalic'] : ['normal', 'bold'];
  const pdf = new jsPDF({ unit: 'mm', format: 'a4', compress: true });
  pdf.setProperties({ title: input.title, author: input.clinician, creator: 'Consultation Notes' });
  const coverage = await registerFonts(pdf, faces, fonts);

  const w: Writer = {
    pdf,
    top: PAGE.margin,
    bottom: PAGE.height - PAGE.margin - PAGE.footer,
    y: PAGE.margin,
    face: (bold, it) => (bold ? (it && italic ? 'bolditalic' : 'bold') : it && italic ? 'italic' : 'normal'),
    has: (face) => coverage.get(face)!,
  };
  const header = headerLayout(w, input);
  w.top = w.y = header.rule + 10;
  drawBlocks(w, blocks, { x: PAGE.margin, width: PAGE.width - PAGE.margin * 2, bars: [], depth: 0, tight: false });

  const total = pdf.getNumberOfPages();
  for (let page = 1; page <= total; page++) {
    pdf.setPage(page);
    drawHeader(w, header);
    pdf.setFont(FONT_NAMES.normal, 'normal');
    pdf.setFontSize(8.5);
    pdf.setTextColor(90);
    pdf.text(printable(input.pageLabel(page, total), w.has('normal')), PAGE.width - PAGE.margin, PAGE.height - PAGE.margin, { align: 'right' });
    pdf.setTextColor(0);
  }
  return pdf;
}

async function registerFonts(pdf: jsPDF, faces: FontFace[], fonts: FontSource) {
  const coverage = new Map<FontFace, (codePoint: number) => boolean>();
  for (const face of faces) {
    const bytes = await fonts(face);
    pdf.addFileToVFS(FONT_FILES[face], fontString(bytes));
    // Identity-H: characters are written as glyph ids with a ToUnicode map, so any glyph of the font prints and copies back as text.
    pdf.addFont(FONT_FILES[face], FONT_NAMES[face], 'normal', 'Identity-H');
    coverage.set(face, coverageOf(bytes));
  }
  return coverage;
}

// The server writes many PDFs with the same font files: their conversion and cmap are read once.
const strings = new WeakMap<Uint8Array, string>();
const coverages = new WeakMap<Uint8Array, (codePoint: number) => boolean>();
function fontString(bytes: Uint8Array) {
  if (!strings.has(bytes)) strings.set(bytes, binaryString(bytes));
  return strings.get(bytes)!;
}
function coverageOf(bytes: Uint8Array) {
  if (!coverages.has(bytes)) coverages.set(bytes, glyphCoverage(bytes));
  return coverages.get(bytes)!;
}

/** Where blocks go: their left edge and width, the quote bars beside them, how deep in lists, and whether list items sit close. */
type Frame = { x: number; width: number; bars: number[]; depth: number; tight: boolean };

/** `trailing`: whether the space after a block follows the last one too (a quote's is left to the quote itself, so nested quotes do not pile it up). */
function drawBlocks(w: Writer, blocks: DocBlock[], frame: Frame, trailing = true) {
  blocks.forEach((block, i) => {
    drawBlock(w, block, frame, i === 0);
    if (trailing || i < blocks.length - 1) w.y += frame.tight ? lineHeight(BODY) * 0.15 : lineHeight(BODY) * 0.5;
  });
}

function drawBlock(w: Writer, block: DocBlock, frame: Frame, first: boolean) {
  switch (block.kind) {
    case 'heading': {
      const size = HEADING_SIZES[block.level - 1] ?? BODY;
      const lines = wrap(w, block.spans, frame.width, size, true);
      // A heading is never the last line of a page: it goes over with two lines of what follows.
      room(w, lineHeight(size) * (lines.length + 0.4) + lineHeight(BODY) * 2);
      if (!first && w.y > w.top) w.y += lineHeight(size) * 0.4;
      return drawLines(w, lines, frame, size);
    }
    case 'paragraph':
      return drawLines(w, wrap(w, block.spans, frame.width, BODY), frame, BODY);
    case 'list':
      return drawList(w, block, frame);
    case 'quote': {
      if (frame.width - 5 < MIN_WIDTH) return drawBlocks(w, block.blocks, frame, false);
      return drawBlocks(w, block.blocks, { ...frame, x: frame.x + 5, width: frame.width - 5, bars: [...frame.bars, frame.x + 1.5] }, false);
    }
    case 'code':
      return drawCode(w, block.text, frame);
    case 'rule': {
      room(w, lineHeight(BODY) * 0.6);
      w.pdf.setDrawColor(180);
      w.pdf.setLineWidth(0.3);
      w.pdf.line(frame.x, w.y + lineHeight(BODY) * 0.3, frame.x + frame.width, w.y + lineHeight(BODY) * 0.3);
      w.y += lineHeight(BODY) * 0.6;
      return;
    }
    case 'table':
      return drawTable(w, block, frame.x, frame.width);
  }
}

function drawLines(w: Writer, lines: ReturnType<typeof wrap>, frame: Frame, size: number, shade = false) {
  const lh = lineHeight(size);
  for (const line of lines) {
    room(w, lh);
    if (shade) {
      w.pdf.setFillColor(244, 244, 244);
      w.pdf.rect(frame.x, w.y, frame.width, lh, 'F');
    }
    drawBars(w, frame, lh);
    drawLine(w, line, frame.x + (shade ? 1.5 : 0), baselineIn(w.y, size), size);
    w.y += lh;
  }
}

function drawBars(w: Writer, frame: Frame, height: number) {
  if (!frame.bars.length) return;
  w.pdf.setDrawColor(190);
  w.pdf.setLineWidth(0.6);
  for (const x of frame.bars) w.pdf.line(x, w.y, x, w.y + height);
}

function drawList(w: Writer, list: Extract<DocBlock, { kind: 'list' }>, frame: Frame) {
  const marker = (i: number, checked: boolean | null) =>
    checked !== null ? (checked ? '☑' : '☐') : list.ordered ? `${list.start + i}.` : BULLETS[Math.min(frame.depth, BULLETS.length - 1)]!;
  const markers = list.items.map((item, i) => wrap(w, [{ text: marker(i, item.checked) }], Number.POSITIVE_INFINITY, BODY)[0]!);
  // Numbers are right-aligned against the text, so "9." and "10." line up; the indent fits the widest.
  const indent = Math.max(6, Math.max(...markers.map((m) => m.width)) + 2);
  if (frame.width - indent < MIN_WIDTH) return drawInlineMarkers(w, list, frame, marker);
  const inner: Frame = { ...frame, x: frame.x + indent, width: frame.width - indent, depth: frame.depth + 1, tight: true };
  list.items.forEach((item, i) => {
    room(w, lineHeight(BODY));
    const mark = markers[i]!;
    drawLine(w, mark, frame.x + indent - 1.5 - mark.width, baselineIn(w.y, BODY), BODY);
    if (item.blocks.length === 0) w.y += lineHeight(BODY);
    else drawBlocks(w, item.blocks, inner);
  });
}

/** A list with no room left to indent: each item's number or bullet opens its first line, as a word of its text. */
function drawInlineMarkers(w: Writer, list: Extract<DocBlock, { kind: 'list' }>, frame: Frame, marker: (i: number, checked: boolean | null) => string) {
  const inner: Frame = { ...frame, depth: frame.depth + 1, tight: true };
  list.items.forEach((item, i) => {
    const mark = marker(i, item.checked);
    const [first, ...rest] = item.blocks;
    const blocks: DocBlock[] =
      first?.kind === 'paragraph'
        ? [{ kind: 'paragraph', spans: [{ text: `${mark} ` }, ...first.spans] }, ...rest]
        : [{ kind: 'paragraph', spans: [{ text: mark }] }, ...item.blocks];
    drawBlocks(w, blocks, inner);
  });
}

/** Code keeps its spaces and line breaks; a line too long for the page is cut between characters, on a shaded band. */
function drawCode(w: Writer, text: string, frame: Frame) {
  drawLines(w, wrap(w, [{ text }], frame.width - 3, CODE, false, true), frame, CODE, true);
}

type Header = { title: Line[]; meta: Line[]; rule: number };

/** The title, and the clinician with the date, each wrapped within the page; the rule under them, mm from the top. */
function headerLayout(w: Writer, input: PdfDocumentInput): Header {
  const width = PAGE.width - PAGE.margin * 2;
  const title = fitted(w, input.title, '', width, TITLE, true, TITLE_LINES);
  const meta = fitted(w, input.clinician, ` · ${input.date}`, width, META, false, META_LINES);
  return { title, meta, rule: PAGE.margin + title.length * lineHeight(TITLE) + meta.length * lineHeight(META) + 3.6 };
}

/**
 * `text` then `suffix` wrapped within `width` on at most `max` lines: when it takes more, the text is shortened
 * (at a space if it can be) and ends in "…", and the suffix is kept whole.
 */
function fitted(w: Writer, text: string, suffix: string, width: number, size: number, bold: boolean, max: number): Line[] {
  const lines = (t: string) => wrap(w, [{ text: t }], width, size, bold);
  const whole = lines(text + suffix);
  if (whole.length <= max) return whole;
  const shortened = (end: number) => lines(`${text.slice(0, end).trimEnd()}…${suffix}`);
  let at = 0;
  // Cut between characters, never inside a surrogate pair.
  const charEnds = Array.from(text, (char) => (at += char.length));
  for (const ends of [[...text.matchAll(/\s+/g)].map((m) => m.index), charEnds]) {
    // The longest shortening that fits: fewer characters never take more lines.
    let lo = 0;
    let hi = ends.length - 1;
    let best = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (shortened(ends[mid]!).length <= max) {
        best = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    if (best >= 0) return shortened(ends[best]!);
  }
  return lines(`…${suffix}`).slice(0, max);
}

function drawHeader(w: Writer, header: Header) {
  const { pdf } = w;
  let y = PAGE.margin;
  pdf.setTextColor(15, 92, 110);
  for (const line of header.title) {
    drawLine(w, line, PAGE.margin, baselineIn(y, TITLE), TITLE);
    y += lineHeight(TITLE);
  }
  pdf.setTextColor(70);
  for (const line of header.meta) {
    drawLine(w, line, PAGE.margin, baselineIn(y, META), META);
    y += lineHeight(META);
  }
  pdf.setDrawColor(200);
  pdf.setLineWidth(0.2);
  pdf.line(PAGE.margin, header.rule, PAGE.width - PAGE.margin, header.rule);
  pdf.setTextColor(0);
}
