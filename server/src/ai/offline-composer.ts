/**
 * The offline composer, the default when no AI engine is configured: it writes each document from the
 * consultation's own sentences placed by the clinical structurer (structurer/structure.ts) in the document's
 * sections, the facts read from them (measurements, medicines, allergies, follow-up, sick leave, referral:
 * structurer/facts.ts) and the clinician's notes data, which wins where both say something. It says plainly
 * that no AI wrote it, leaves a marked blank wherever a fact is missing, and invents nothing.
 */
import { hasUncertainWords } from '../../../contract/uncertain-words.js';
import { formatDocumentDate } from '../../../contract/document-date.js';
import type { Language } from '../../../contract/constants.js';
import { namesClinicalThing } from '../clinical/clinical-words.js';
import { transcriptLanguage } from '../clinical/language.js';
import { fold } from '../clinical/text.js';
import { readMeasurements, type Measure, type ValueToCheck } from '../clinical/measurements.js';
import { OPENING_QUESTION } from './structurer/cues.js';
import { readEditedNotes } from './structurer/edited-notes.js';
import { allergiesIn, followUpIn, medicinesIn, referralIn, sickLeaveIn } from './structurer/facts.js';
import { structure, utterances, type NoteSentence, type Section } from './structurer/structure.js';
import { withoutFillers } from '../clinical/fillers.js';
import { digitsForSpokenNumbers } from '../clinical/units.js';
import { applyTextCommand } from './structurer/text-commands.js';
import type { DocumentRequest, NotesData, TextGenerator } from './text-generator.js';

type L = Record<Language, string>;

export const COMPOSER_LABEL: L = {
  pt: '_Documento montado sem IA a partir dos seus dados e da transcrição. Reveja-o antes de o usar._',
  en: '_Assembled without AI from your inputs and the transcript. Review it before you use it._',
  de: '_Ohne KI aus Ihren Angaben und der Transkription zusammengestellt. Prüfen Sie es vor der Verwendung._',
  es: '_Documento montado sin IA a partir de sus datos y de la transcripción. Revíselo antes de usarlo._',
};

/** A change request the composer cannot apply without a model: nothing is written. */
export class ChangeNotApplied extends Error {
  constructor() {
    super('This change cannot be applied without an AI engine');
  }
}

/** What a note says when the patient answered that they have no allergies. */
export const NO_KNOWN_ALLERGIES: L = { pt: 'sem alergias conhecidas', en: 'no known allergies', de: 'keine bekannten Allergien', es: 'sin alergias conocidas' };

/** What stands where a fact is missing: visible, and easy to find and fill. */
export const BLANK: L = { pt: '[a preencher]', en: '[to be completed]', de: '[auszufüllen]', es: '[a completar]' };

const T = {
  title: {
    consultation_notes: { pt: 'Notas da consulta', en: 'Consultation notes', de: 'Konsultationsnotizen', es: 'Notas de la consulta' },
    clinical_summary: { pt: 'Resumo clínico', en: 'Clinical summary', de: 'Klinische Zusammenfassung', es: 'Resumen clínico' },
    sick_leave_certificate: {
      pt: 'Certificado de incapacidade temporária',
      en: 'Sick-leave certificate',
      de: 'Arbeitsunfähigkeitsbescheinigung',
      es: 'Certificado de baja laboral',
    },
    referral_letter: { pt: 'Carta de referenciação', en: 'Referral letter', de: 'Überweisungsbrief', es: 'Carta de derivación' },
    dictation: { pt: 'Ditado', en: 'Dictation', de: 'Diktat', es: 'Dictado' },
    report: { pt: 'Relatório clínico', en: 'Clinical report', de: 'Klinischer Bericht', es: 'Informe clínico' },
    patient_summary: {
      pt: 'Resumo da sua consulta',
      en: 'Summary of your consultation',
      de: 'Zusammenfassung Ihres Arztbesuchs',
      es: 'Resumen de su consulta',
    },
  } as Record<string, L>,
  date: { pt: 'Data', en: 'Date', de: 'Datum', es: 'Fecha' },
  clinician: { pt: 'Médico(a)', en: 'Clinician', de: 'Ärztin/Arzt', es: 'Médico/a' },
  subjective: { pt: 'Subjetivo', en: 'Subjective', de: 'Subjektiv', es: 'Subjetivo' },
  objective: { pt: 'Objetivo', en: 'Objective', de: 'Objektiv', es: 'Objetivo' },
  assessment: { pt: 'Avaliação', en: 'Assessment', de: 'Beurteilung', es: 'Evaluación' },
  plan: { pt: 'Plano', en: 'Plan', de: 'Plan', es: 'Plan' },
  transcript: {
    pt: 'O que foi dito na consulta',
    en: 'What was said in the consultation',
    de: 'Gesprochenes in der Konsultation',
    es: 'Lo dicho en la consulta',
  },
  reason: { pt: 'Motivo', en: 'Reason', de: 'Anlass', es: 'Motivo' },
  history: {
    pt: 'Antecedentes / consulta anterior',
    en: 'History / previous consultation',
    de: 'Vorgeschichte / letzte Konsultation',
    es: 'Antecedentes / consulta anterior',
  },
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
  presenting: { pt: 'Motivo da consulta', en: 'Presenting complaint', de: 'Vorstellungsgrund', es: 'Motivo de consulta' },
  allergies: { pt: 'Alergias', en: 'Allergies', de: 'Allergien', es: 'Alergias' },
  heartrate: { pt: 'Frequência cardíaca', en: 'Heart rate', de: 'Herzfrequenz', es: 'Frecuencia cardiaca' },
  temperature: { pt: 'Temperatura', en: 'Temperature', de: 'Temperatur', es: 'Temperatura' },
  saturation: { pt: 'Saturação de O₂', en: 'O₂ saturation', de: 'O₂-Sättigung', es: 'Saturación de O₂' },
  weight: { pt: 'Peso', en: 'Weight', de: 'Gewicht', es: 'Peso' },
  tests: { pt: 'Exames pedidos e plano', en: 'Tests and plan', de: 'Veranlasste Untersuchungen und Plan', es: 'Pruebas solicitadas y plan' },
} satisfies Record<string, L | Record<string, L>>;

/** The patient summary's own words: addressed to the patient, in everyday language. */
const P = {
  intro: {
    pt: 'Este é um resumo da sua consulta. Guarde-o e traga-o na próxima consulta.',
    en: 'This is a summary of your consultation. Keep it and bring it to your next appointment.',
    de: 'Dies ist eine Zusammenfassung Ihres Arztbesuchs. Bewahren Sie sie auf und bringen Sie sie zum nächsten Termin mit.',
    es: 'Este es un resumen de su consulta. Consérvelo y tráigalo a su próxima cita.',
  },
  asSaid: {
    pt: 'As frases abaixo estão como foram ditas na consulta ({language}); peça ao seu médico que lhas explique se precisar.',
    en: 'The sentences below are as they were said in the consultation ({language}); ask your clinician to explain them if you need to.',
    de: 'Die Sätze unten stehen so, wie sie im Gespräch gesagt wurden ({language}); bitten Sie Ihre Ärztin oder Ihren Arzt, sie zu erklären, wenn nötig.',
    es: 'Las frases de abajo están tal como se dijeron en la consulta ({language}); pida a su médico que se las explique si lo necesita.',
  },
  why: { pt: 'Porque veio', en: 'Why you came', de: 'Warum Sie gekommen sind', es: 'Por qué vino' },
  found: { pt: 'O que encontrámos', en: 'What we found', de: 'Was wir festgestellt haben', es: 'Lo que hemos encontrado' },
  todo: { pt: 'O que fazer agora', en: 'What to do now', de: 'Was Sie jetzt tun sollten', es: 'Qué hacer ahora' },
  medicines: { pt: 'Os seus medicamentos', en: 'Your medicines', de: 'Ihre Medikamente', es: 'Sus medicamentos' },
  next: { pt: 'A sua próxima consulta', en: 'Your next appointment', de: 'Ihr nächster Termin', es: 'Su próxima cita' },
  help: { pt: 'Quando procurar ajuda mais cedo', en: 'When to get help sooner', de: 'Wann Sie früher Hilfe holen sollten', es: 'Cuándo pedir ayuda antes' },
  helpText: {
    pt: 'Se piorar, se surgirem sintomas novos ou se estiver preocupado(a), contacte o seu centro de saúde ou médico. Numa emergência, ligue 112.',
    en: 'If you get worse, have new symptoms or are worried, contact your practice or clinician. In an emergency, call the emergency number.',
    de: 'Wenn es Ihnen schlechter geht, neue Beschwerden auftreten oder Sie sich Sorgen machen, wenden Sie sich an Ihre Praxis. Im Notfall rufen Sie 112 an.',
    es: 'Si empeora, tiene síntomas nuevos o está preocupado/a, contacte con su centro de salud o su médico. En caso de urgencia, llame al 112.',
  },
  languageNames: {
    pt: { pt: 'português', en: 'inglês', de: 'alemão', es: 'espanhol' },
    en: { pt: 'Portuguese', en: 'English', de: 'German', es: 'Spanish' },
    de: { pt: 'Portugiesisch', en: 'Englisch', de: 'Deutsch', es: 'Spanisch' },
    es: { pt: 'portugués', en: 'inglés', de: 'alemán', es: 'español' },
  } as Record<Language, L>,
};

/** Hesitations a dictation loses when cleaned, per language (whole words only). */
const FILLERS: L = { pt: 'hum|hmm|eh|ah|uh|hã|pronto', en: 'um|uh|er|erm|hmm|ah', de: 'äh|ähm|hm|hmm|öh', es: 'eh|em|hmm|este|ehh' };

export function cleanDictation(text: string, language: Language): string {
  return text
    .replace(new RegExp(`(^|\\s)(${FILLERS[language]})(?=[\\s,.;!?]|$)`, 'giu'), '$1')
    .replace(/\s{2,}/g, ' ')
    .replace(/\s+([,.;!?])/g, '$1')
    .trim();
}

/** A document's date as it is written in the language ('22 de novembro de 2026'). */
export { formatDocumentDate };

/** Measurements in the order a note lists them, with the notes data field that holds each (when the spec has one). */
const MEASURE_ORDER: { measure: Measure; field?: keyof NotesData; label: L }[] = [
  { measure: 'bloodpressure', field: 'bloodpressure', label: T.bloodpressure },
  { measure: 'heartrate', label: T.heartrate },
  { measure: 'temperature', label: T.temperature },
  { measure: 'saturation', label: T.saturation },
  { measure: 'weight', label: T.weight },
  { measure: 'bmi', field: 'weightmassindex', label: T.weightmassindex },
  { measure: 'hba1c', field: 'hemoglobinac', label: T.hemoglobinac },
  { measure: 'cholesterol', field: 'colesterol', label: T.colesterol },
];

export type SuggestedInput = { processor_input_id: keyof NotesData; value: string; source: string };

/**
 * The notes data a consultation's transcript already says, for the clinician to take into the form: each
 * measurement into its field (the vitals the spec has no field for into the physical examination, labelled),
 * the medicines named into the medication. Each with the sentence it was heard in; nothing is saved by this.
 */
export function suggestedInputs(transcript: string, language: Language): SuggestedInput[] {
  const reading = transcriptLanguage(transcript) ?? language;
  const texts = certainOnly(structure(transcript, reading).map((s) => s.text));
  const measured = readMeasurements(texts, reading).values;
  const out: SuggestedInput[] = [];
  const exam: { line: string; source: string }[] = [];
  for (const { measure, field, label } of MEASURE_ORDER) {
    const fact = measured[measure];
    if (!fact) continue;
    if (field) out.push({ processor_input_id: field, value: fact.value, source: fact.source });
    else exam.push({ line: `${label[language]}: ${fact.value}`, source: fact.source });
  }
  if (exam.length)
    out.push({ processor_input_id: 'physical_exam', value: exam.map((e) => e.line).join('; '), source: [...new Set(exam.map((e) => e.source))].join(' ') });
  const medicines = medicinesIn(texts, reading);
  if (medicines.length)
    out.push({
      processor_input_id: 'medication',
      value: medicines.map((m) => m.value).join('; '),
      source: [...new Set(medicines.map((m) => m.source))].join(' '),
    });
  return out;
}

/**
 * The sentences values may be read from: one with a word the speech engine was not sure of gives no value, no
 * medicine and no date (it stays in the note as it was heard, marked); an empty string keeps the others' places.
 */
const certainOnly = (texts: string[]) => texts.map((t) => (hasUncertainWords(t) || HALF_MARK.test(t) ? '' : t));
/** Half of a mark, should a rewrite have cut one: the sentence is as uncertain as the whole mark was. */
const HALF_MARK = /\[[^\]]*$|^[^[]*\?\]/m;

/** What a consultation says, read once for every document written from it. */
type Consultation = {
  sentences: NoteSentence[];
  /** Why the patient came, in their words: the answer to the opening question, else the first complaint. */
  reason?: string;
  said: (section: Section) => string[];
  measurements: string[];
  medicines: string[];
  prescribed: string[];
  allergies?: string;
  followUp?: string;
  sickLeaveDays?: number;
  referral?: string;
};

/** A value to check, marked where it stands in its sentence, in the clinician's language. */
export const CHECK_VALUE: L = { pt: '[verificar valor]', en: '[check value]', de: '[Wert prüfen]', es: '[verificar valor]' };

function markChecks(sentences: NoteSentence[], checks: ValueToCheck[], language: Language): NoteSentence[] {
  const bySentence = new Map<number, ValueToCheck[]>();
  for (const c of checks) {
    const list = bySentence.get(c.sentence);
    if (list) list.push(c);
    else bySentence.set(c.sentence, [c]);
  }
  return sentences.map((s, i) => {
    const here = bySentence.get(i);
    if (!here) return s;
    // Marked right after the value it checks, by its position (the same number may be said before as something
    // else: 'aspirin 300 mg, and pulse is 300'), in one pass over the sentence.
    const pieces: string[] = [];
    let from = 0;
    for (const c of [...here].sort((a, b) => a.end - b.end)) {
      pieces.push(s.text.slice(from, c.end), ` ${CHECK_VALUE[language]}`);
      from = c.end;
    }
    pieces.push(s.text.slice(from));
    return { ...s, text: pieces.join('') };
  });
}

/**
 * What a consultation says, read in the transcript's own language (`reading`: a consultation in English is read
 * as English whatever the clinician's interface says); labels are written in the clinician's language (`lang`).
 */
function read(req: DocumentRequest, reading: Language): Consultation {
  const lang = req.language;
  const structured = structure(req.transcript, reading);
  const texts = certainOnly(structured.map((s) => s.text));
  const { values: measured, checks } = readMeasurements(texts, reading);
  const sentences = markChecks(structured, checks, lang);
  const v = (key: keyof NotesData) => req.data[key]?.trim() || undefined;
  // The clinician's notes data wins over what was heard; each is said once.
  const measurements = MEASURE_ORDER.flatMap(({ measure, field, label }) => {
    const value = (field && v(field)) || measured[measure]?.value;
    return value ? [`- ${label[lang]}: ${value}`] : [];
  });
  const allergies = allergiesIn(texts, reading);
  return {
    sentences,
    reason: reasonForVisit(sentences, reading),
    said: (section) => sentences.filter((s) => s.section === section).map((s) => s.text),
    measurements,
    medicines: medicinesIn(texts, reading).map((m) => m.value),
    prescribed: medicinesIn(certainOnly(structured.filter((s) => s.section === 'plan').map((s) => s.text)), reading).map((m) => m.value),
    allergies: allergies && (allergies.value === 'none' ? NO_KNOWN_ALLERGIES[lang] : allergies.value),
    // Read from every sentence said: 'See you in 6 weeks' is a courtesy to the note, and a follow-up to this.
    followUp: followUpIn(certainOnly(utterances(req.transcript, reading).map((u) => digitsForSpokenNumbers(withoutFillers(u.text, reading), reading))), reading)
      ?.value,
    sickLeaveDays: sickLeaveIn(texts)?.value,
    referral: referralIn(texts, reading)?.value,
  };
}

/** The question that opens a consultation, whose answer is why the patient came (folded). */
const OPENING = new RegExp(`${OPENING_QUESTION.source}[^?]*\\?\\s*`);

function reasonForVisit(sentences: NoteSentence[], reading: Language): string | undefined {
  const history = sentences.filter((s) => s.section === 'subjective');
  // The note keeps the answer to the opening question without the question, marked as such.
  const answered = history.find((s) => s.reason);
  if (answered) return answered.text;
  for (const s of history) {
    const m = fold(s.text).match(OPENING);
    const answer = m && m.index !== undefined ? s.text.slice(m.index + m[0].length).trim() : '';
    if (answer.split(/\s+/).length >= 2) return answer.replace(/^\p{Ll}/u, (c) => c.toUpperCase());
  }
  // Else the first complaint said as a statement, not a question.
  return history.find((s) => !s.text.includes('?') && s.text.split(/\s+/).length >= 4 && namesClinicalThing(fold(s.text), reading))?.text;
}

/** What the clinician's corrected notes say, read as the consultation: they are the source once corrected. */
function fromEditedNotes(notes: string, reading: Language): Consultation {
  const e = readEditedNotes(notes);
  const texts = certainOnly(e.sentences.map((s) => s.text));
  const medicines = e.medication
    ? e.medication
        .split(/;\s*/)
        .map((m) => m.trim())
        .filter(Boolean)
    : medicinesIn(texts, reading).map((m) => m.value);
  return {
    sentences: e.sentences,
    reason: reasonForVisit(e.sentences, reading),
    said: (section) => e.sentences.filter((s) => s.section === section).map((s) => s.text),
    measurements: e.measurements,
    medicines,
    prescribed: medicines,
    allergies: e.allergies,
    followUp: e.followUp ?? followUpIn(texts, reading)?.value,
    sickLeaveDays: sickLeaveIn(texts)?.value,
    referral: referralIn(texts, reading)?.value,
  };
}

const bullets = (lines: (string | undefined)[]) => lines.filter((l): l is string => !!l?.trim()).map((l) => (l.startsWith('- ') ? l : `- ${l}`));

function compose(req: DocumentRequest): string {
  const lang = req.language;
  // What the document's own words are written in; the consultation's sentences stay in `lang`, as they were said.
  const out = req.outputLanguage ?? lang;
  const blank = BLANK[out];
  const reading = transcriptLanguage(req.editedNotes ?? req.transcript) ?? lang;
  // Corrected notes already hold the notes data the clinician gave (and may have corrected it): they alone speak.
  const v = (key: keyof NotesData) => (req.editedNotes ? undefined : req.data[key]?.trim() || undefined);
  const c = req.editedNotes ? fromEditedNotes(req.editedNotes, reading) : read(req, reading);
  const heading = (l: L) => `## ${l[out]}`;
  /** A section's lines, or the marked blank when there are none. */
  const section = (lines: (string | undefined)[]) => {
    const kept = bullets(lines);
    return kept.length ? kept : [blank];
  };
  const allergies = c.allergies ? `**${T.allergies[lang]}:** ${c.allergies}` : undefined;
  const medication = v('medication') ?? (c.prescribed.length ? c.prescribed.join('; ') : undefined);
  const allMedication = v('medication') ?? (c.medicines.length ? c.medicines.join('; ') : undefined);
  const followUp = v('next_consultation_date') ?? c.followUp;
  const header = [
    `# ${(T.title[req.documentKind] ?? T.title.consultation_notes!)[out]}`,
    COMPOSER_LABEL[out],
    '',
    `**${T.date[out]}:** ${formatDocumentDate(req.date, out)}`,
    '',
    `**${T.clinician[out]}:** ${req.clinician.name}`,
    '',
  ];
  const assessment = [v('extra_text'), ...c.said('assessment')];
  const examination = [v('physical_exam'), ...c.said('objective')];

  let body: string[];
  switch (req.documentKind) {
    case 'clinical_summary':
      body = [
        heading(T.history),
        or(v('previous_consultation'), blank),
        '',
        heading(T.presenting),
        ...section([v('text'), ...c.said('subjective')]),
        ...(allergies ? ['', allergies] : []),
        '',
        heading(T.exam),
        ...section(examination),
        ...(c.measurements.length ? ['', ...c.measurements] : []),
        '',
        heading(T.exams),
        or(v('exams_data'), blank),
        '',
        heading(T.assessment),
        ...section(assessment),
        '',
        heading(T.plan),
        ...section(c.said('plan')),
        '',
        heading(T.medication),
        or(allMedication, blank),
        '',
        heading(T.followUp),
        or(followUp, blank),
      ];
      break;
    case 'sick_leave_certificate': {
      // The period runs from the consultation's date for as long as was said ('sick note for a week').
      const from = c.sickLeaveDays ? formatDocumentDate(req.date, lang) : blank;
      const to = c.sickLeaveDays ? formatDocumentDate(new Date(req.date.getTime() + (c.sickLeaveDays - 1) * 86_400_000), lang) : blank;
      const diagnosis = [v('extra_text'), ...c.said('assessment')].filter(Boolean).join(' ');
      body = [
        `**${T.patient[lang]}:** ${blank}`,
        '',
        T.certify[lang],
        '',
        `**${T.period[lang]}:** ${T.from[lang]} ${from} ${T.to[lang]} ${to}`,
        '',
        `**${T.diagnosis[lang]}:** ${diagnosis || blank}`,
        '',
        `${T.signature[lang]}: ______________________`,
      ];
      break;
    }
    case 'referral_letter':
      body = [
        `**${T.recipient[lang]}:** ${c.referral ?? blank}`,
        `**${T.patient[lang]}:** ${blank}`,
        '',
        T.greeting[lang],
        '',
        T.referring[lang],
        '',
        heading(T.reason),
        ...section([v('text'), ...assessment, ...c.said('subjective')]),
        ...(allergies ? ['', allergies] : []),
        '',
        heading(T.exam),
        ...section(examination),
        ...(c.measurements.length ? ['', ...c.measurements] : []),
        '',
        heading(T.exams),
        or(v('exams_data'), blank),
        '',
        heading(T.medication),
        or(allMedication, blank),
        '',
        T.regards[lang],
        req.clinician.name,
      ];
      break;
    case 'patient_summary': {
      // No translation without a model: in another language than the consultation's, the patient reads the
      // sentences as they were said, and is told so.
      const asSaid = out !== reading ? ['', `_${P.asSaid[out].replace('{language}', P.languageNames[out][reading])}_`] : [];
      const medicines = (medication ?? '')
        .split(/;\s*|\n+/)
        .map((m) => m.trim())
        .filter(Boolean);
      body = [
        P.intro[out],
        ...asSaid,
        '',
        // The reason in a line or two: the patient knows their story, the summary is for what comes next.
        heading(P.why),
        ...section([v('text'), c.reason]),
        '',
        heading(P.found),
        ...section(assessment),
        '',
        heading(P.todo),
        ...section(c.said('plan')),
        '',
        heading(P.medicines),
        ...section(medicines),
        '',
        heading(P.next),
        or(followUp, blank),
        '',
        heading(P.help),
        P.helpText[out],
      ];
      break;
    }
    case 'dictation':
      body = [req.transcript.trim() ? cleanDictation(req.transcript.trim(), lang) : blank];
      break;
    case 'report':
      body = [
        heading(T.findings),
        ...section(examination),
        ...(c.measurements.length ? ['', ...c.measurements] : []),
        '',
        heading(T.exams),
        or(v('exams_data'), blank),
        '',
        heading(T.conclusion),
        ...section(assessment),
      ];
      break;
    default:
      body = [
        heading(T.subjective),
        ...section([v('text'), ...c.said('subjective')]),
        ...(allergies ? ['', allergies] : []),
        ...(v('previous_consultation') ? ['', `**${T.history[lang]}:** ${v('previous_consultation')}`] : []),
        '',
        heading(T.objective),
        ...section([...c.measurements, v('physical_exam'), v('exams_data'), ...c.said('objective')]),
        '',
        heading(T.assessment),
        ...section(assessment),
        '',
        heading(T.plan),
        ...bullets(c.said('plan')),
        `- ${T.medication[lang]}: ${or(medication, blank)}`,
        `- ${T.followUp[lang]}: ${or(followUp, blank)}`,
      ];
  }
  return [...header, ...body].join('\n').trim() + '\n';
}

const or = (value: string | undefined, blank: string) => value ?? blank;

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
    // Simple requests are applied as asked; any other needs a language model. It is never written into the
    // document (it would reach the copy, the PDF and the record system): the request is refused before a version
    // is made (generated_documents/service.ts), and failing here covers an engine switched in between.
    const applied = applyTextCommand(req.change.previousText, req.change.instructions, req.language);
    if (applied !== undefined) return applied;
    throw new ChangeNotApplied();
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
    date: formatDocumentDate(req.date, req.language),
  };
  return `${COMPOSER_LABEL[req.language]}\n\n${fillTemplate(req.template ?? '', values, req.language).trim()}\n`;
}

export const offlineComposer: TextGenerator = {
  info: { engine: 'composer', usesAi: false },
  async *write(req) {
    yield composeDocument(req);
  },
};
