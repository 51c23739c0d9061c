import { jsPDF } from 'jspdf';
import { markdownToBlocks } from './markdown-text.js';

export type PdfDocumentInput = {
  title: string;
  clinician: string;
  /** Already formatted in the interface's language. */
  date: string;
  markdown: string;
  /** "Page {n} of {total}", already translated, with the two placeholders. */
  pageLabel: (page: number, total: number) => string;
};

const PAGE = { width: 210, height: 297, margin: 18, header: 24, footer: 14 };
const SIZES = { h1: 15, h2: 12.5, h3: 11.5, p: 10.5, li: 10.5, blank: 10.5 } as const;
const LINE = 1.4;
const mm = (pt: number) => (pt * 25.4) / 72;

/**
 * Shared by the browser (Export PDF) and the server (the PDF attached to a FHIR DocumentReference), so both give
 * the same page. A generated document as an A4 PDF: a header with the document title, the clinician and the date on every page,
 * page numbers in the footer, and the text wrapped and paginated. jsPDF's standard fonts cover Latin-1, which
 * holds every accent of pt, de and es (ç, ã, õ, ß, ü, ñ…).
 */
export function documentToPdf(input: PdfDocumentInput): jsPDF {
  const pdf = new jsPDF({ unit: 'mm', format: 'a4', compress: true });
  pdf.setProperties({ title: input.title, author: input.clinician, creator: 'Consultation Notes' });
  const width = PAGE.width - PAGE.margin * 2;
  const top = PAGE.margin + PAGE.header;
  const bottom = PAGE.height - PAGE.margin - PAGE.footer;
  let y = top;

  for (const block of markdownToBlocks(input.markdown)) {
    const size = SIZES[block.kind];
    const lineHeight = mm(size) * LINE;
    if (block.kind === 'blank') {
      y += lineHeight / 2;
      continue;
    }
    const heading = block.kind === 'h1' || block.kind === 'h2' || block.kind === 'h3';
    pdf.setFont('helvetica', heading ? 'bold' : 'normal');
    pdf.setFontSize(size);
    const indent = block.kind === 'li' ? 5 : 0;
    const lines = pdf.splitTextToSize(block.text, width - indent) as string[];
    if (heading && y + lineHeight * 2 > bottom) y = newPage(pdf, top);
    if (heading && y > top) y += lineHeight * 0.4;
    lines.forEach((text, i) => {
      if (y + lineHeight > bottom) y = newPage(pdf, top);
      if (block.kind === 'li' && i === 0) pdf.text('•', PAGE.margin + 1, y);
      pdf.text(text, PAGE.margin + indent, y);
      y += lineHeight;
    });
  }

  const total = pdf.getNumberOfPages();
  for (let page = 1; page <= total; page++) {
    pdf.setPage(page);
    drawHeader(pdf, input);
    pdf.setFont('helvetica', 'normal');
    pdf.setFontSize(8.5);
    pdf.setTextColor(90);
    pdf.text(input.pageLabel(page, total), PAGE.width - PAGE.margin, PAGE.height - PAGE.margin, { align: 'right' });
    pdf.setTextColor(0);
  }
  return pdf;
}

function newPage(pdf: jsPDF, top: number): number {
  pdf.addPage();
  return top;
}

function drawHeader(pdf: jsPDF, input: PdfDocumentInput) {
  pdf.setFont('helvetica', 'bold');
  pdf.setFontSize(12);
  pdf.setTextColor(15, 92, 110);
  pdf.text(input.title, PAGE.margin, PAGE.margin + 4, { maxWidth: PAGE.width - PAGE.margin * 2 });
  pdf.setFont('helvetica', 'normal');
  pdf.setFontSize(9);
  pdf.setTextColor(70);
  pdf.text(`${input.clinician} · ${input.date}`, PAGE.margin, PAGE.margin + 10);
  pdf.setDrawColor(200);
  pdf.line(PAGE.margin, PAGE.margin + 14, PAGE.width - PAGE.margin, PAGE.margin + 14);
  pdf.setTextColor(0);
}
