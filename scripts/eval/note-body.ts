/**
 * A note cut into what is scored: its body without the frame the document adds (title, the 'assembled without AI'
 * label, date and clinician lines, blank markers), and its sections by their headings.
 */
import { fold } from './text.js';

export type NoteSection = 'subjective' | 'objective' | 'assessment' | 'plan';

/** Heading words of each section in the four languages, and the usual variants a model writes. */
export const HEADINGS: Record<NoteSection, string[]> = {
  subjective: ['subjective', 'subjetivo', 'subjektiv', 'history', 'anamnese', 'anamnesis', 'chief complaint', 'presenting'],
  objective: ['objective', 'objetivo', 'objektiv', 'examination', 'exame', 'befund', 'exploracion', 'physical exam', 'vitals', 'results'],
  assessment: ['assessment', 'avaliacao', 'beurteilung', 'evaluacion', 'diagnosis', 'diagnostico', 'diagnose', 'impression'],
  plan: ['plan', 'plano'],
};

const HEADING_LINE = /^#{1,4}\s+(.+)$/;
/** A bold line alone is a heading too, as models often write one ('**Assessment**'). */
const BOLD_HEADING = /^\s*\*\*([^*]+)\*\*:?\s*$/;
/** The frame's lines: the date and clinician lines in the four languages. */
const FRAME_LINE = /^\s*\*\*\s*(?:date|data|datum|fecha|clinician|medico\(a\)|medico\/a|arztin\/arzt)\s*:?\s*\*\*/;
/** An italic line alone: the no-AI label ('_Assembled without AI …_'). */
const ITALIC_LINE = /^\s*(?:_[^_]+_|\*[^*]+\*)\s*$/;
/** Blank markers: short bracketed words ('[to be completed]', '[a preencher]'). */
const BLANK_MARKER = /\[[^\]\n]{1,40}\]/g;

export type NoteBody = {
  /** For ROUGE: the body's text, section headings included. */
  text: string;
  /** The body's content lines, bullets and line labels removed, headings and empty lines left out. */
  lines: string[];
  sections: Partial<Record<NoteSection, string>>;
};

function sectionOfHeading(heading: string): NoteSection | undefined {
  const words = fold(heading);
  return (Object.keys(HEADINGS) as NoteSection[]).find((s) => HEADINGS[s].some((h) => new RegExp(`\\b${h}\\b`).test(words)));
}

export function noteBody(note: string): NoteBody {
  const kept: string[] = [];
  const lines: string[] = [];
  const sections: Partial<Record<NoteSection, string>> = {};
  let current: NoteSection | undefined;
  let seenTitle = false;
  for (const raw of note.split('\n')) {
    const line = raw.replace(BLANK_MARKER, '').trimEnd();
    const heading = HEADING_LINE.exec(line) ?? BOLD_HEADING.exec(line);
    if (heading && /^#\s/.test(line) && !seenTitle) {
      seenTitle = true;
      continue;
    }
    if (ITALIC_LINE.test(line) || FRAME_LINE.test(fold(line))) continue;
    if (heading) {
      current = sectionOfHeading(heading[1]!);
      kept.push(heading[1]!);
      continue;
    }
    // A line left with only its label ('- Medication:' once its blank is gone) says nothing.
    const content = line
      .replace(/^\s*[-*•](?:\s+|$)/, '')
      .replace(/^\*\*[^*]+:\*\*\s*/, '')
      .replace(/^[^:.?!]{1,30}:\s*/, '')
      .trim();
    if (!content) continue;
    kept.push(line);
    lines.push(
      line
        .replace(/^\s*[-*•]\s+/, '')
        .replace(/\*\*/g, '')
        .trim(),
    );
    if (current) sections[current] = `${sections[current] ?? ''}\n${line}`;
  }
  return { text: kept.join('\n'), lines, sections };
}
