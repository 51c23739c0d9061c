/**
 * The consultation types offered to every clinician: assistants of three kinds, each with the inputs its
 * processors take and the documents that can be generated from it. Names are in the four interface languages.
 */
import type { Catalogue, Language } from '../../../../contract/constants.js';

type Localized = Record<Language, string>;

export type SelectableDocument = { id: string; name: Localized; description: Localized };
export type ProcessorInput = { id: string; name: Localized };
export type ConsultationType = {
  id: string;
  kind: 'note_taker' | 'dictaphone' | 'report';
  showTranscription: boolean;
  name: Localized;
  description: Localized;
  processorInputs: ProcessorInput[];
  /** The main document first; the others can be generated on demand. */
  documents: string[];
  /** The country catalogue it is listed in (spec §2 assistants catalogue); `international` is shown everywhere. */
  catalogue: Catalogue;
  /** Public, or test/experimental (private, custom assistants are per clinician). */
  section: 'public' | 'test';
};

export const CATALOGUE_NAMES: Record<Catalogue, Localized> = {
  international: { pt: 'Internacional', en: 'International', de: 'International', es: 'Internacional' },
  pt: { pt: 'Portugal', en: 'Portugal', de: 'Portugal', es: 'Portugal' },
  de: { pt: 'Alemanha', en: 'Germany', de: 'Deutschland', es: 'Alemania' },
  es: { pt: 'Espanha', en: 'Spain', de: 'Spanien', es: 'España' },
};

export const SELECTABLE_DOCUMENTS: Record<string, SelectableDocument> = {
  consultation_notes: {
    id: 'consultation_notes',
    name: { pt: 'Notas da consulta', en: 'Consultation notes', de: 'Konsultationsnotizen', es: 'Notas de la consulta' },
    description: {
      pt: 'Registo clínico da consulta em formato SOAP.',
      en: 'Clinical record of the consultation in SOAP form.',
      de: 'Klinische Dokumentation der Konsultation im SOAP-Format.',
      es: 'Registro clínico de la consulta en formato SOAP.',
    },
  },
  clinical_summary: {
    id: 'clinical_summary',
    name: { pt: 'Resumo clínico', en: 'Clinical summary', de: 'Klinische Zusammenfassung', es: 'Resumen clínico' },
    description: {
      pt: 'Resumo do caso para outro profissional ou para o processo.',
      en: 'Summary of the case for another clinician or the record.',
      de: 'Zusammenfassung des Falls für andere Behandelnde oder die Akte.',
      es: 'Resumen del caso para otro profesional o para la historia clínica.',
    },
  },
  sick_leave_certificate: {
    id: 'sick_leave_certificate',
    name: {
      pt: 'Certificado de incapacidade temporária',
      en: 'Sick-leave certificate',
      de: 'Arbeitsunfähigkeitsbescheinigung',
      es: 'Certificado de baja laboral',
    },
    description: {
      pt: 'Declaração de incapacidade para o trabalho com o período indicado.',
      en: 'Statement of unfitness for work for the stated period.',
      de: 'Bescheinigung der Arbeitsunfähigkeit für den angegebenen Zeitraum.',
      es: 'Declaración de incapacidad laboral para el periodo indicado.',
    },
  },
  referral_letter: {
    id: 'referral_letter',
    name: { pt: 'Carta de referenciação', en: 'Referral letter', de: 'Überweisungsbrief', es: 'Carta de derivación' },
    description: {
      pt: 'Carta a outro médico ou serviço com o motivo da referenciação.',
      en: 'Letter to another doctor or service with the reason for referral.',
      de: 'Brief an andere Ärztinnen, Ärzte oder Dienste mit dem Überweisungsgrund.',
      es: 'Carta a otro médico o servicio con el motivo de la derivación.',
    },
  },
  patient_summary: {
    id: 'patient_summary',
    name: { pt: 'Resumo para o doente', en: 'Patient summary', de: 'Zusammenfassung für Patienten', es: 'Resumen para el paciente' },
    description: {
      pt: 'Em linguagem simples, com o plano e a medicação, na língua do doente.',
      en: "In plain language, with the plan and the medication, in the patient's language.",
      de: 'In einfacher Sprache, mit Plan und Medikation, in der Sprache der Patientin oder des Patienten.',
      es: 'En lenguaje sencillo, con el plan y la medicación, en el idioma del paciente.',
    },
  },
  dictation: {
    id: 'dictation',
    name: { pt: 'Ditado', en: 'Dictation', de: 'Diktat', es: 'Dictado' },
    description: {
      pt: 'O texto ditado, limpo de hesitações.',
      en: 'The dictated text, cleaned of hesitations.',
      de: 'Der diktierte Text, ohne Zögerlaute.',
      es: 'El texto dictado, sin vacilaciones.',
    },
  },
  report: {
    id: 'report',
    name: { pt: 'Relatório', en: 'Report', de: 'Bericht', es: 'Informe' },
    description: {
      pt: 'Relatório clínico estruturado a partir do que foi dito.',
      en: 'Structured clinical report from what was said.',
      de: 'Strukturierter klinischer Bericht aus dem Gesagten.',
      es: 'Informe clínico estructurado a partir de lo dicho.',
    },
  },
};

const TEMPLATE_WORD: Localized = { pt: 'Modelo', en: 'Template', de: 'Vorlage', es: 'Plantilla' };

/**
 * Every document kind takes one processor input, its template: the clinician keeps personal templates for it and
 * chooses one per consultation (a user input whose value is the template's id).
 */
export const templateInputId = (documentId: string) => `${documentId}_template`;

export const PROCESSOR_INPUTS: (ProcessorInput & { documentId: string })[] = Object.values(SELECTABLE_DOCUMENTS).map((d) => ({
  id: templateInputId(d.id),
  documentId: d.id,
  name: Object.fromEntries(Object.entries(d.name).map(([lang, name]) => [lang, `${TEMPLATE_WORD[lang as Language]}: ${name}`])) as Localized,
}));

export const findProcessorInput = (id: string) => PROCESSOR_INPUTS.find((p) => p.id === id);

/** The user input that names the language a patient summary is written in (a language code; unset: the clinician's). */
export const PATIENT_LANGUAGE_INPUT = 'patient_language';
const inputsFor = (documents: string[]) => documents.map((d) => findProcessorInput(templateInputId(d))!);

const TYPES: Omit<ConsultationType, 'processorInputs'>[] = [
  {
    id: 'general_consultation',
    kind: 'note_taker',
    showTranscription: false,
    name: { pt: 'Consulta geral', en: 'General consultation', de: 'Allgemeine Konsultation', es: 'Consulta general' },
    description: {
      pt: 'Grava a consulta e escreve as notas clínicas e os documentos.',
      en: 'Records the consultation and writes the clinical notes and documents.',
      de: 'Nimmt die Konsultation auf und schreibt die klinischen Notizen und Dokumente.',
      es: 'Graba la consulta y escribe las notas clínicas y los documentos.',
    },
    documents: ['consultation_notes', 'clinical_summary', 'sick_leave_certificate', 'referral_letter', 'patient_summary'],
    catalogue: 'international',
    section: 'public',
  },
  {
    id: 'dictation',
    kind: 'dictaphone',
    showTranscription: true,
    name: { pt: 'Ditafone', en: 'Dictaphone', de: 'Diktiergerät', es: 'Dictáfono' },
    description: {
      pt: 'Dite um texto e veja a transcrição a crescer enquanto fala.',
      en: 'Dictate a text and watch the transcript grow as you speak.',
      de: 'Diktieren Sie einen Text und sehen Sie die Transkription beim Sprechen wachsen.',
      es: 'Dicte un texto y vea crecer la transcripción mientras habla.',
    },
    documents: ['dictation', 'clinical_summary', 'referral_letter'],
    catalogue: 'international',
    section: 'public',
  },
  {
    id: 'clinical_report',
    kind: 'report',
    showTranscription: false,
    name: { pt: 'Relatório clínico', en: 'Clinical report', de: 'Klinischer Bericht', es: 'Informe clínico' },
    description: {
      pt: 'Descreva um exame ou procedimento e obtenha um relatório estruturado.',
      en: 'Describe an examination or procedure and get a structured report.',
      de: 'Beschreiben Sie eine Untersuchung oder einen Eingriff und erhalten Sie einen strukturierten Bericht.',
      es: 'Describa una exploración o un procedimiento y obtenga un informe estructurado.',
    },
    documents: ['report', 'clinical_summary'],
    catalogue: 'international',
    section: 'test',
  },
  {
    id: 'pt_family_medicine',
    kind: 'note_taker',
    showTranscription: false,
    name: {
      pt: 'Consulta de Medicina Geral e Familiar',
      en: 'Family medicine consultation (Portugal)',
      de: 'Allgemeinmedizinische Konsultation (Portugal)',
      es: 'Consulta de medicina de familia (Portugal)',
    },
    description: {
      pt: 'Consulta nos cuidados de saúde primários: notas SOAP, certificado de incapacidade temporária e referenciação hospitalar.',
      en: 'Primary care consultation: SOAP notes, temporary incapacity certificate and hospital referral.',
      de: 'Konsultation in der Primärversorgung: SOAP-Notizen, Arbeitsunfähigkeitsbescheinigung und Krankenhausüberweisung.',
      es: 'Consulta de atención primaria: notas SOAP, certificado de incapacidad temporal y derivación hospitalaria.',
    },
    documents: ['consultation_notes', 'sick_leave_certificate', 'referral_letter', 'clinical_summary'],
    catalogue: 'pt',
    section: 'public',
  },
  {
    id: 'de_general_practice',
    kind: 'note_taker',
    showTranscription: false,
    name: {
      pt: 'Consulta de clínica geral (Alemanha)',
      en: 'General practice consultation (Germany)',
      de: 'Hausärztliche Konsultation',
      es: 'Consulta de medicina general (Alemania)',
    },
    description: {
      pt: 'Consulta de clínica geral: notas SOAP, certificado de baixa e carta de referenciação.',
      en: 'General practice consultation: SOAP notes, sick note and referral letter.',
      de: 'Hausärztliche Konsultation: SOAP-Notizen, Arbeitsunfähigkeitsbescheinigung und Überweisungsbrief.',
      es: 'Consulta de medicina general: notas SOAP, baja laboral y carta de derivación.',
    },
    documents: ['consultation_notes', 'sick_leave_certificate', 'referral_letter', 'clinical_summary'],
    catalogue: 'de',
    section: 'public',
  },
  {
    id: 'es_primary_care',
    kind: 'note_taker',
    showTranscription: false,
    name: {
      pt: 'Consulta de cuidados primários (Espanha)',
      en: 'Primary care consultation (Spain)',
      de: 'Konsultation in der Primärversorgung (Spanien)',
      es: 'Consulta de atención primaria',
    },
    description: {
      pt: 'Consulta de cuidados primários: notas SOAP, baixa médica e derivação.',
      en: 'Primary care consultation: SOAP notes, sick leave and referral.',
      de: 'Konsultation in der Primärversorgung: SOAP-Notizen, Krankschreibung und Überweisung.',
      es: 'Consulta de atención primaria: notas SOAP, baja laboral y derivación.',
    },
    documents: ['consultation_notes', 'sick_leave_certificate', 'referral_letter', 'clinical_summary'],
    catalogue: 'es',
    section: 'public',
  },
];

export const CONSULTATION_TYPES: ConsultationType[] = TYPES.map((t) => ({ ...t, processorInputs: inputsFor(t.documents) }));

export const findConsultationType = (id: string) => CONSULTATION_TYPES.find((t) => t.id === id);
