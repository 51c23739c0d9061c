/**
 * Lines of styled text on a PDF page: spans (bold, italic, struck) wrapped to a width with each word measured in
 * its own face, and drawn with one text call per run of one face, so a copied line reads as it was written.
 */
import type { jsPDF } from 'jspdf';
import type { Span } from './markdown-doc.js';
import { FONT_NAMES, printable, type FontFace } from './pdf-fonts.js';

export const mm = (pt: number) => (pt * 25.4) / 72;
export const LINE = 1.4;
export const lineHeight = (size: number) => mm(size) * LINE;

/** A page being written: the cursor, the writable band and the faces the document registered. */
export type Writer = {
  pdf: jsPDF;
  y: number;
  top: number;
  bottom: number;
  /** A face that is registered: the asked one, or the nearest loaded (a document without italics loads none). */
  face: (bold: boolean, italic: boolean) => FontFace;
  has: (face: FontFace) => (codePoint: number) => boolean;
};

/** Go to a new page unless `height` still fits (a page already at its top takes whatever comes). */
export function room(w: Writer, height: number) {
  if (w.y + height > w.bottom && w.y > w.top) {
    w.pdf.addPage();
    w.y = w.top;
  }
}

export type Piece = { text: string; face: FontFace; strike: boolean; width: number };
export type Line = { pieces: Piece[]; width: number };

function measure(w: Writer, face: FontFace, size: number, text: string): number {
  w.pdf.setFont(FONT_NAMES[face], 'normal');
  w.pdf.setFontSize(size);
  return w.pdf.getTextWidth(text);
}

type Word = { parts: Piece[]; width: number; spaceBefore: FontFace | null; breaksBefore: number };

/** The spans cut into unbreakable words (a word may change face midway, as in "**4**x"), with the spaces and forced breaks between them. */
function words(w: Writer, spans: Span[], size: number, bold: boolean, pre = false): Word[] {
  const out: Word[] = [];
  let space: FontFace | null = null;
  let forced = 0;
  let joined = false;
  for (const span of spans) {
    const face = w.face(bold || !!span.bold, !!span.italic);
    const text = printable(span.text, w.has(face));
    // Preformatted text breaks only at its own line ends, each line one word (cut where it overflows).
    for (const [token] of text.matchAll(pre ? /\n|[^\n]+/g : /\n|[^\S\n]+|[^\s]+/g)) {
      if (token === '\n') {
        forced += 1;
        space = null;
        joined = false;
      } else if (!pre && /^\s/.test(token)) {
        space = forced ? null : face;
        joined = false;
      } else {
        const piece = { text: token, face, strike: !!span.strike, width: measure(w, face, size, token) };
        const last = out.at(-1);
        if (joined && last) {
          last.parts.push(piece);
          last.width += piece.width;
        } else out.push({ parts: [piece], width: piece.width, spaceBefore: space, breaksBefore: forced });
        space = null;
        forced = 0;
        joined = true;
      }
    }
  }
  return out;
}

/** The width of the widest unbreakable word: a table column narrower than that would cut it. */
export function longestWord(w: Writer, spans: Span[], size: number, bold = false): number {
  return Math.max(0, ...words(w, spans, size, bold).map((word) => word.width));
}

// Widths summed in another order differ in the last bits: a word exactly as wide as its column still fits.
const SLACK = 1e-6;

/** Wrapped lines of the spans at `size` points within `width` mm; a word wider than a line is cut between characters. */
export function wrap(w: Writer, spans: Span[], width: number, size: number, bold = false, pre = false): Line[] {
  const lines: Line[] = [];
  let line: Line = { pieces: [], width: 0 };
  const flush = () => {
    lines.push(line);
    line = { pieces: [], width: 0 };
  };
  const add = (piece: Piece) => {
    const last = line.pieces.at(-1);
    if (last && last.face === piece.face && last.strike === piece.strike) {
      last.text += piece.text;
      last.width += piece.width;
    } else line.pieces.push({ ...piece });
    line.width += piece.width;
  };
  for (const word of words(w, spans, size, bold, pre)) {
    // The first line break ends the line being filled; each further one leaves an empty line.
    for (let i = 0; i < word.breaksBefore; i++) if (i > 0 || lines.length || line.pieces.length) flush();
    const space = word.spaceBefore && line.pieces.length ? measure(w, word.spaceBefore, size, ' ') : 0;
    if (line.pieces.length && line.width + space + word.width > width + SLACK) flush();
    else if (space) add({ text: ' ', face: word.spaceBefore!, strike: false, width: space });
    if (word.width <= width + SLACK) {
      word.parts.forEach(add);
      continue;
    }
    for (const part of word.parts) {
      for (const char of part.text) {
        const charWidth = measure(w, part.face, size, char);
        if (line.pieces.length && line.width + charWidth > width + SLACK) flush();
        add({ ...part, text: char, width: charWidth });
      }
    }
  }
  if (line.pieces.length || lines.length === 0) flush();
  return lines;
}

/** One line with its baseline `baseline` mm from the page's top, starting at `x`. */
export function drawLine(w: Writer, line: Line, x: number, baseline: number, size: number) {
  let at = x;
  for (const piece of line.pieces) {
    w.pdf.setFont(FONT_NAMES[piece.face], 'normal');
    w.pdf.setFontSize(size);
    w.pdf.text(piece.text, at, baseline);
    if (piece.strike) {
      w.pdf.setDrawColor(0);
      w.pdf.setLineWidth(0.2);
      w.pdf.line(at, baseline - mm(size) * 0.3, at + piece.width, baseline - mm(size) * 0.3);
    }
    at += piece.width;
  }
}

/** Where a line's baseline sits in a line box whose top is `top`. */
export const baselineIn = (top: number, size: number) => top + lineHeight(size) * 0.74;
