/**
 * Who spoke, in a transcript. A teleconsultation records the clinician's microphone and the call's audio as two
 * channels, so each word is known to be the clinician's or the patient's; an engine that tells voices apart in
 * one channel gives speakers A, B… without knowing who they are. The labels are written into the transcript in
 * the clinician's language, where the clinician reads and corrects them and the notes' writers find them.
 */
import type { Language } from './constants.js';

/** How a recorded part's channels are laid out: one mixed voice, or the clinician left and the call right. */
export const CHANNEL_LAYOUTS = ['mono', 'clinician_patient'] as const;
export type ChannelLayout = (typeof CHANNEL_LAYOUTS)[number];
export const isChannelLayout = (value: unknown): value is ChannelLayout => (CHANNEL_LAYOUTS as readonly unknown[]).includes(value);

/** `speaker_a`, `speaker_b`…: voices an engine told apart in one part, not matched across parts. */
export type Speaker = 'clinician' | 'patient' | `speaker_${string}`;
/** One speaker's words, in the order they were said. */
export type SpeakerTurn = { speaker: Speaker; label: string; text: string };

const ROLE_LABELS: Record<'clinician' | 'patient', Record<Language, string>> = {
  clinician: { pt: 'Médico', en: 'Clinician', de: 'Ärztin/Arzt', es: 'Médico' },
  patient: { pt: 'Doente', en: 'Patient', de: 'Patient/in', es: 'Paciente' },
};
const VOICE_LABEL: Record<Language, string> = { pt: 'Interlocutor', en: 'Speaker', de: 'Sprecher/in', es: 'Interlocutor' };

export function speakerLabel(speaker: Speaker, language: Language): string {
  if (speaker === 'clinician' || speaker === 'patient') return ROLE_LABELS[speaker][language];
  return `${VOICE_LABEL[language]} ${speaker.slice('speaker_'.length).toUpperCase()}`;
}

/** A transcript's turns as its lines: `Label: words`, a new line at each change of speaker. */
export function renderTurns(turns: SpeakerTurn[], continuesFrom?: Speaker): string {
  return turns.map((t, i) => (i === 0 && t.speaker === continuesFrom ? t.text : `${t.label}: ${t.text}`)).join('\n');
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const ROLE_BY_LABEL = new Map<string, 'clinician' | 'patient'>(
  (['clinician', 'patient'] as const).flatMap((role) =>
    Object.values(ROLE_LABELS[role]).map((label) => [label.toLowerCase(), role] as [string, 'clinician' | 'patient']),
  ),
);
/** A line that opens with a speaker's label, in any of the four languages (as written above, or corrected by hand). */
const LABEL_LINE = new RegExp(
  `^[ \\t]*(${[...ROLE_BY_LABEL.keys()].map(escapeRegExp).join('|')}|(?:${Object.values(VOICE_LABEL).map(escapeRegExp).join('|')}) [A-Z])[ \\t]*:[ \\t]*`,
  'gimu',
);

/** The same, for one line; not global, so no search state is carried from one call to the next. */
const LABEL_AT_START = new RegExp(LABEL_LINE.source, 'iu');

/** A stretch of a transcript said by one speaker (`role` unknown when the engine only told voices apart). */
export type LabelledStretch = { role?: 'clinician' | 'patient'; start: number; end: number };

/**
 * Where each labelled speaker's words lie in a transcript (character spans, labels excluded). A stretch ends at
 * the next label, at a blank line (a part whose speakers are not known follows one that had them) and at a
 * bracketed marker line ('[part 3 could not be transcribed]'): what follows is nobody's in particular. A
 * transcript is read as labelled only when at least two speakers are named: a dictation that happens to open
 * with 'Patient:' stays one text.
 */
export function labelledStretches(transcript: string): LabelledStretch[] {
  const whole = [{ start: 0, end: transcript.length }];
  const heads = [...transcript.matchAll(LABEL_LINE)];
  if (new Set(heads.map((m) => ROLE_BY_LABEL.get(m[1]!.toLowerCase()) ?? m[1]!.toLowerCase())).size < 2) return whole;
  const out: LabelledStretch[] = [];
  let current: LabelledStretch = { start: 0, end: 0 };
  const close = (at: number) => {
    current.end = at;
    if (transcript.slice(current.start, current.end).trim()) out.push(current);
  };
  let lineStart = 0;
  for (const line of transcript.split('\n')) {
    const head = LABEL_AT_START.exec(line);
    if (head) {
      close(lineStart);
      const role = ROLE_BY_LABEL.get(head[1]!.toLowerCase());
      current = { ...(role ? { role } : {}), start: lineStart + head[0].length, end: 0 };
    } else if ((!line.trim() || /^\s*\[/.test(line)) && current.role) {
      close(lineStart);
      current = { start: lineStart, end: 0 };
    }
    lineStart += line.length + 1;
  }
  close(transcript.length);
  return out.length ? out : whole;
}
