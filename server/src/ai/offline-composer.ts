/**
 * The offline composer, the default when no AI engine is configured: it fills each document's template with
 * the clinician's structured inputs and the transcript, says plainly that no AI wrote it, and leaves a marked
 * blank wherever a fact is missing. It invents nothing.
 */
import type { Language } from '../../../contract/constants.js';
import type { DocumentRequest, NotesData, TextGenerator } from './text-generator.js';

type L = Record<Language, string>;

export const COMPOSER_LABEL: L = {
  pt: '_Documento montado sem IA a partir dos seus dados e da transcrição. Reveja-o antes de o usar._',
  en: '_Assembled without AI from your inputs and the transcript. Review it before you use it._',
  de: '_Ohne KI aus Ihren Angaben und der Transkription zusammengestellt. Prüfen Sie es vor der Verwendung._',
  es: '_Documento montado sin IA a partir de sus datos y de la transcripción. Revíselo antes de usarlo._',
};

/** What stands where a fact is missing: visible, and easy to find and fill. */
export const BLANK: L = { pt: '[a preencher]', en: '[to be completed]', de: '[auszufüllen]', es: '[a completar]' };

const T = {
  title: {
    consultation_notes: { pt: 'Notas da consulta', en: 'Consultation notes', de: 'Konsultationsnotizen', es: 'Notas de la consulta' },
    clinical_summary: { pt: 'Resumo clínico', en: 'Clinical summary', de: 'Klinische Zusammenfassung', es: 'Resumen clínico' },
    sick_leave_certificate: { pt: 'Certificado de incapacidade temporária', en: 'Sick-leave certificate', de: 'Arbeitsunfähigkeitsbescheinigung', es: 'Certificado de baja laboral' },
    referral_letter: { pt: 'Carta de referenciação', en: 'Referral letter', de: 'Überweisungsbrief', es: 'Carta de derivación' },
    dictation: { pt: 'Ditado', en: 'Dictation', de: 'Diktat', es: 'Dictado' },
    report: { pt: 'Relatório clínico', en: 'Clinical report', de: 'Klinischer Bericht', es: 'Informe clínico' },
  } as Record<string, L>,
  date: { pt: 'Data', en: 'Date', de: 'Datum', es: 'Fecha' },
  clinician: { pt: 'Médico(a)', en: 'Clinician', de: 'Ärztin/Arzt', es: 'Médico/a' },
  subjective: { pt: 'Subjetivo', en: 'Subjective', de: 'Subjektiv', es: 'Subjetivo' },
  objective: { pt: 'Objetivo', en: 'Objective', de: 'Objektiv', es: 'Objetivo' },
  assessment: { pt: 'Avaliação', en: 'Assessment', de: 'Beurteilung', es: 'Evaluación' },
  plan: { pt: 'Plano', en: 'Plan', de: 'Plan', es: 'Plan' },
  transcript: { pt: 'O que foi dito na consulta', en: 'What was said in the consultation', de: 'Gesprochenes in der Konsultation', es: 'Lo dicho en la consulta' },
  reason: { pt: 'Motivo', en: 'Reason', de: 'Anlass', es: 'Motivo' },
  history: { pt: 'Antecedentes / consulta anterior', en: 'History / previous consultation', de: 'Vorgeschichte / letzte Konsultation', es: 'Antecedentes / consulta anterior' },
  exam: { pt: 'Exame físico', en: 'Physical examination', de: 'Körperliche Untersuchung', es: 'Exploración física' },
  exams: { pt: 'Exames complementares', en: 'Tests and results', de: 'Befunde', es: 'Pruebas complementarias' },
  vitals: { pt: 'Parâmetros', en: 'Measurements', de: 'Messwerte', es: 'Parámetros' },
  bloodpressure: { pt: 'Tensão arterial', en: 'Blood pressure', de: 'Blutdruck', es: 'Presión arterial' },
  hemoglobinac: { pt: 'HbA1c', en: 'HbA1c', de: 'HbA1c', es: 'HbA1c' },
  colesterol: { pt: 'Colesterol', en: 'Cholesterol', de: 'Cholesterin', es: 'Colesterol' },
  weightmassindex: { pt: 'IMC', en: 'BMI', de: 'BMI', es: 'IMC' },
  medication: { pt: 'Medicação', en: 'Medication', de: 'Medikation', es: 'Medicación' },
  followUp: { pt: 'Próxima consulta', en: 'Next consultation', de: 'Nächste Konsultation', es: 'Próxima consulta' },
  notes: { pt: 'Notas', en: 'Notes', de: 'Notizen', es: 'Notas' },
  recipient: { pt: 'Destinatário', en: 'To', de: 'An', es: 'Destinatario' },
  patient: { pt: 'Doente', en: 'Patient', de: 'Patient/in', es: 'Paciente' },
  certify: {
    pt: 'Certifico que o(a) doente acima identificado(a) se encontra temporariamente incapaz para o trabalho.',
    en: 'I certify that the patient named above is temporarily unfit for work.',
    de: 'Hiermit bescheinige ich, dass die oben genannte Person vorübergehend arbeitsunfähig ist.',
    es: 'Certifico que el/la paciente arriba identificado/a se encuentra temporalmente incapacitado/a para trabajar.',
  },
  period: { pt: 'Período', en: 'Period', de: 'Zeitraum', es: 'Periodo' },
  from: { pt: 'de', en: 'from', de: 'vom', es: 'del' },
  to: { pt: 'a', en: 'to', de: 'bis', es: 'al' },
  diagnosis: { pt: 'Diagnóstico', en: 'Diagnosis', de: 'Diagnose', es: 'Diagnóstico' },
  findings: { pt: 'Achados', en: 'Findings', de: 'Befunde', es: 'Hallazgos' },
  conclusion: { pt: 'Conclusão', en: 'Conclusion', de: 'Schlussfolgerung', es: 'Conclusión' },
  signature: { pt: 'Assinatura', en: 'Signature', de: 'Unterschrift', es: 'Firma' },
  greeting: { pt: 'Caro(a) colega,', en: 'Dear colleague,', de: 'Sehr geehrte Kollegin, sehr geehrter Kollege,', es: 'Estimado/a colega:' },
  referring: {
    pt: 'Refiro o(a) doente para a sua avaliação pelo motivo abaixo.',
    en: 'I am referring this patient to you for assessment for the reason below.',
    de: 'Ich überweise diese Person zur Abklärung aus dem unten genannten Grund.',
    es: 'Le derivo a este/a paciente para su valoración por el motivo indicado abajo.',
  },
  regards: { pt: 'Com os melhores cumprimentos,', en: 'Kind regards,', de: 'Mit freundlichen Grüßen', es: 'Atentamente,' },
  changes: {
    pt: 'Alterações pedidas (por aplicar: a IA não está configurada)',
    en: 'Changes requested (not applied: AI is not configured)',
    de: 'Gewünschte Änderungen (nicht angewendet: KI ist nicht eingerichtet)',
    es: 'Cambios solicitados (sin aplicar: la IA no está configurada)',
  },
} satisfies Record<string, L | Record<string, L>>;

/** Hesitations a dictation loses when cleaned, per language (whole words only). */
const FILLERS: L = { pt: 'hum|hmm|eh|ah|uh|hã|pronto', en: 'um|uh|er|erm|hmm|ah', de: 'äh|ähm|hm|hmm|öh', es: 'eh|em|hmm|este|ehh' };

export function cleanDictation(text: string, language: Language): string {
  return text
    .replace(new RegExp(`(^|\\s)(${FILLERS[language]})(?=[\\s,.;!?]|$)`, 'giu'), '$1')
    .replace(/\s{2,}/g, ' ')
    .replace(/\s+([,.;!?])/g, '$1')
    .trim();
}

function formatDate(d: Date, language: Language): string {
  return new Intl.DateTimeFormat({ pt: 'pt-PT', en: 'en-GB', de: 'de-DE', es: 'es-ES' }[language], { dateStyle: 'long' }).format(d);
}

function compose(req: DocumentRequest): string {
  const lang = req.language;
  const blank = BLANK[lang];
  const v = (key: keyof NotesData) => req.data[key]?.trim() || undefined;
  const or = (value: string | undefined) => value ?? blank;
  const transcript = req.transcript.trim() || undefined;
  const heading = (l: L) => `## ${l[lang]}`;
  const vitals = (['bloodpressure', 'hemoglobinac', 'colesterol', 'weightmassindex'] as const)
    .filter((k) => v(k))
    .map((k) => `- ${T[k][lang]}: ${v(k)}`)
    .join('\n');
  const header = [`# ${(T.title[req.documentKind] ?? T.title.consultation_notes!)[lang]}`, COMPOSER_LABEL[lang], '', `**${T.date[lang]}:** ${formatDate(req.date, lang)}`, `**${T.clinician[lang]}:** ${req.clinician.name}`, ''];

  let body: string[];
  switch (req.documentKind) {
    case 'clinical_summary':
      body = [heading(T.history), or(v('previous_consultation')), '', heading(T.transcript), or(transcript), '', heading(T.exam), or(v('physical_exam')), '', heading(T.exams), or(v('exams_data')), ...(vitals ? ['', heading(T.vitals), vitals] : []), '', heading(T.medication), or(v('medication')), '', heading(T.followUp), or(v('next_consultation_date'))];
      break;
    case 'sick_leave_certificate':
      body = [`**${T.patient[lang]}:** ${blank}`, '', T.certify[lang], '', `**${T.period[lang]}:** ${T.from[lang]} ${blank} ${T.to[lang]} ${blank}`, '', `**${T.diagnosis[lang]}:** ${or(v('extra_text'))}`, '', `${T.signature[lang]}: ______________________`];
      break;
    case 'referral_letter':
      body = [`**${T.recipient[lang]}:** ${blank}`, `**${T.patient[lang]}:** ${blank}`, '', T.greeting[lang], '', T.referring[lang], '', heading(T.reason), or(v('text') ?? transcript), '', heading(T.exam), or(v('physical_exam')), '', heading(T.exams), or(v('exams_data')), '', heading(T.medication), or(v('medication')), '', T.regards[lang], req.clinician.name];
      break;
    case 'dictation':
      body = [transcript ? cleanDictation(transcript, lang) : blank];
      break;
    case 'report':
      body = [heading(T.findings), or(transcript), '', heading(T.exams), or(v('exams_data')), '', heading(T.conclusion), or(v('extra_text'))];
      break;
    default:
      body = [
        heading(T.subjective),
        or(v('text') ?? transcript),
        ...(v('previous_consultation') ? ['', `**${T.history[lang]}:** ${v('previous_consultation')}`] : []),
        '',
        heading(T.objective),
        or([v('physical_exam'), v('exams_data'), vitals || undefined].filter(Boolean).join('\n\n') || undefined),
        '',
        heading(T.assessment),
        or(v('extra_text')),
        '',
        heading(T.plan),
        `- ${T.medication[lang]}: ${or(v('medication'))}`,
        `- ${T.followUp[lang]}: ${or(v('next_consultation_date'))}`,
      ];
  }
  return [...header, ...body].join('\n').trim() + '\n';
}

/** Fills `{{name}}` placeholders of a custom template; a missing value becomes the marked blank. */
export function fillTemplate(template: string, values: Record<string, string>, language: Language): string {
  return template.replace(/\{\{\s*([\w.-]+)\s*\}\}/g, (_m, key: string) => values[key]?.trim() || BLANK[language]);
}

export function composeDocument(req: DocumentRequest): string {
  if (req.documentKind === 'custom') {
    const values: Record<string, string> = { ...(req.data as Record<string, string>), ...req.extraData, transcript: req.transcript };
    return `${COMPOSER_LABEL[req.language]}\n\n${fillTemplate(req.template ?? '', values, req.language)}`;
  }
  if (req.change) {
    // Instructions need a language model to be applied; without one they are kept, visibly, for the clinician.
    return `${req.change.previousText.trim()}\n\n## ${T.changes[req.language]}\n\n${req.change.instructions.trim()}\n`;
  }
  if (req.template) return composeFromTemplate(req);
  return compose(req);
}

/**
 * The clinician's own template for a standard document: its `{{field}}` placeholders take the notes data, the
 * transcript, the clinician and the date; anything else stays a marked blank. Written text in it is kept as is.
 */
function composeFromTemplate(req: DocumentRequest): string {
  const values: Record<string, string> = {
    ...(req.data as Record<string, string>),
    transcript: req.transcript,
    clinician: req.clinician.name,
    date: formatDate(req.date, req.language),
  };
  return `${COMPOSER_LABEL[req.language]}\n\n${fillTemplate(req.template ?? '', values, req.language).trim()}\n`;
}

export const offlineComposer: TextGenerator = {
  info: { engine: 'composer', usesAi: false },
  async *write(req) {
    yield composeDocument(req);
  },
};
