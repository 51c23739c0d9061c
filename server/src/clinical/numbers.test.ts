import { describe, expect, it } from 'vitest';
import { wordsToDigits } from './numbers.js';
import { digitsForSpokenNumbers, numbersAsNoted } from './units.js';

describe('numbers said in words', () => {
  it('read compound readings as one number, and a blood pressure said the colloquial way', () => {
    expect(numbersAsNoted('your blood pressure is one twenty four over seventy six', 'en')).toBe('your blood pressure is 124/76');
    expect(numbersAsNoted('one ten over sixty five', 'en')).toBe('110/65');
    expect(numbersAsNoted('a hundred and forty over over seventy', 'en')).toBe('140/70');
    expect(wordsToDigits('ninety eight point six, two and a half, twenty-four hours', 'en')).toBe('98.6, 2.5, 24 hours');
    expect(wordsToDigits('two thousand and twenty, one thousand five hundred', 'en')).toBe('2020, 1500');
    expect(wordsToDigits('I weigh one sixty pounds', 'en')).toBe('I weigh 160 pounds');
  });

  it('never add up a repetition or a list of numbers', () => {
    expect(wordsToDigits('five hundred five hundred milligrams', 'en')).toBe('500 milligrams');
    expect(wordsToDigits('eighty eighty thirty', 'en')).toBe('eighty eighty thirty');
    expect(wordsToDigits('one two three', 'en')).toBe('one two three');
    // Without a measurement being said, 'one twenty' is one tablet of twenty.
    expect(wordsToDigits('take one twenty milligram tablet', 'en')).toBe('take one twenty milligram tablet');
    expect(wordsToDigits('one fifty', 'en')).toBe('one fifty');
  });

  it('read Portuguese, German and Spanish numbers, decimals and halves', () => {
    expect(numbersAsNoted('cento e vinte e quatro por oitenta e cinco, uma semana', 'pt')).toBe('124/85, uma semana');
    expect(wordsToDigits('trinta e sete vírgula nove, dois mil e quinhentos', 'pt')).toBe('37,9, 2500');
    expect(digitsForSpokenNumbers('peso sessenta e sete quilos e meio', 'pt')).toBe('peso 67,5 kg');
    expect(numbersAsNoted('hundertzwanzig zu achtzig, hundert zwanzig, neun Komma acht, zweieinhalb Tabletten', 'de')).toBe('120/80, 120, 9,8, 2,5 Tabletten');
    expect(wordsToDigits('eine Woche', 'de')).toBe('eine Woche');
    expect(numbersAsNoted('ciento veinticuatro con ochenta, treinta y ocho coma cinco, una semana', 'es')).toBe('124/80, 38,5, una semana');
  });

  it('leave written digits and their decimals whole, and abbreviate units without changing them', () => {
    expect(digitsForSpokenNumbers('methotrexate 2.5 mg once weekly, HbA1c 7.4 %', 'en')).toBe('methotrexate 2.5 mg once weekly, HbA1c 7.4 %');
    expect(digitsForSpokenNumbers('he weighs 154 pounds, 38 point 4', 'en')).toBe('he weighs 154 lb, 38.4');
    expect(digitsForSpokenNumbers('zwanzig Milligramm, sieben Prozent', 'de')).toBe('20 mg, 7 %');
  });
});

describe('hundreds past nine and a stop inside a number', () => {
  it('read fifteen hundred, and leave a number cut by a stop as it was said', () => {
    expect(wordsToDigits('fifteen hundred milligrams, twenty three hundred and fifty', 'en')).toBe('1500 milligrams, 2350');
    expect(wordsToDigits('aldactone twelve . five milligrams', 'en')).toBe('aldactone 12 . 5 milligrams');
    expect(digitsForSpokenNumbers('aldactone twelve . five milligrams', 'en')).toBe('aldactone 12.5 mg');
  });
});

describe('a decimal point written as a stop', () => {
  it('is joined where a unit or the clause end follows its one digit, and a new sentence is left alone', () => {
    expect(digitsForSpokenNumbers('your temperature is ninety eight . two , heart rate 72', 'en')).toBe('your temperature is 98.2 , heart rate 72');
    expect(digitsForSpokenNumbers('aldactone twelve. five milligrams daily', 'en')).toBe('aldactone 12.5 mg daily');
    expect(digitsForSpokenNumbers('I was twelve. Two years later', 'en')).toBe('I was 12. 2 years later');
  });
  it('is joined before a medicine the dose is of, and after a measurement named earlier in the clause', () => {
    expect(digitsForSpokenNumbers("you're on two . five of norvasc for your blood pressure", 'en')).toBe("you're on 2.5 of norvasc for your blood pressure");
    expect(digitsForSpokenNumbers('keep you on that two . five norvasc', 'en')).toBe('keep you on that 2.5 norvasc');
    expect(digitsForSpokenNumbers('a low-grade fever of about a hundred . four right now', 'en')).toBe('a low-grade fever of about 100.4 right now');
    expect(digitsForSpokenNumbers('we checked your hemoglobin a1c last time and it showed that it was you know seven . one so it is good', 'en')).toBe(
      'we checked your hemoglobin a1c last time and it showed that it was you know 7.1 so it is good',
    );
    // A count of things, and a stop far from any measurement, still end the sentence.
    expect(digitsForSpokenNumbers('I have two. Five of my friends came', 'en')).toBe('I have 2. 5 of my friends came');
    expect(digitsForSpokenNumbers('I was twelve. Two right now', 'en')).toBe('I was 12. 2 right now');
    // Tablets counted before a list, and a number with another said between it and the measurement, stay apart.
    expect(digitsForSpokenNumbers('Three. One aspirin, one metformin and one lisinopril.', 'en')).toBe('3. One aspirin, one metformin and one lisinopril.');
    expect(digitsForSpokenNumbers('I took 2. 2 tylenol every six hours', 'en')).toBe('I took 2. 2 tylenol every 6 hours');
    expect(digitsForSpokenNumbers('my temperature was high for about 3 days and then I checked it again at 9. 2 in the morning', 'en')).toBe(
      'my temperature was high for about 3 days and then I checked it again at 9. 2 in the morning',
    );
  });
});
