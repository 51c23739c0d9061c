/** The results of a trial as a spreadsheet file, in the researcher's language. */
import type { Language } from '../../../../contract/constants.js';
import type { CriterionVerdict } from '../../db/schema.js';

type Labels = {
  head: [patient: string, trial: string, preEvaluation: string, criteriaMet: string, status: string, explanation: string, screened: string];
  pre: Record<string, string>;
  status: Record<string, string>;
  verdict: Record<CriterionVerdict['verdict'], string>;
};

const LABELS: Record<Language, Labels> = {
  en: {
    head: ['Patient', 'Trial', 'Pre-evaluation', 'Criteria met', 'Result', 'Explanation', 'Screened at'],
    pre: { not_approved: 'Not approved', fit: 'Fit', possible: 'Possible' },
    status: { approved: 'Approved', declined: 'Declined', in_review: 'In review', requires_review: 'Requires review' },
    verdict: { met: 'Met', not_met: 'Not met', unclear: 'Unclear' },
  },
  pt: {
    head: ['Doente', 'Ensaio', 'Pré-avaliação', 'Critérios cumpridos', 'Resultado', 'Explicação', 'Rastreado em'],
    pre: { not_approved: 'Não aprovado', fit: 'Apto', possible: 'Possível' },
    status: { approved: 'Aprovado', declined: 'Recusado', in_review: 'Em revisão', requires_review: 'Requer revisão' },
    verdict: { met: 'Cumprido', not_met: 'Não cumprido', unclear: 'Pouco claro' },
  },
  de: {
    head: ['Patient', 'Studie', 'Vorbewertung', 'Erfüllte Kriterien', 'Ergebnis', 'Begründung', 'Geprüft am'],
    pre: { not_approved: 'Nicht geeignet', fit: 'Geeignet', possible: 'Möglich' },
    status: { approved: 'Angenommen', declined: 'Abgelehnt', in_review: 'In Prüfung', requires_review: 'Prüfung erforderlich' },
    verdict: { met: 'Erfüllt', not_met: 'Nicht erfüllt', unclear: 'Unklar' },
  },
  es: {
    head: ['Paciente', 'Ensayo', 'Preevaluación', 'Criterios cumplidos', 'Resultado', 'Explicación', 'Cribado el'],
    pre: { not_approved: 'No aprobado', fit: 'Apto', possible: 'Posible' },
    status: { approved: 'Aprobado', declined: 'Rechazado', in_review: 'En revisión', requires_review: 'Requiere revisión' },
    verdict: { met: 'Cumplido', not_met: 'No cumplido', unclear: 'Poco claro' },
  },
};

/** A cell that a spreadsheet would run as a formula is written as text. */
function cell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return `"${safe.replaceAll('"', '""')}"`;
}

export type CsvResult = { patient: string; preEvaluation: string; met: number; total: number; status: string; explanation: string; createdAt: Date; criteria: CriterionVerdict[] };

export function resultsCsv(trialName: string, results: CsvResult[], language: Language): string {
  const l = LABELS[language];
  // Spreadsheets in Portugal, Germany and Spain expect semicolons, since the comma is their decimal mark.
  const sep = language === 'en' ? ',' : ';';
  const criteria = new Map<string, string>();
  for (const r of results) for (const c of r.criteria) if (!criteria.has(c.criterion_id)) criteria.set(c.criterion_id, c.definition);
  const rows = [
    [...l.head, ...criteria.values()],
    ...results.map((r) => {
      const byId = new Map(r.criteria.map((c) => [c.criterion_id, c]));
      return [
        r.patient,
        trialName,
        l.pre[r.preEvaluation] ?? r.preEvaluation,
        `${r.met}/${r.total}`,
        l.status[r.status] ?? r.status,
        r.explanation,
        r.createdAt.toISOString(),
        ...[...criteria.keys()].map((id) => {
          const c = byId.get(id);
          return c ? [l.verdict[c.verdict], c.evidence].filter(Boolean).join(': ') : '';
        }),
      ];
    }),
  ];
  // The byte-order mark makes spreadsheets read the accents as UTF-8.
  return '\uFEFF' + rows.map((row) => row.map(cell).join(sep)).join('\r\n') + '\r\n';
}
