/**
 * The TextGenerator port: writes one document from a consultation's transcript and inputs. Which engine runs is
 * chosen once from the settings; nothing else in the server knows which one it is.
 */
import type { Language } from '../../../contract/constants.js';

/** The notes generation data of spec §3, as entered by the clinician (all optional). */
export const NOTES_FIELDS = [
  'text',
  'previous_consultation',
  'exams_data',
  'physical_exam',
  'extra_text',
  'bloodpressure',
  'hemoglobinac',
  'colesterol',
  'weightmassindex',
  'next_consultation_date',
  'medication',
] as const;
export type NotesField = (typeof NOTES_FIELDS)[number];
export type NotesData = Partial<Record<NotesField, string>>;

export type DocumentRequest = {
  /** consultation_notes, clinical_summary, sick_leave_certificate, referral_letter, dictation, report, or custom (fill `template`) */
  documentKind: string;
  /** The consultation's language: the transcript's, and the document's unless `outputLanguage` says otherwise. */
  language: Language;
  /** The language to write in when it is not the consultation's (a patient summary in the patient's language). */
  outputLanguage?: Language;
  transcript: string;
  data: NotesData;
  clinician: { name: string };
  date: Date;
  /** The clinician's own template for this document, when they keep one. */
  template?: string;
  /** The clinician's standing preferences for this kind of document (a user guide). */
  guide?: string;
  /**
   * The consultation notes as the clinician corrected them, when they did: the source of this document over the
   * transcript and the notes data, which the corrections may contradict (a medicine removed, a value corrected).
   */
  editedNotes?: string;
  /** A change request: the previous text and what to change in it. */
  change?: { previousText: string; instructions: string };
  /** Free-form data for a custom template (POST /generate). */
  extraData?: Record<string, string>;
  /** Per-request engine settings, where the engine has them. */
  options?: { model?: string; temperature?: number };
};

export type GeneratorInfo = { engine: 'openai' | 'local' | 'composer'; model?: string; usesAi: boolean };

export type Conversation = { system: string; messages: { role: 'user' | 'assistant'; content: string }[] };

export interface TextGenerator {
  readonly info: GeneratorInfo;
  /** Yields the document as it is written; the concatenation is the whole text. */
  write(request: DocumentRequest): AsyncIterable<string>;
  /** The assistant's next reply in a conversation; absent where no model can converse (the offline composer). */
  converse?(conversation: Conversation): AsyncIterable<string>;
}
