/**
 * The PDF's font: DejaVu Sans 2.37 (Bitstream Vera licence with DejaVu's changes in the public domain), reduced to the
 * characters clinical text uses by scripts/make-pdf-fonts.sh into contract/fonts, embedded as TrueType with Identity-H, which jsPDF subsets to the glyphs the document uses. jsPDF's
 * built-in fonts know only Latin-1 and print "≥" as `"e` and "→" as `!’`; DejaVu Sans covers Latin, Greek,
 * Cyrillic, arrows and mathematical operators.
 */
export type FontFace = 'normal' | 'bold' | 'italic' | 'bolditalic';

/** File names in contract/fonts. */
export const FONT_FILES: Record<FontFace, string> = {
  normal: 'DejaVuSans.ttf',
  bold: 'DejaVuSans-Bold.ttf',
  italic: 'DejaVuSans-Oblique.ttf',
  bolditalic: 'DejaVuSans-BoldOblique.ttf',
};

/**
 * Each face its own PostScript name (it becomes the PDF's BaseFont): a reader, a screen reader or a test can tell
 * bold from regular text by it.
 */
export const FONT_NAMES: Record<FontFace, string> = {
  normal: 'DejaVuSans',
  bold: 'DejaVuSans-Bold',
  italic: 'DejaVuSans-Oblique',
  bolditalic: 'DejaVuSans-BoldOblique',
};

/** Where the font files come from: fetched by the browser, read from disk by the server. */
export type FontSource = (face: FontFace) => Promise<Uint8Array>;

/**
 * Which characters a TrueType font has a glyph for, from its Unicode cmap subtable (format 4, the Basic
 * Multilingual Plane). jsPDF writes text as UTF-16 code units, so a character outside that plane could not be
 * written even if the font had it: such characters count as missing.
 */
export function glyphCoverage(font: Uint8Array): (codePoint: number) => boolean {
  const data = new DataView(font.buffer, font.byteOffset, font.byteLength);
  const u16 = (at: number) => data.getUint16(at);
  const u32 = (at: number) => data.getUint32(at);
  let cmap = -1;
  for (let i = 0, n = u16(4); i < n; i++) {
    const record = 12 + i * 16;
    if (String.fromCharCode(font[record]!, font[record + 1]!, font[record + 2]!, font[record + 3]!) === 'cmap') cmap = u32(record + 8);
  }
  if (cmap < 0) throw new Error('The font has no cmap table');
  let table = -1;
  for (let i = 0, n = u16(cmap + 2); i < n; i++) {
    const record = cmap + 4 + i * 8;
    const platform = u16(record);
    const encoding = u16(record + 2);
    const at = cmap + u32(record + 4);
    // Windows Unicode BMP (3,1) or Unicode (0,x), in format 4.
    if ((platform === 3 && encoding === 1) || platform === 0) {
      if (u16(at) === 4) table = at;
    }
  }
  if (table < 0) throw new Error('The font has no Unicode cmap of format 4');
  const segments = u16(table + 6) / 2;
  const ends = table + 14;
  const starts = ends + segments * 2 + 2;
  const deltas = starts + segments * 2;
  const rangeOffsets = deltas + segments * 2;
  return (codePoint) => {
    if (codePoint > 0xffff) return false;
    for (let s = 0; s < segments; s++) {
      if (codePoint > u16(ends + s * 2)) continue;
      const start = u16(starts + s * 2);
      if (codePoint < start) return false;
      const rangeOffset = u16(rangeOffsets + s * 2);
      const delta = u16(deltas + s * 2);
      if (rangeOffset === 0) return ((codePoint + delta) & 0xffff) !== 0;
      const glyph = u16(rangeOffsets + s * 2 + rangeOffset + (codePoint - start) * 2);
      return glyph !== 0 && ((glyph + delta) & 0xffff) !== 0;
    }
    return false;
  };
}

// Marks that select a presentation or join characters, with nothing of their own to show.
const INVISIBLE = /[\u200b-\u200d\u2060\ufeff]|[\ufe00-\ufe0f]/;

/**
 * The text as the font can print it, never silently less: composed (NFC, so "e" + combining acute prints as
 * the one glyph "é"), and each character the font has no glyph for written as its code, "[U+1F600]", so the
 * reader sees that something stood there and what.
 */
export function printable(text: string, has: (codePoint: number) => boolean): string {
  let out = '';
  for (const char of text.normalize('NFC')) {
    const code = char.codePointAt(0)!;
    if (char === '\n') out += char;
    else if (char === '\t') out += ' ';
    else if (INVISIBLE.test(char)) continue;
    else if (has(code)) out += char;
    else out += `[U+${code.toString(16).toUpperCase().padStart(4, '0')}]`;
  }
  return out;
}

/** A file's bytes as the binary string jsPDF's virtual file system takes, built in slices (no call takes a huge argument list). */
export function binaryString(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 0x8000) out += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return out;
}
