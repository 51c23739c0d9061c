import { describe, expect, it } from 'vitest';
import { markdownToNarrative } from './narrative.js';

const div = (body: string) => `<div xmlns="http://www.w3.org/1999/xhtml">${body}</div>`;

describe('markdownToNarrative', () => {
  it('reads CR LF line ends as line ends', () => {
    expect(markdownToNarrative('Linha um\r\nLinha dois\r\n\r\nFim')).toBe(div('<p>Linha um<br/>Linha dois</p><p>Fim</p>'));
  });
});
