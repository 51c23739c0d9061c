/**
 * A line added to a note's section, as the clinician's "add to the note" does: at the end of the section whose
 * heading names it (in the four languages, and the headings AI engines write: 'History of present illness',
 * 'Physical examination', 'Assessment and plan'), or under a new heading at the end when the note has none.
 */
export type NoteSection = 'subjective' | 'objective' | 'assessment' | 'plan';

const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

const NAMES: Record<NoteSection, RegExp> = {
  subjective: /subjective|subjetivo|subjektiv|anamnes|anamnesis|history|chief complaint|motivo|vorstellungsgrund|beschwerden/,
  objective: /objective|objetivo|objektiv|exam|exploracion|untersuchung|befund|vital|results|resultados|ergebnisse/,
  assessment: /assessment|avaliacao|beurteilung|evaluacion|diagnos|impression|conclus/,
  plan: /plan|plano/,
};

export function addToNote(markdown: string, line: string, section: NoteSection, heading: string): string {
  const lines = markdown.replace(/\s+$/, '').split('\n');
  const bullet = `- ${line.trim()}`;
  const isHeading = (l: string) => /^#{1,4}\s/.test(l);
  // 'Assessment and plan' takes the plan and the assessment; a plain 'Plan' heading wins for the plan.
  const found = lines.findIndex((l) => isHeading(l) && NAMES[section].test(fold(l)) && (section !== 'assessment' || !/^#{1,4}\s+plan/.test(fold(l))));
  if (found < 0) return `${lines.join('\n')}\n\n## ${heading}\n\n${bullet}\n`;
  let end = found + 1;
  while (end < lines.length && !isHeading(lines[end]!)) end++;
  while (end > found + 1 && !lines[end - 1]!.trim()) end--;
  lines.splice(end, 0, bullet);
  return `${lines.join('\n')}\n`;
}
