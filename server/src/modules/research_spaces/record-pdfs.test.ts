/**
 * Patient records as common tools make them (tests/fixtures/record-pdfs, written by
 * scripts/fixtures/make-record-pdfs.ts): a word processor's discharge letter (justified, hyphenated, a table, a
 * running header and footer on both pages) and a health record's browser export (a lab table, soft hyphens, the
 * browser's date and page line). Read as the upload reads them, then screened offline.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sentences } from '../../clinical/record-text.js';
import type { Criterion } from './criteria.js';
import { screenOffline } from './offline-screener.js';
import { readPdfText, withoutRunningLines } from './pdf-text.js';

const fixture = (name: string) => readFileSync(path.resolve(import.meta.dirname, '../../../../tests/fixtures/record-pdfs', name));
const today = new Date('2026-11-28T12:00:00Z');
const c = (id: string, definition: string, type: Criterion['type'] = 'critical_inclusion'): Criterion => ({ id, definition, type, needsReview: false });
const screen = (criteria: Criterion[], text: string) => Object.fromEntries(screenOffline(criteria, text, today).map((a) => [a.criterion_id, a]));

// biome-ignore lint/correctness/usePlaywrightValidDescribeCallback: vitest collects an async describe; the PDF is read once for its tests
describe("a word processor's discharge letter", async () => {
  const { text, pages } = await readPdfText(fixture('office-letter.pdf'));
  const read = sentences(text);

  it('comes back as whole sentences: wrapped lines, hyphenated words and a page break joined, header and footer gone', () => {
    expect(pages).toBe(2);
    expect(read).toContain(
      'Mr. John Doe, a 67-year-old man, was admitted on 03/10/2026 with decompensated chronic heart failure due to an ischaemic cardiomyopathy.',
    );
    expect(read).toContain('On discharge his blood pressure was recorded as 115/80 mm Hg and his heart rate 72/min.');
    expect(read).toContain('Weight 82.5 kg, height 174 cm.');
    expect(read).toContain(
      'Follow-up note 2: Echocardiography on admission showed a left ventricular ejection fraction of 32 % with moderate functional mitral regurgitation.',
    );
    expect(read).toContain('NT-proBNP 1450 pg/mL');
    // The header once, before the letter; the footer, which numbers the pages, nowhere.
    expect(read.slice(0, 2)).toEqual(["St Mary's Hospital — Department of Cardiology —", 'Discharge letter']);
    expect(text.match(/St Mary's Hospital/g)).toHaveLength(1);
    expect(text).not.toMatch(/Confidential|Page \d of \d/);
  });

  it('is screened from its sentences and its table', () => {
    const got = screen(
      [
        c('age', 'Age ≥ 18 years'),
        c('lvef', 'LVEF ≤ 40%'),
        c('a1c', 'HbA1c between 7% and 10%'),
        c('bnp', 'NT-proBNP ≥ 600 pg/mL'),
        c('egfr', 'eGFR < 30 mL/min/1.73 m²', 'critical_exclusion'),
        c('stroke', 'History of stroke or transient ischaemic attack', 'critical_exclusion'),
      ],
      text,
    );
    expect(got.age).toMatchObject({ verdict: 'met', evidence: expect.stringContaining('67-year-old man') });
    expect(got.lvef).toMatchObject({ verdict: 'met', evidence: expect.stringContaining('ejection fraction of 32 %') });
    expect(got.a1c).toMatchObject({ verdict: 'met', evidence: expect.stringContaining('HbA1c was 7.8 %') });
    expect(got.bnp).toMatchObject({ verdict: 'met', evidence: 'NT-proBNP 1450 pg/mL' });
    expect(got.egfr!.verdict).toBe('not_met');
    expect(got.stroke!.verdict).toBe('not_met');
  });
});

// biome-ignore lint/correctness/usePlaywrightValidDescribeCallback: vitest collects an async describe; the PDF is read once for its tests
describe("a health record's browser export", async () => {
  const { text } = await readPdfText(fixture('ehr-export.pdf'));
  const read = sentences(text);

  it('joins a line ending on a preposition to the capitalised word that follows, and drops the page line', () => {
    expect(read).toContain(
      'Doente do sexo feminino, 58 anos, seguida na consulta de Endocrinologia desde 2019 por diabetes mellitus tipo 2 com mau controlo metabólico.',
    );
    expect(read).toContain('Terapêutica habitual: metformina 1000 mg 2 id, empagliflozina 10 mg id, ramipril 5 mg id e atorvastatina 20 mg id.');
    expect(text).not.toMatch(/Página \d de \d/);
  });

  it('is screened from its lab table, with decimal commas and the equation’s year no value', () => {
    const got = screen(
      [
        c('age', 'Women aged 40 to 70 years'),
        c('dm', 'Type 2 diabetes mellitus'),
        c('a1c', 'HbA1c between 7 % and 10 %'),
        c('egfr', 'eGFR ≥ 45 mL/min/1.73 m²'),
        c('insulin', 'Current insulin therapy', 'critical_exclusion'),
        c('stroke', 'History of stroke', 'critical_exclusion'),
      ],
      text,
    );
    expect(got.age).toMatchObject({ verdict: 'met', evidence: expect.stringContaining('58 anos') });
    expect(got.dm!.verdict).toBe('met');
    expect(got.a1c).toMatchObject({ verdict: 'met', evidence: expect.stringContaining('8,2 %') });
    expect(got.egfr).toMatchObject({ verdict: 'met', evidence: expect.stringContaining('54 mL/min') });
    expect(got.insulin!.verdict).toBe('not_met');
    expect(got.stroke!.verdict).toBe('not_met');
  });
});

describe('running headers and footers', () => {
  it('are the lines near the edge of most pages, numbers aside, and page numbers; a line said once stays', () => {
    const pages = [
      ['Hospital — Discharge letter', 'He was admitted on', '03/10/2026.', 'Confidential. Page 1 of 3'],
      ['Hospital — Discharge letter', 'He has diabetes.', 'Confidential. Page 2 of 3'],
      ['Hospital — Discharge letter', 'Hospital — Discharge letter follows below.', 'Seen by Dr. Silva.', '3'],
    ];
    // Kept once where it cuts nothing: the header on the first page (a footer would be kept on the last).
    expect(withoutRunningLines(pages)).toEqual([
      ['Hospital — Discharge letter', 'He was admitted on', '03/10/2026.'],
      ['He has diabetes.'],
      ['Hospital — Discharge letter follows below.', 'Seen by Dr. Silva.'],
    ]);
    const footer = 'Patient: Ana Silva, DOB 01/02/1950';
    const first = ['Type 2 diabetes since 2015.', 'Hypertension.', 'No stroke.', 'Metformin 1000 mg.', 'She was admitted on'];
    const second = ['10/10/2026 with chest pain.', 'Troponin negative.', 'ECG normal.', 'Discharged home.', 'Review in 6 weeks.'];
    expect(
      withoutRunningLines([
        [...first, footer],
        [...second, footer],
      ]),
    ).toEqual([first, [...second, footer]]);
    // One page: nothing repeats, so only its page number goes; a lone number that is not the page's stays.
    expect(withoutRunningLines([['Resumo clínico', 'Sem diabetes.', 'Página 1 de 1']])).toEqual([['Resumo clínico', 'Sem diabetes.']]);
    expect(withoutRunningLines([['HbA1c 7.8 %', '1']])).toEqual([['HbA1c 7.8 %']]);
    expect(withoutRunningLines([['HbA1c (%)', '9']])).toEqual([['HbA1c (%)', '9']]);
  });

  it('keep clinical lines a record repeats near its page edges, and the values that differ from page to page', () => {
    const visit = (date: string, a1c: string) => [`Collected: ${date}`, `HbA1c ${a1c} %`, 'Fasting glucose 7.1 mmol/L', 'Creatinine 0.9 mg/dL'];
    const read = withoutRunningLines([visit('01/03/2026', '6.8'), visit('01/09/2026', '8.4')]).flat();
    expect(read).toEqual(expect.arrayContaining(['Collected: 01/03/2026', 'HbA1c 6.8 %', 'Collected: 01/09/2026', 'HbA1c 8.4 %']));
    expect(read.filter((l) => l === 'Fasting glucose 7.1 mmol/L')).toHaveLength(1);
    const short = [
      ['Assessment: type 2 diabetes, on insulin glargine.', 'Plan: review in 3 months.'],
      ['Assessment: type 2 diabetes, on insulin glargine.', 'Plan: review in 3 months.'],
    ];
    expect(withoutRunningLines(short).flat()).toEqual(['Assessment: type 2 diabetes, on insulin glargine.', 'Plan: review in 3 months.']);
    expect(withoutRunningLines([['a'], ['a']]).flat()).toEqual(['a']);
  });
});
