/**
 * Reads the text layer of a patient's PDF once, at upload, so screening never parses files again. A PDF that is
 * only scanned images has no text layer: it is kept, and said to be unreadable, rather than guessed at.
 */
import { DomainError } from '../../http/errors.js';
import { storableText } from '../../ai/storable-text.js';

/** Beyond this a file is not one patient's records but an archive; reading stops there. */
const MAX_PAGES = 500;

export type PdfText = { pages: number; text: string };

export async function readPdfText(data: Buffer): Promise<PdfText> {
  if (data.subarray(0, 1024).indexOf('%PDF-') < 0) throw new DomainError(415, 'unsupported_media_type', 'Only PDF files can be added');
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  // No script evaluation and no system fonts: a file from outside is parsed for its text, nothing else.
  const task = pdfjs.getDocument({ data: new Uint8Array(data), verbosity: 0, isEvalSupported: false, useSystemFonts: false, disableFontFace: true, stopAtErrors: false });
  try {
    const doc = await task.promise;
    const lines: string[] = [];
    for (let n = 1; n <= Math.min(doc.numPages, MAX_PAGES); n++) {
      const page = await doc.getPage(n);
      const content = await page.getTextContent();
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
      lines.push('');
      page.cleanup();
    }
    return { pages: doc.numPages, text: storableText(lines.join('\n')).replace(/[ \t]+/g, ' ').replace(/\n{3,}/g, '\n\n').trim() };
  } catch (err) {
    if (err instanceof DomainError) throw err;
    if (err instanceof Error && /password/i.test(err.name + err.message)) throw new DomainError(422, 'invalid_request', 'This PDF is protected by a password');
    throw new DomainError(422, 'invalid_request', 'This PDF could not be read');
  } finally {
    await task.destroy();
  }
}
