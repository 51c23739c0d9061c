/**
 * Reads the text layer of a patient's PDF once, at upload, so screening never parses files again. A PDF that is
 * only scanned images has no text layer: it is kept, and said to be unreadable, rather than guessed at.
 */
import { DomainError } from '../../errors/domain-error.js';
import { storableText } from '../../ai/storable-text.js';
import { fold } from '../../clinical/text.js';

/** Beyond this a file is not one patient's records but an archive; reading stops there. */
const MAX_PAGES = 500;

export type PdfText = { pages: number; text: string };

/** A page's number as a footer writes it ('Page 1 of 2', 'Página 3', 'Seite 2 von 5', 'pág. 4'). */
const PAGE_WORDS = /\b(?:page|pag|pagina|seite|hoja|folha|fl)\.?\s*\d{1,4}(?:\s*(?:of|de|von|\/)\s*\d{1,4})?\b/g;
/** How far from a page's top or bottom a running header or footer sits. */
const EDGE = 3;

/**
 * A page's lines without what a word processor or a browser prints on every page between its text: page numbers,
 * and running headers and footers (the same line near the top or the bottom of most pages). Left in, they would
 * cut a sentence a page break divides ('ejection fraction of 32 %' … 'Confidential. Page 1 of 2' … 'with
 * moderate mitral regurgitation'). A running line without a page number (a hospital's name, a patient's name and
 * date of birth, or a clinical line a record repeats) is kept once: a header before the first page's text, a
 * footer after the last page's; only a line that numbers the pages goes. A lone number goes only where it is the
 * page's own number.
 */
export function withoutRunningLines(pages: string[][]): string[][] {
  const shape = (line: string) => fold(line.normalize('NFKC')).replace(PAGE_WORDS, '#page').replace(/\s+/g, ' ').trim();
  // Each page's written lines, read once: the first EDGE are its top, the first and last EDGE its edges.
  const written = pages.map((page) => [...page.keys()].filter((i) => page[i]!.trim()));
  const tops = written.map((w) => new Set(w.slice(0, EDGE)));
  const edges = written.map((w, p) => new Set([...tops[p]!, ...w.slice(-EDGE)]));
  const seen = new Map<string, number>();
  pages.forEach((page, p) => {
    for (const s of new Set([...edges[p]!].map((i) => shape(page[i]!)))) seen.set(s, (seen.get(s) ?? 0) + 1);
  });
  const running = (s: string) => pages.length >= 2 && (seen.get(s) ?? 0) >= Math.max(2, Math.ceil(pages.length / 2));
  // Each running line once, where it cuts nothing: a header before the first page's text, a footer after the last's.
  const once = new Map<string, { line: string; top: boolean }>();
  const kept = pages.map((page, p) => {
    const pageNumber = String(p + 1);
    return page.filter((line, i) => {
      if (!edges[p]!.has(i)) return true;
      const folded = fold(line).trim();
      // 'Page 2 of 5', '2', '- 2 -', '2/5' where this is page 2.
      const bare = folded.match(/^[-–—\s]*(\d{1,4})(?:\s*\/\s*\d{1,4})?[-–—\s]*$/);
      if (bare) return bare[1] !== pageNumber;
      if (/^\W*$/.test(folded.replace(PAGE_WORDS, ''))) return false;
      const s = shape(line);
      if (!running(s)) return true;
      if (!s.includes('#page') && !once.has(s)) once.set(s, { line, top: tops[p]!.has(i) });
      return false;
    });
  });
  const all = [...once.values()];
  if (kept.length > 0) {
    kept[0] = [...all.filter((r) => r.top).map((r) => r.line), ...kept[0]!];
    kept[kept.length - 1] = [...kept.at(-1)!, ...all.filter((r) => !r.top).map((r) => r.line)];
  }
  return kept;
}

export async function readPdfText(data: Buffer): Promise<PdfText> {
  if (data.subarray(0, 1024).indexOf('%PDF-') < 0) throw new DomainError(415, 'unsupported_media_type', 'Only PDF files can be added');
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  // No system fonts (pdf.js 6 evaluates no code from a file at all): a file from outside is parsed for its text, nothing else.
  const task = pdfjs.getDocument({ data: new Uint8Array(data), verbosity: 0, useSystemFonts: false, disableFontFace: true, stopAtErrors: false });
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
    return {
      pages: doc.numPages,
      text: storableText(text)
        .replace(/[ \t]+/g, ' ')
        .replace(/\n{3,}/g, '\n\n')
        .trim(),
    };
  } catch (err) {
    if (err instanceof DomainError) throw err;
    if (err instanceof Error && /password/i.test(err.name + err.message)) throw new DomainError(422, 'invalid_request', 'This PDF is protected by a password');
    throw new DomainError(422, 'invalid_request', 'This PDF could not be read');
  } finally {
    await task.destroy();
  }
}
