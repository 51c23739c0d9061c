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

export function contentMatches(mime: string, data: Buffer): boolean {
  switch (mime) {
    case 'application/pdf':
      // "%PDF-", allowing the few bytes of junk some writers put before it.
      return data.subarray(0, 1024).includes('%PDF-');
    case 'image/png':
      return startsWith(data, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);
    case 'image/jpeg':
      return startsWith(data, 0xff, 0xd8, 0xff);
    case 'application/vnd.openxmlformats-officedocument.wordprocessingml.document':
      // A ZIP holding word/ parts (the name of an entry appears in its local header).
      return startsWith(data, 0x50, 0x4b, 0x03, 0x04) && data.includes('word/');
    case 'application/msword':
      // The OLE compound file of Word 97–2003.
      return startsWith(data, 0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1);
    case 'text/plain':
    case 'text/markdown':
      return isPlainText(data);
    default:
      return false;
  }
}
