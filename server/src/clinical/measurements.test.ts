import { describe, expect, it } from 'vitest';
import type { Language } from '../../../contract/constants.js';
import { readMeasurements } from './measurements.js';
import { digitsForSpokenNumbers } from './units.js';

const read = (sentences: string[], language: Language) =>
  readMeasurements(
    sentences.map((s) => digitsForSpokenNumbers(s, language)),
    language,
  );
const values = (sentences: string[], language: Language = 'en') =>
  Object.fromEntries(Object.entries(read(sentences, language).values).map(([k, v]) => [k, v.value]));

describe('measurements', () => {
  it('read a value named, in its unit, in the four languages', () => {
    expect(values(['your blood pressure is one twenty four over seventy six'])).toEqual({ bloodpressure: '124/76 mmHg' });
    expect(values(['your blood pressure looks pretty good today at one twenty eight over seventy two'])).toEqual({ bloodpressure: '128/72 mmHg' });
    expect(values(['Temperature 37.9.', 'HbA1c: 7.4 %'])).toEqual({ temperature: '37.9 °C', hba1c: '7.4 %' });
    expect(values(['your temperature is ninety eight point six'])).toEqual({ temperature: '98.6 °F (37 °C)' });
    expect(values(['A tensão arterial é de cento e quarenta e dois por oitenta e cinco.', 'O peso é 82,5 kg.'], 'pt')).toEqual({
      bloodpressure: '142/85 mmHg',
      weight: '82,5 kg',
    });
    expect(values(['Der Blutdruck ist hundertvierzig zu neunzig, Puls zweiundsiebzig.'], 'de')).toEqual({ bloodpressure: '140/90 mmHg', heartrate: '72 bpm' });
    expect(values(['La tensión es de ciento treinta con ochenta, saturación noventa y siete por ciento.'], 'es')).toEqual({
      bloodpressure: '130/80 mmHg',
      saturation: '97 %',
    });
  });

  it('keep the unit said: pounds stay pounds, the conversion only beside them; a weight in English without a unit is none', () => {
    expect(values(['I weigh 154 pounds'])).toEqual({ weight: '154 lb (69.9 kg)' });
    expect(values(['his weight is 80 today'])).toEqual({});
  });

  it('write nothing from another clause, time, person or a value said two ways', () => {
    expect(values(['we will get another a1c in 4 months', 'your a1c was 8 today'])).toEqual({ hba1c: '8 %' });
    expect(values(['if I weigh 250 pounds I will be happy'])).toEqual({});
    expect(values(['last time it was 180 over 95, blood pressure'])).toEqual({});
    expect(values(['at home my blood pressure runs around 120 over 70'])).toEqual({});
    expect(values(['my mother has a blood pressure of 170 over 100'])).toEqual({});
    expect(values(['blood pressure 150/90', 'repeat blood pressure 140/85'])).toEqual({});
    expect(values(['blood pressure 150/90', 'blood pressure 140/85'])).toEqual({});
    expect(values(['heart rate is 80 to 90'])).toEqual({});
    expect(values(['Is your heart rate 80?'])).toEqual({});
  });

  it('return an implausible value named now as a check, not a value', () => {
    const r = read(['the temperature we thirty see'], 'en');
    expect(r.values).toEqual({});
    expect(r.checks).toEqual([{ measure: 'temperature', written: '30', sentence: 0, at: 19, end: 21 }]);
    expect(read(['blood pressure 25/76'], 'en').checks).toHaveLength(1);
  });
});

describe('a value cut by a stop', () => {
  it('is no value', () => {
    expect(values(['your a1c was seven . three'])).toEqual({ hba1c: '7.3 %' });
    // Read as given, a value the stop cuts is none.
    expect(readMeasurements(['your a1c was 7 . 3 of them were high'], 'en').values).toEqual({});
  });
});

describe('values that are not the value now', () => {
  it('are none: negated, changes, past times, targets, exercise, other labs, a second value after', () => {
    for (const said of [
      "Your blood pressure isn't 180/100.",
      'Weight loss of 5 kg.',
      'Your weight is up 10 pounds.',
      'Blood pressure yesterday was 150/95.',
      'Two weeks ago, blood pressure 150/95.',
      'Had a fever of 39.',
      'Keep your A1c at 7.',
      'Heart rate peaks at 150 on exercise.',
      'Heart rate of 72 and 80.',
      'Blood pressure 130/80 and then 120/70.',
      'Blood pressure 130/80/70.',
      'LDL 160.',
      'HDL cholesterol 1.2.',
      'Pulse oximetry 95.',
      'Heart rate is ninety ninety seven.',
      'Temperature of 38 5.',
    ])
      expect(values([said]), said).toEqual({});
    expect(values(['o peso é de cento e dez'], 'pt')).toEqual({ weight: '110 kg' });
    expect(values(['a frequência cardíaca é cento e dez'], 'pt')).toEqual({ heartrate: '110 bpm' });
  });
});
