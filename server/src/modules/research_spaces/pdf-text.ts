/**
 * Reads the text layer of a patient's PDF once, at upload, so screening never parses files again. A PDF that is
 * only scanned images has no text layer: it is kept, and said to be unreadable, rather than guessed at.
 */
import { DomainError } from '../../http/errors.js';
import { storableText } from '../../ai/storable-text.js';
import { fold } from '../../clinical/text.js';

/** Beyond this a file is not one patient's records but an archive; reading stops there. */
const MAX_PAGES = 500;

export type PdfText = { pages: number; text: string };

/** A page number alone on its line ('Page 1 of 2', 'Página 3', 'Seite 2 von 5', '- 4 -', '2/7'). */
const PAGE_NUMBER = /^\s*(?:[-–—]\s*)?(?:(?:page|pag|pagina|seite|hoja|folha|fl|p)\.?\s*)?\d{1,4}\s*(?:(?:of|de|von|\/)\s*\d{1,4})?\s*(?:[-–—]\s*)?$/i;
/** How far from a page's top or bottom a running header or footer sits. */
const EDGE = 3;

/**
 * A page's lines without what a word processor or a browser prints on every page between its text: its running
 * header and footer (the same line, numbers aside, near the top or the bottom of most pages) and page numbers.
 * Left in, they would cut a sentence a page break divides ('ejection fraction of 32 %' … 'Confidential. Page 1 of
 * 2' … 'with moderate mitral regurgitation').
 */
export function withoutRunningLines(pages: string[][]): string[][] {
  const shape = (line: string) => line.normalize('NFKC').replace(/\d+/g, '#').replace(/\s+/g, ' ').trim().toLowerCase();
  const edges = (lines: string[]) => {
    const kept = lines.filter((l) => l.trim());
    return new Set([...kept.slice(0, EDGE), ...kept.slice(-EDGE)].map(shape));
  };
  const seen = new Map<string, number>();
  for (const page of pages) for (const s of edges(page)) seen.set(s, (seen.get(s) ?? 0) + 1);
  const running = (line: string) => pages.length >= 2 && (seen.get(shape(line)) ?? 0) >= Math.max(2, Math.ceil(pages.length / 2));
  return pages.map((page, p) => {
    const written = [...page.keys()].filter((i) => page[i]!.trim());
    const top = new Set(written.slice(0, EDGE));
    const bottom = new Set(written.slice(-EDGE));
    // What a header or footer says (a patient's name and date of birth, a hospital) is kept once, where it cuts
    // no sentence: a header on the first page, a footer on the last.
    const keptOnce = (i: number) => (p === 0 && top.has(i) && !bottom.has(i)) || (p === pages.length - 1 && bottom.has(i) && !top.has(i));
    return page.filter((line, i) => {
      if (!top.has(i) && !bottom.has(i)) return true;
      if (PAGE_NUMBER.test(fold(line))) return false;
      return !running(line) || keptOnce(i);
    });
  });
}

export async function readPdfText(data: Buffer): Promise<PdfText> {
  if (data.subarray(0, 1024).indexOf('%PDF-') < 0) throw new DomainError(415, 'unsupported_media_type', 'Only PDF files can be added');
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  // No script evaluation and no system fonts: a file from outside is parsed for its text, nothing else.
  const task = pdfjs.getDocument({ data: new Uint8Array(data), verbosity: 0, isEvalSupported: false, useSystemFonts: false, disableFontFace: true, stopAtErrors: false });
  try {
    const doc = await task.promise;
    const pages: string[][] = [];
    for (let n = 1; n <= Math.min(doc.numPages, MAX_PAGES); n++) {
      const page = await doc.getPage(n);
      const content = await page.getTextContent();
      const lines: string[] = [];
      let line = '';
      for (const item of content.items) {
        if (!('str' in item)) continue;
        line += item.str;
        if (item.hasEOL) {
          lines.push(line);
          line = '';
        }
      }
      if (line) lines.push(line);
      pages.push(lines);
      page.cleanup();
    }
    // Pages follow on without a blank line: a sentence the page break cut is joined again like any wrapped line.
    const text = withoutRunningLines(pages).flat().join('\n');
    return { pages: doc.numPages, text: storableText(text).replace(/[ \t]+/g, ' ').replace(/\n{3,}/g, '\n\n').trim() };
  } catch (err) {
    if (err instanceof DomainError) throw err;
    if (err instanceof Error && /password/i.test(err.name + err.message)) throw new DomainError(422, 'invalid_request', 'This PDF is protected by a password');
    throw new DomainError(422, 'invalid_request', 'This PDF could not be read');
  } finally {
    await task.destroy();
  }
}
