/**
 * A GFM table drawn as a table: bordered cells, a shaded bold header row repeated on each page the table runs
 * onto, cell text wrapped within its column, and a row taller than what is left of a page cut between its lines.
 */
import type { Align, DocBlock, Span } from './markdown-doc.js';
import { baselineIn, drawLine, lineHeight, longestWord, room, wrap, type Line, type Writer } from './pdf-text.js';

type Table = Extract<DocBlock, { kind: 'table' }>;
const SIZE = 9.5;
const PAD = 1.5;

/** Column widths: natural widths when they fit; otherwise each column keeps its longest word and the rest is shared by need. */
function columnWidths(w: Writer, table: Table, columns: number, available: number): number[] {
  const rows = [table.header, ...table.rows];
  const natural: number[] = [];
  const least: number[] = [];
  for (let c = 0; c < columns; c++) {
    const cells = rows.map((row, r) => wrap(w, row[c] ?? [], Number.POSITIVE_INFINITY, SIZE, r === 0));
    natural[c] = Math.max(...cells.flatMap((lines) => lines.map((l) => l.width))) + PAD * 2;
    const widest = Math.max(...rows.map((row, r) => longestWord(w, row[c] ?? [], SIZE, r === 0)));
    least[c] = Math.min(widest + PAD * 2, natural[c]!);
  }
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  if (sum(natural) <= available) return natural;
  if (sum(least) >= available) return least.map((x) => (x / sum(least)) * available);
  const spare = available - sum(least);
  const need = natural.map((n, c) => n - least[c]!);
  return least.map((l, c) => l + (spare * need[c]!) / sum(need));
}

function aligned(line: Line, x: number, width: number, align: Align): number {
  if (align === 'right') return x + width - PAD - line.width;
  if (align === 'center') return x + (width - line.width) / 2;
  return x + PAD;
}

export function drawTable(w: Writer, table: Table, x: number, available: number) {
  const columns = Math.max(table.header.length, ...table.rows.map((r) => r.length));
  if (columns === 0) return;
  const widths = columnWidths(w, table, columns, available);
  const lh = lineHeight(SIZE);
  const layout = (row: Span[][], header: boolean) => widths.map((width, c) => wrap(w, row[c] ?? [], width - PAD * 2, SIZE, header));
  const header = layout(table.header, true);
  const headerHeight = Math.max(...header.map((cell) => cell.length)) * lh + PAD * 2;

  const drawSlice = (cells: Line[][], from: number, count: number, shaded: boolean) => {
    const height = count * lh + PAD * 2;
    let left = x;
    w.pdf.setDrawColor(150);
    w.pdf.setLineWidth(0.2);
    cells.forEach((lines, c) => {
      const width = widths[c]!;
      // Text is painted with the fill colour: the shade is set again before each cell.
      w.pdf.setFillColor(235, 235, 235);
      w.pdf.rect(left, w.y, width, height, shaded ? 'FD' : 'S');
      lines.slice(from, from + count).forEach((line, i) => {
        drawLine(w, line, aligned(line, left, width, table.align[c] ?? null), baselineIn(w.y + PAD + i * lh, SIZE), SIZE);
      });
      left += width;
    });
    w.y += height;
  };
  const drawHeader = () => drawSlice(header, 0, header[0] ? Math.max(...header.map((cell) => cell.length)) : 0, true);

  // The header never sits alone at a page's foot: it goes over with the first row.
  room(w, headerHeight + lh + PAD * 2);
  drawHeader();
  for (const row of table.rows) {
    const cells = layout(row, false);
    const total = Math.max(1, ...cells.map((lines) => lines.length));
    let done = 0;
    let fresh = false;
    while (done < total) {
      const fits = Math.floor((w.bottom - w.y - PAD * 2) / lh);
      const left = total - done;
      // A row that fits on a fresh page is not cut; one taller than a page is cut where the page ends.
      const freshFits = Math.floor((w.bottom - w.top - headerHeight - PAD * 2) / lh);
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
