import { describe, expect, it } from 'vitest';
import { sentenceSpans } from './sentences.js';

const texts = (t: string) => sentenceSpans(t).map((s) => s.text);

describe('sentences', () => {
  it('never end inside a number, after a title or an initial, or in a time', () => {
    expect(texts('Temperature 37.9. Weight 82.5 kg.')).toEqual(['Temperature 37.9.', 'Weight 82.5 kg.']);
    expect(texts('Start methotrexate 2.5 mg once weekly. Review in 2 weeks.')).toEqual(['Start methotrexate 2.5 mg once weekly.', 'Review in 2 weeks.']);
    expect(texts('Mrs. Wood is here. HbA1c 7.4 %.')).toEqual(['Mrs. Wood is here.', 'HbA1c 7.4 %.']);
    expect(texts('Dr. Silva viu-o às 10.30. Está bem.')).toEqual(['Dr. Silva viu-o às 10.30.', 'Está bem.']);
    expect(texts('Der Wert lag z. B. bei 7,4 %. Kontrolle in 3 Monaten.')).toEqual(['Der Wert lag z. B. bei 7,4 %.', 'Kontrolle in 3 Monaten.']);
    expect(texts('¿Tiene alergias? No. Vuelva en una semana.')).toEqual(['¿Tiene alergias?', 'No.', 'Vuelva en una semana.']);
  });

  it('end at a line break and at marks set apart, and keep spans on the text as written', () => {
    const text = 'hi , brian . how are you ?\nfine thanks';
    const spans = sentenceSpans(text);
    expect(spans.map((s) => s.text)).toEqual(['hi , brian .', 'how are you ?', 'fine thanks']);
    for (const s of spans) expect(text.slice(s.start, s.end)).toBe(s.text);
  });
});

describe('a stop between a number and a dose', () => {
  it('does not cut the dose from its number, and a stop elsewhere still ends the sentence', () => {
    expect(texts('he takes aldactone twelve . five milligrams . and then')).toEqual(['he takes aldactone twelve . five milligrams .', 'and then']);
    expect(texts('I was twelve. Five years later it came back.')).toEqual(['I was twelve.', 'Five years later it came back.']);
    expect(texts('temperature ninety eight . two , heart rate 72. Fine.')).toEqual(['temperature ninety eight . two , heart rate 72.', 'Fine.']);
  });
});
