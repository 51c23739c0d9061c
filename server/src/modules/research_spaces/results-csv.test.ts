import { describe, expect, it } from 'vitest';
import type { CriterionVerdict } from '../../db/schema.js';
import { csvCell, resultsCsv, type CsvResult } from './results-csv.js';

const criterion = (id: string, definition: string, verdict: CriterionVerdict['verdict'], evidence: string, type = 'critical_inclusion'): CriterionVerdict => ({
  criterion_id: id,
  definition,
  type,
  needs_review: false,
  verdict,
  evidence,
});

const undecided = { decision: null, note: '', decidedBy: null, decidedAt: null, machineChanged: false };
const result = (over: Partial<CsvResult>): CsvResult => ({
  patient: 'P-1',
  preEvaluation: 'fit',
  met: 2,
  total: 2,
  relevance: 71,
  status: 'in_review',
  explanation: '',
  createdAt: new Date('2026-11-22T10:00:00Z'),
  criteria: [],
  ...undecided,
  ...over,
});

const parse = (csv: string) => csv.replace('\uFEFF', '').trim().split('\r\n');

describe('results as CSV', () => {
  it('writes labels in the language, semicolons outside English, and never a formula', () => {
    const csv = resultsCsv(
      'DIA-3',
      [result({ patient: '=HYPERLINK("x")', explanation: 'Diz "apto"', criteria: [criterion('a', 'Idade ≥ 18', 'met', 'Idade: 58')], met: 1, total: 1 })],
      'pt',
    );
    const [head, row] = parse(csv);
    expect(head).toBe(
      '"Doente";"Ensaio";"Pré-avaliação";"Critérios satisfeitos";"Relevância";"Estado do rastreio";"Explicação";"Rastreado em";"Decisão";"Nota da decisão";"Decidido por";"Decidido em";"Rastreio alterado desde a decisão";"Idade ≥ 18 (veredicto)";"Idade ≥ 18 (explicação)";"Idade ≥ 18 (evidência)"',
    );
    expect(row).toBe(
      `"'=HYPERLINK(""x"")";"DIA-3";"Apto";"1/1";"71";"Em revisão";"Diz ""apto""";"2026-11-22T10:00:00.000Z";"";"";"";"";"";"Cumprido";"Conta a favor do doente";"Idade: 58"`,
    );
    expect(resultsCsv('T', [], 'en').split('\r\n')[0]).toContain('"Patient","Trial"');
  });

  it("adds a model's reason for a criterion to what the verdict means", () => {
    const screened = { ...criterion('a', 'Age ≥ 18', 'met', 'Age: 58.'), explanation: 'The record gives 58 years.' };
    const [, row] = parse(resultsCsv('T', [result({ criteria: [screened], met: 1, total: 1 })], 'en'));
    expect(row).toContain('"Counts for the patient: The record gives 58 years.","Age: 58."');
  });

  it('explains every row from its criteria when the screening wrote no explanation, and gives each criterion its own', () => {
    const criteria = [
      criterion('a', 'Age ≥ 18', 'met', 'Age: 58.'),
      criterion('b', 'eGFR < 30', 'met', 'eGFR 25 mL/min.', 'critical_exclusion'),
      criterion('c', 'Pregnancy', 'unclear', '', 'non_critical_exclusion'),
    ];
    const [, row] = parse(resultsCsv('T', [result({ preEvaluation: 'not_approved', met: 1, total: 3, status: 'requires_review', criteria })], 'en'));
    const cells = row!.split('","').map((c) => c.replace(/^"|"$/g, ''));
    expect(cells[4]).toBe('71');
    expect(cells[6]).toBe('Not approved: 1 of 3 criteria satisfied. Against: eGFR < 30. Unclear: Pregnancy.');
    expect(cells.slice(13)).toEqual([
      'Met',
      'Counts for the patient',
      'Age: 58.',
      'Met',
      'Rules the patient out (critical criterion)',
      'eGFR 25 mL/min.',
      'Unclear',
      'The records do not settle it; a person must check',
      '',
    ]);
  });

  it("carries the reviewer's decision, note, author and time, and whether the screening changed since", () => {
    const decided = result({
      decision: 'declined',
      note: '-see cardiology letter',
      decidedBy: 'Ana Lopes',
      decidedAt: new Date('2026-11-23T09:30:00Z'),
      machineChanged: true,
    });
    const [, row] = parse(resultsCsv('T', [decided], 'de'));
    expect(row).toContain(`"Abgelehnt";"'-see cardiology letter";"Ana Lopes";"2026-11-23T09:30:00.000Z";"Ja"`);
  });

  it('quotes every cell and defuses what a spreadsheet would run', () => {
    expect(csvCell('plain')).toBe('"plain"');
    expect(csvCell('a "b", c\nd')).toBe('"a ""b"", c\nd"');
    for (const v of ['=1+1', '+1', '-1', '@SUM(A1)', '  =cmd', '\tx', '\rx']) expect(csvCell(v).startsWith(`"'`)).toBe(true);
    expect(csvCell('58 - 60')).toBe('"58 - 60"');
  });
});
