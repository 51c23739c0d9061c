import { describe, expect, it } from 'vitest';
import { asr, digitsAsWords, labelled, punctuated, tidy } from './forms.js';
import { numbersAsDigits } from './spoken-numbers.js';

const TURNS = [
  { speaker: 'clinician' as const, text: "hi , brian . how are you ? i do n't think we 're gon na need the 2.5 mg ." },
  { speaker: 'patient' as const, text: "okay . my bp was 128/72 , and 45 % ... i ca n't say" },
];

describe('transcript forms', () => {
  it('tidies ACI-Bench spacing and contractions, and capitalises sentences', () => {
    expect(tidy(TURNS[0]!.text)).toBe("Hi, brian. How are you? I don't think we're gonna need the 2.5 mg.");
  });
  it('labelled: one line per turn with the product’s English labels', () => {
    expect(labelled(TURNS).split('\n')).toEqual([
      "Clinician: Hi, brian. How are you? I don't think we're gonna need the 2.5 mg.",
      "Patient: Okay. My bp was 128/72, and 45%... I can't say",
    ]);
  });
  it('punctuated: the same without labels', () => {
    expect(punctuated(TURNS).split('\n')[1]).toBe("Okay. My bp was 128/72, and 45%... I can't say");
  });
  it('asr: lower case, numbers in words, no punctuation but apostrophes, one line', () => {
    const text = asr(TURNS);
    expect(text).toBe(
      "hi brian how are you i don't think we're gonna need the two point five mg okay my bp was one hundred twenty eight over seventy two and forty five percent i can't say",
    );
  });
  it('numbers written in words read back as the same digits', () => {
    for (const n of ['2.5 mg', '128/72', '45 percent', '98.6 degrees', '1,000 mg', '3,500', '104'])
      expect(numbersAsDigits(digitsAsWords(n)).replace(/\s+/g, ' ').trim()).toBe(n.replace(',', ''));
  });
});
