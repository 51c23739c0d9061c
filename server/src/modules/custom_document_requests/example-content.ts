/**
 * Whether an example file's bytes are the kind of file it says it is: support opens these files, so a program
 * renamed to ".pdf" or ".docx" is refused however it is named.
 */
const startsWith = (data: Buffer, ...bytes: number[]) => bytes.every((b, i) => data[i] === b);

/** Text is UTF-8 without NUL or other control characters than tab, line breaks and form feed. */
function isPlainText(data: Buffer): boolean {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(data);
  } catch {
    return false;
  }
  return !/[\u0000-\u0008\u000b\u000e-\u001f\u007f]/.test(text);
}

/** The extension an example is stored with: the one of the type its bytes were checked against, never the sender's. */
export const EXTENSION_OF: Record<string, string> = {
  'application/pdf': 'pdf',
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/msword': 'doc',
  'text/plain': 'txt',
  'text/markdown': 'md',
};

export function contentMatches(mime: string, data: Buffer): boolean {
  switch (mime) {
    case 'application/pdf':
      // "%PDF-" at the start (after at most a byte-order mark or a little whitespace some writers put first).
      return /^(?:\uFEFF|\s){0,8}%PDF-/.test(data.subarray(0, 16).toString('latin1'));
    case 'image/png':
      return startsWith(data, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);
    case 'image/jpeg':
      return startsWith(data, 0xff, 0xd8, 0xff);
    case 'application/vnd.openxmlformats-officedocument.wordprocessingml.document':
      // A ZIP whose entries (named in its local headers) are a Word document's, with no macro project in it.
      return (
        startsWith(data, 0x50, 0x4b, 0x03, 0x04) &&
        data.includes('[Content_Types].xml') &&
        data.includes('word/document.xml') &&
        !data.includes('vbaProject.bin')
      );
    case 'application/msword':
      // The OLE compound file of Word 97–2003.
      return startsWith(data, 0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1);
    case 'text/plain':
    case 'text/markdown':
      // Text, and not a page or a script dressed as text (support opens these files).
      return isPlainText(data) && !/^(?:\uFEFF)?\s*(?:#!|@echo\b)|<\s*(?:!doctype|html|script|iframe|svg|object|embed)\b/i.test(data.toString('utf8'));
    default:
      return false;
  }
}
