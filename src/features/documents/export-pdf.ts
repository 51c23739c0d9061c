/**
 * Export PDF in the browser: jsPDF, the layout and the font files are all fetched only when a clinician asks for a
 * PDF (this module is imported dynamically), and each face only if the document uses it. Vite serves the .ttf
 * files as assets under assets/on-demand/, which the service worker keeps once fetched, so a second export works offline.
 */
import normal from '../../../contract/fonts/DejaVuSans.ttf?url';
import bold from '../../../contract/fonts/DejaVuSans-Bold.ttf?url';
import italic from '../../../contract/fonts/DejaVuSans-Oblique.ttf?url';
import bolditalic from '../../../contract/fonts/DejaVuSans-BoldOblique.ttf?url';
import { documentToPdf, type PdfDocumentInput } from '../../../contract/document-pdf';
import type { FontFace, FontSource } from '../../../contract/pdf-fonts';

const URLS: Record<FontFace, string> = { normal, bold, italic, bolditalic };
const loaded = new Map<FontFace, Promise<Uint8Array>>();

const browserFonts: FontSource = (face) => {
  let bytes = loaded.get(face);
  if (!bytes) {
    bytes = fetch(URLS[face]).then(async (response) => {
      if (!response.ok) throw new Error(`Font ${face}: HTTP ${response.status}`);
      return new Uint8Array(await response.arrayBuffer());
    });
    // A failed fetch (offline) is not kept: the next export tries again.
    bytes.catch(() => loaded.delete(face));
    loaded.set(face, bytes);
  }
  return bytes;
};

export function exportPdf(input: PdfDocumentInput) {
  return documentToPdf(input, browserFonts);
}
