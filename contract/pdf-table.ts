/**
 * A GFM table drawn as a table: bordered cells, a shaded bold header row repeated on each page the table runs
 * onto, cell text wrapped within its column, and a row taller than what is left of a page cut between its lines.
 * A cell's text is wrapped at its spaces only, never inside a word: cut, "01/11/2026" would read "01/11/2" and
 * "1250.75 mg" would read "75 mg" on the next line. A table too wide for that at its own size is set smaller, down
 * to a size still read without effort, and one still too wide is written row by row, as "Header: value" lines.
 */
import type { Align, DocBlock, Span } from './markdown-doc.js';
import { baselineIn, drawLine, lineHeight, longestWord, room, wrap, type Line, type Writer } from './pdf-text.js';

type Table = Extract<DocBlock, { kind: 'table' }>;
const SIZE = 9.5;
// The smallest a table is set: below about 6.5 points a dose or a date is no longer read at a glance.
const SIZES = [9.5, 9, 8.5, 8, 7.5, 7, 6.5];
const PAD = 1.5;

/** A table's size, cell padding (in proportion to the text) and column widths. */
type Grid = { size: number; pad: number; widths: number[] };

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

/**
 * Column widths at `size`: natural widths when they fit; otherwise each column keeps its longest word and the
 * rest is shared by need. Null when even the longest words do not fit side by side.
 */
function gridAt(w: Writer, table: Table, columns: number, available: number, size: number): Grid | null {
  const pad = (PAD * size) / SIZE;
  const rows = [table.header, ...table.rows];
  const natural: number[] = [];
  const least: number[] = [];
  for (let c = 0; c < columns; c++) {
    const cells = rows.map((row, r) => wrap(w, row[c] ?? [], Number.POSITIVE_INFINITY, size, r === 0));
    natural[c] = Math.max(...cells.flatMap((lines) => lines.map((l) => l.width))) + pad * 2;
    const widest = Math.max(...rows.map((row, r) => longestWord(w, row[c] ?? [], size, r === 0)));
    least[c] = Math.min(widest + pad * 2, natural[c]!);
  }
  if (sum(natural) <= available) return { size, pad, widths: natural };
  if (sum(least) > available) return null;
  const spare = available - sum(least);
  const need = natural.map((n, c) => n - least[c]!);
  return { size, pad, widths: least.map((l, c) => l + (spare * need[c]!) / sum(need)) };
}

export function drawTable(w: Writer, table: Table, x: number, available: number) {
  const columns = Math.max(table.header.length, ...table.rows.map((r) => r.length));
  if (columns === 0) return;
  for (const size of SIZES) {
    const grid = gridAt(w, table, columns, available, size);
    if (grid) return drawGrid(w, table, x, grid);
  }
  drawRecords(w, table, columns, x, available);
}

function aligned(line: Line, x: number, width: number, align: Align, pad: number): number {
  if (align === 'right') return x + width - pad - line.width;
  if (align === 'center') return x + (width - line.width) / 2;
  return x + pad;
}

function drawGrid(w: Writer, table: Table, x: number, { size, pad, widths }: Grid) {
  const lh = lineHeight(size);
  const layout = (row: Span[][], header: boolean) => widths.map((width, c) => wrap(w, row[c] ?? [], width - pad * 2, size, header));
  const header = layout(table.header, true);
  const headerHeight = Math.max(...header.map((cell) => cell.length)) * lh + pad * 2;

  const drawSlice = (cells: Line[][], from: number, count: number, shaded: boolean) => {
    const height = count * lh + pad * 2;
    let left = x;
    w.pdf.setDrawColor(150);
    w.pdf.setLineWidth(0.2);
    cells.forEach((lines, c) => {
      const width = widths[c]!;
      // Text is painted with the fill colour: the shade is set again before each cell.
      w.pdf.setFillColor(235, 235, 235);
      w.pdf.rect(left, w.y, width, height, shaded ? 'FD' : 'S');
      lines.slice(from, from + count).forEach((line, i) => {
        drawLine(w, line, aligned(line, left, width, table.align[c] ?? null, pad), baselineIn(w.y + pad + i * lh, size), size);
      });
      left += width;
    });
    w.y += height;
  };
  const drawHeader = () => drawSlice(header, 0, header[0] ? Math.max(...header.map((cell) => cell.length)) : 0, true);

  // The header never sits alone at a page's foot: it goes over with the first row.
  room(w, headerHeight + lh + pad * 2);
  drawHeader();
  for (const row of table.rows) {
    const cells = layout(row, false);
    const total = Math.max(1, ...cells.map((lines) => lines.length));
    let done = 0;
    let fresh = false;
    while (done < total) {
      const fits = Math.floor((w.bottom - w.y - pad * 2) / lh);
      const left = total - done;
      // A row that fits on a fresh page is not cut; one taller than a page is cut where the page ends.
      const freshFits = Math.floor((w.bottom - w.top - headerHeight - pad * 2) / lh);
      if (fits >= left || fresh || (fits >= 1 && left > freshFits)) {
        const count = Math.max(1, Math.min(fits, left));
        drawSlice(cells, done, count, false);
        done += count;
        fresh = false;
      }
      if (done < total) {
        newPageWithHeader();
        fresh = true;
      }
    }
  }

  function newPageWithHeader() {
    w.pdf.addPage();
    w.y = w.top;
    drawHeader();
  }
}

/**
 * A table with more columns than the page holds side by side, one row after another: each filled cell on lines of
 * its own after its column's header in bold ("Dose: 5 mg"), wrapped across the whole width; a rule between rows.
 */
function drawRecords(w: Writer, table: Table, columns: number, x: number, width: number) {
  const lh = lineHeight(SIZE);
  const bold = (spans: Span[]) => spans.map((span) => ({ ...span, bold: true }));
  table.rows.forEach((row, r) => {
    const fields: Line[][] = [];
    for (let c = 0; c < columns; c++) {
      const cell = row[c] ?? [];
      if (!cell.some((span) => /\S/.test(span.text))) continue;
      const head = table.header[c] ?? [];
      const label: Span[] = head.some((span) => /\S/.test(span.text)) ? [...bold(head), { text: ': ', bold: true }] : [];
      fields.push(wrap(w, [...label, ...cell], width, SIZE));
    }
    // A row starts on a page where at least its first two lines fit.
    room(w, lh * Math.min(2, fields.flat().length || 1) + 1.5);
    if (r > 0) {
      w.pdf.setDrawColor(180);
      w.pdf.setLineWidth(0.2);
      w.pdf.line(x, w.y + 0.75, x + width, w.y + 0.75);
    }
    w.y += 1.5;
    for (const line of fields.flat()) {
      room(w, lh);
      drawLine(w, line, x, baselineIn(w.y, SIZE), SIZE);
      w.y += lh;
    }
  });
}
