import { describe, expect, it } from 'vitest';
import { numbersAsDigits } from './spoken-numbers.js';

describe('spoken numbers, English', () => {
  const cases: [string, string][] = [
    ['one twenty four', '124'],
    ['ninety eight point six degrees', '98.6 degrees'],
    ['two and a half weeks', '2.5 weeks'],
    ['a hundred and forty', '140'],
    ['blood pressure is one twenty four over eighty', 'blood pressure is 124/80'],
    ['twenty-four hours', '24 hours'],
    ['a three out of six murmur', 'a 3/6 murmur'],
    ['five hundred milligrams', '500 milligrams'],
    ['one hundred twenty', '120'],
    ['two thousand and twenty', '2020'],
    ['one oh five', '105'],
    ['since nineteen ninety', 'since 1990'],
    ['three thousand five hundred', '3500'],
    ['point five milligrams', 'point 5 milligrams'],
    ['two and three', '2 and 3'],
    ['lisinopril twenty milligrams a day', 'lisinopril 20 milligrams a day'],
    ['i have a cat and a dog', 'i have a cat and a dog'],
    ['the point is', 'the point is'],
    ['one, two', '1, 2'],
    ['Forty five percent', '45 percent'],
    ['2 and a half', '2.5'],
    ['about five weeks or so', 'about 5 weeks or so'],
    ['one week and a half', '1.5 week'],
  ];
  for (const [said, written] of cases) it(`${said} → ${written}`, () => expect(numbersAsDigits(said, 'en')).toBe(written));
});

describe('spoken numbers in the project dialogues’ other languages (decimals with a comma, as they are written there)', () => {
  it('Portuguese', () => {
    expect(numbersAsDigits('A tensão está em cento e sessenta por cem.', 'pt')).toBe('A tensão está em 160/100.');
    expect(numbersAsDigits('ramipril cinco miligramas uma vez por dia', 'pt')).toBe('ramipril 5 miligramas uma vez por dia');
    expect(numbersAsDigits('vinte e cinco anos, trinta e sete vírgula oito', 'pt')).toBe('25 anos, 37,8');
    expect(numbersAsDigits('peso sessenta e sete quilos e meio', 'pt')).toBe('peso 67,5 quilos');
  });
  it('Spanish', () => {
    expect(numbersAsDigits('treinta y ocho y medio', 'es')).toBe('38,5');
    expect(numbersAsDigits('siete coma ocho, ochocientos cincuenta miligramos', 'es')).toBe('7,8, 850 miligramos');
  });
  it('German', () => {
    expect(numbersAsDigits('achtunddreißig Komma fünf', 'de')).toBe('38,5');
    expect(numbersAsDigits('Blutdruck hundertfünfundvierzig zu neunzig', 'de')).toBe('Blutdruck 145/90');
    expect(numbersAsDigits('seit drei Tagen, zweieinhalb Wochen, sechzehn', 'de')).toBe('seit 3 Tagen, 2,5 Wochen, 16');
    expect(numbersAsDigits('eine Woche', 'de')).toBe('eine Woche');
    expect(numbersAsDigits('anderthalb Liter', 'de')).toBe('1,5 Liter');
  });
});
