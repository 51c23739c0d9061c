import { describe, expect, it } from 'vitest';
import { escapeXml, markdownToNarrative } from './narrative.js';

const div = (body: string) => `<div xmlns="http://www.w3.org/1999/xhtml">${body}</div>`;

describe('markdownToNarrative', () => {
  it('keeps a line that reads as a link reference definition as written', () => {
    expect(markdownToNarrative('[Alergias]: penicilina\n\nVer [Alergias]')).toBe(div('<p>[Alergias]: penicilina</p><p>Ver [Alergias]</p>'));
  });

  it('reads CR LF line ends as line ends', () => {
    expect(markdownToNarrative('Linha um\r\nLinha dois\r\n\r\nFim')).toBe(div('<p>Linha um<br/>Linha dois</p><p>Fim</p>'));
  });
});

describe('escapeXml', () => {
  it('drops half a surrogate pair left alone, and keeps whole pairs', () => {
    expect(escapeXml('a \ud800 b \udc00 c \ud83d\ude00 d')).toBe('a  b  c \ud83d\ude00 d');
    expect(escapeXml('\udc00\ud800')).toBe('');
    expect(markdownToNarrative('Dor \ud83d 7/10')).toBe('<div xmlns="http://www.w3.org/1999/xhtml"><p>Dor  7/10</p></div>');
  });
});
