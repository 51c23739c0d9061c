import { checkEmail } from '../auth/validation';

/** The invite box: one address per line (commas and semicolons too), blanks ignored, duplicates once. */
export function parseEmailList(text: string): { valid: string[]; invalid: string[] } {
  const entries = [
    ...new Set(
      text
        .split(/[\n,;]+/)
        .map((e) => e.trim())
        .filter(Boolean),
    ),
  ];
  return { valid: entries.filter((e) => !checkEmail(e)), invalid: entries.filter((e) => checkEmail(e)) };
}
