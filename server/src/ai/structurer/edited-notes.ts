/**
 * A clinician's corrected consultation notes read back as what the consultation says: once the clinician has
 * edited the notes, every document written after (a summary, a referral letter) rests on them, not on the
 * transcript they corrected. Sections by their headings and labelled lines ('- Medication: …', '**Allergies:**
 * …', '- Blood pressure: …') in the four languages; the composer's frame (title, label, date, blanks) is left out.
 */
import { fold } from '../../clinical/text.js';
import type { NoteSentence, Section } from './structure.js';

export type EditedNotes = {
  sentences: NoteSentence[];
  /** Measurement lines as the clinician left them ('- Blood pressure: 140/90 mmHg'). */
  measurements: string[];
  medication?: string;
  allergies?: string;
  followUp?: string;
};

const HEADINGS: [RegExp, Section | 'medication' | 'other'][] = [
  [
    /^(?:subjective|subjetivo|subjektiv|history|anamnese|anamnesis|presenting complaint|motivo|reason|anlass|vorstellungsgrund|why you came|porque veio)/,
    'subjective',
  ],
  [
    /^(?:objective|objetivo|objektiv|physical examination|exame fisico|korperliche untersuchung|exploracion fisica|findings|achados|befunde|hallazgos|tests and results|exames complementares|pruebas complementarias|what we found)/,
    'objective',
  ],
  [/^(?:assessment|avaliacao|beurteilung|evaluacion|diagnosis|diagnostico|diagnose|conclusion|conclusao|schlussfolgerung)/, 'assessment'],
  [/^(?:plan|plano|tests and plan|what to do now|o que fazer agora)/, 'plan'],
  [/^(?:medication|medicacao|medikation|medicacion|your medicines|os seus medicamentos)/, 'medication'],
];
const LABEL_MEDICATION = /^(?:medication|medicacao|medikation|medicacion)$/;
const LABEL_FOLLOW_UP = /^(?:next consultation|proxima consulta|nachste konsultation|follow-up|follow up)$/;
const LABEL_ALLERGIES = /^(?:allergies|alergias|allergien)$/;
const LABEL_MEASUREMENT =
  /^(?:blood pressure|tensao arterial|blutdruck|presion arterial|heart rate|frequencia cardiaca|herzfrequenz|frecuencia cardiaca|temperature|temperatura|temperatur|o₂ saturation|saturacao de o₂|o₂-sattigung|saturacion de o₂|weight|peso|gewicht|bmi|imc|hba1c|cholesterol|colesterol|cholesterin|measurements|parametros|messwerte)$/;
/** Lines that are the document's frame, not what the consultation says. */
const FRAME =
  /^(?:_.*_|\*\*(?:date|data|datum|fecha|clinician|medico\(a\)|arztin\/arzt|medico\/a)[:*].*|\[(?:a preencher|to be completed|auszufullen|a completar)\])$/;

/** '[to be completed]', '[check value]': a marked blank; '[chest pain since monday?]' is uncertain words, kept. */
const isBlank = (text: string) => /^\[[^\]]+\]$/.test(text) && !text.endsWith('?]');

export function readEditedNotes(notes: string): EditedNotes {
  const out: EditedNotes = { sentences: [], measurements: [] };
  let section: Section | 'medication' | 'other' = 'other';
  for (const raw of notes.split('\n')) {
    const line = raw.trim();
    if (!line) continue;
    if (/^# /.test(line)) continue;
    const heading = line.match(/^#{2,4}\s+(.+)$/);
    if (heading) {
      const name = fold(heading[1]!).trim();
      section = HEADINGS.find(([pattern]) => pattern.test(name))?.[1] ?? 'other';
      continue;
    }
    if (FRAME.test(fold(line))) continue;
    const text = line.replace(/^[-*•]\s+/, '');
    const labelled = text.match(/^(?:\*\*)?([^:*]{2,40}?)(?:\*\*)?:(?:\*\*)?\s+(.+)$/);
    if (labelled) {
      const label = fold(labelled[1]!).trim();
      const value = labelled[2]!.trim();
      const blank = isBlank(value);
      if (LABEL_MEDICATION.test(label)) {
        if (!blank) out.medication = value;
        continue;
      }
      if (LABEL_FOLLOW_UP.test(label)) {
        if (!blank) out.followUp = value;
        continue;
      }
      if (LABEL_ALLERGIES.test(label)) {
        if (!blank) out.allergies = value;
        continue;
      }
      if (LABEL_MEASUREMENT.test(label)) {
        if (!blank) out.measurements.push(`- ${text}`);
        continue;
      }
    }
    if (isBlank(text)) continue;
    if (section === 'medication') {
      out.medication = out.medication ? `${out.medication}; ${text}` : text;
      continue;
    }
    if (section === 'other') continue;
    out.sentences.push({ text, section, start: 0, end: 0 });
  }
  return out;
}
