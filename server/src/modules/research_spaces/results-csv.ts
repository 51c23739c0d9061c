/**
 * The results of a trial as a spreadsheet file, in the researcher's language: for each patient the screening's
 * class, status and explanation, the reviewer's decision (with its note, author and time), and for each criterion
 * its verdict, what that verdict means for the patient, and the words of the records it rests on.
 */
import type { Language } from '../../../../contract/constants.js';
import type { CriterionVerdict } from '../../db/schema.js';
import { isCritical, satisfied, type CriterionType } from './criteria.js';

type Outcome = 'satisfied' | 'failed' | 'failedCritical' | 'unclear';

type Labels = {
  head: string[];
  /** The three columns of each criterion, after its definition. */
  criterion: [verdict: string, explanation: string, evidence: string];
  pre: Record<string, string>;
  status: Record<string, string>;
  verdict: Record<CriterionVerdict['verdict'], string>;
  outcome: Record<Outcome, string>;
  summary: (met: number, total: number) => string;
  against: string;
  unclear: string;
  yes: string;
};

const LABELS: Record<Language, Labels> = {
  en: {
    head: [
      'Patient',
      'Trial',
      'Pre-evaluation',
      'Criteria satisfied',
      'Relevance',
      'Screening status',
      'Explanation',
      'Screened at',
      'Decision',
      'Decision note',
      'Decided by',
      'Decided at',
      'Screening changed since the decision',
    ],
    criterion: ['verdict', 'explanation', 'evidence'],
    pre: { not_approved: 'Not approved', fit: 'Fit', possible: 'Possible' },
    status: { approved: 'Approved', declined: 'Declined', in_review: 'In review', requires_review: 'Requires review' },
    verdict: { met: 'Met', not_met: 'Not met', unclear: 'Unclear' },
    outcome: {
      satisfied: 'Counts for the patient',
      failed: 'Counts against the patient',
      failedCritical: 'Rules the patient out (critical criterion)',
      unclear: 'The records do not settle it; a person must check',
    },
    summary: (met, total) => `${met} of ${total} criteria satisfied`,
    against: 'Against',
    unclear: 'Unclear',
    yes: 'Yes',
  },
  pt: {
    head: [
      'Doente',
      'Ensaio',
      'Pré-avaliação',
      'Critérios satisfeitos',
      'Relevância',
      'Estado do rastreio',
      'Explicação',
      'Rastreado em',
      'Decisão',
      'Nota da decisão',
      'Decidido por',
      'Decidido em',
      'Rastreio alterado desde a decisão',
    ],
    criterion: ['veredicto', 'explicação', 'evidência'],
    pre: { not_approved: 'Não aprovado', fit: 'Apto', possible: 'Possível' },
    status: { approved: 'Aprovado', declined: 'Recusado', in_review: 'Em revisão', requires_review: 'Requer revisão' },
    verdict: { met: 'Cumprido', not_met: 'Não cumprido', unclear: 'Pouco claro' },
    outcome: {
      satisfied: 'Conta a favor do doente',
      failed: 'Conta contra o doente',
      failedCritical: 'Exclui o doente (critério crítico)',
      unclear: 'Os registos não permitem concluir; deve ser verificado por uma pessoa',
    },
    summary: (met, total) => `${met} de ${total} critérios satisfeitos`,
    against: 'Contra',
    unclear: 'Pouco claros',
    yes: 'Sim',
  },
  de: {
    head: [
      'Patient',
      'Studie',
      'Vorbewertung',
      'Erfüllte Kriterien',
      'Relevanz',
      'Status der Prüfung',
      'Begründung',
      'Geprüft am',
      'Entscheidung',
      'Notiz zur Entscheidung',
      'Entschieden von',
      'Entschieden am',
      'Prüfung seit der Entscheidung geändert',
    ],
    criterion: ['Urteil', 'Begründung', 'Beleg'],
    pre: { not_approved: 'Nicht geeignet', fit: 'Geeignet', possible: 'Möglich' },
    status: { approved: 'Angenommen', declined: 'Abgelehnt', in_review: 'In Prüfung', requires_review: 'Prüfung erforderlich' },
    verdict: { met: 'Erfüllt', not_met: 'Nicht erfüllt', unclear: 'Unklar' },
    outcome: {
      satisfied: 'Spricht für den Patienten',
      failed: 'Spricht gegen den Patienten',
      failedCritical: 'Schließt den Patienten aus (kritisches Kriterium)',
      unclear: 'Aus den Unterlagen nicht zu klären; eine Person muss prüfen',
    },
    summary: (met, total) => `${met} von ${total} Kriterien erfüllt`,
    against: 'Dagegen',
    unclear: 'Unklar',
    yes: 'Ja',
  },
  es: {
    head: [
      'Paciente',
      'Ensayo',
      'Preevaluación',
      'Criterios satisfechos',
      'Relevancia',
      'Estado del cribado',
      'Explicación',
      'Cribado el',
      'Decisión',
      'Nota de la decisión',
      'Decidido por',
      'Decidido el',
      'Cribado cambiado desde la decisión',
    ],
    criterion: ['veredicto', 'explicación', 'evidencia'],
    pre: { not_approved: 'No aprobado', fit: 'Apto', possible: 'Posible' },
    status: { approved: 'Aprobado', declined: 'Rechazado', in_review: 'En revisión', requires_review: 'Requiere revisión' },
    verdict: { met: 'Cumplido', not_met: 'No cumplido', unclear: 'Poco claro' },
    outcome: {
      satisfied: 'Cuenta a favor del paciente',
      failed: 'Cuenta en contra del paciente',
      failedCritical: 'Excluye al paciente (criterio crítico)',
      unclear: 'Los registros no permiten concluir; debe comprobarlo una persona',
    },
    summary: (met, total) => `${met} de ${total} criterios satisfechos`,
    against: 'En contra',
    unclear: 'Poco claros',
    yes: 'Sí',
  },
};

/**
 * A cell as text: quotes doubled, and one that a spreadsheet would run as a formula (=, +, -, @, even after
 * spaces, or a tab or carriage return first) starts with an apostrophe.
 */
export function csvCell(value: string): string {
  const safe = /^\s*[=+\-@]|^[\t\r]/.test(value) ? `'${value}` : value;
  return `"${safe.replaceAll('"', '""')}"`;
}

function outcomeOf(c: CriterionVerdict): Outcome {
  const ok = satisfied(c.type as CriterionType, c.verdict);
  if (ok === undefined) return 'unclear';
  return ok ? 'satisfied' : isCritical(c.type as CriterionType) ? 'failedCritical' : 'failed';
}

/** What each verdict means, for a screening that wrote no explanation of its own (the offline one writes none). */
function explanationFromCriteria(r: CsvResult, l: Labels): string {
  const against = r.criteria.filter((c) => ['failed', 'failedCritical'].includes(outcomeOf(c))).map((c) => c.definition);
  const unclear = r.criteria.filter((c) => outcomeOf(c) === 'unclear').map((c) => c.definition);
  return [
    `${l.pre[r.preEvaluation] ?? r.preEvaluation}: ${l.summary(r.met, r.total)}.`,
    against.length ? `${l.against}: ${against.join('; ')}.` : '',
    unclear.length ? `${l.unclear}: ${unclear.join('; ')}.` : '',
  ]
    .filter(Boolean)
    .join(' ');
}

export type CsvResult = {
  patient: string;
  preEvaluation: string;
  met: number;
  total: number;
  /** How likely this is the trial's patient, 0–100; null when screened before it was kept. */
  relevance: number | null;
  /** The screening's own status. */
  status: string;
  explanation: string;
  createdAt: Date;
  criteria: CriterionVerdict[];
  decision: string | null;
  note: string;
  /** The author's name; '' when their account was deleted; null when nobody decided. */
  decidedBy: string | null;
  decidedAt: Date | null;
  machineChanged: boolean;
};

export function resultsCsv(trialName: string, results: CsvResult[], language: Language): string {
  const l = LABELS[language] ?? LABELS.en;
  // Spreadsheets in Portugal, Germany and Spain expect semicolons, since the comma is their decimal mark.
  const sep = language === 'en' ? ',' : ';';
  const criteria = new Map<string, string>();
  for (const r of results) for (const c of r.criteria) if (!criteria.has(c.criterion_id)) criteria.set(c.criterion_id, c.definition);
  const rows = [
    [...l.head, ...[...criteria.values()].flatMap((definition) => l.criterion.map((part) => `${definition} (${part})`))],
    ...results.map((r) => {
      const byId = new Map(r.criteria.map((c) => [c.criterion_id, c]));
      return [
        r.patient,
        trialName,
        l.pre[r.preEvaluation] ?? r.preEvaluation,
        `${r.met}/${r.total}`,
        r.relevance === null ? '' : String(r.relevance),
        l.status[r.status] ?? r.status,
        r.explanation.trim() || explanationFromCriteria(r, l),
        r.createdAt.toISOString(),
        r.decision ? (l.status[r.decision] ?? r.decision) : '',
        r.note,
        r.decidedBy ?? '',
        r.decidedAt?.toISOString() ?? '',
        r.machineChanged ? l.yes : '',
        ...[...criteria.keys()].flatMap((id) => {
          const c = byId.get(id);
          return c
            ? [l.verdict[c.verdict], c.explanation ? `${l.outcome[outcomeOf(c)]}: ${c.explanation}` : l.outcome[outcomeOf(c)], c.evidence]
            : ['', '', ''];
        }),
      ];
    }),
  ];
  // The byte-order mark makes spreadsheets read the accents as UTF-8.
  return '\uFEFF' + rows.map((row) => row.map(csvCell).join(sep)).join('\r\n') + '\r\n';
}
