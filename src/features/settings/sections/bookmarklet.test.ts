import { describe, expect, it } from 'vitest';
import { bookmarkletCode } from './ToolsSection';

describe('bookmarkletCode', () => {
  it('is a javascript: bookmark that opens this app, the origin quoted safely', () => {
    const code = bookmarkletCode('https://notes.clinic.pt');
    expect(code.startsWith('javascript:')).toBe(true);
    expect(code).toContain('"https://notes.clinic.pt/"');
    expect(bookmarkletCode('https://x.test/");alert(1);("')).toContain('\\"');
  });
});
