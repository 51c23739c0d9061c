/**
 * The first words of a consultation's notes, for the list of recent consultations: enough to tell two
 * "General consultation" rows apart, without the headings every note shares or the markdown that writes them.
 */
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { generatedDocuments } from '../../db/schema.js';
import { BLANK } from '../../ai/offline-composer.js';
import { findConsultationType } from '../consultation_types/catalogue.js';
import type { SessionRow } from './repository.js';

export const EXCERPT_CHARS = 140;

const escaped = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/**
 * A line that holds only the marked blank of a note written from nothing ('[a preencher]'), perhaps after its
 * label ('Tensão arterial: [a preencher]'): it tells no note from another, so the excerpt leaves it out.
 */
const BLANK_LINE = new RegExp(`^(?:[\\p{L} ()/'-]{1,60}:\\s*)?(?:${Object.values(BLANK).map(escaped).join('|')})\\.?$`, 'iu');

/** Plain words from markdown: headings and table rules dropped, emphasis, list marks and links unwrapped. */
export function excerptOf(markdown: string, max = EXCERPT_CHARS): string | null {
  const lines = markdown.split('\n').map((line) => line.trim());
  // What stands above the first section (the title, "assembled without AI", the date and the clinician) is the
  // same on every note: the words that tell notes apart start at the first section.
  const firstSection = lines.findIndex((line) => /^#{2,6}\s/.test(line));
  const words = lines
    .slice(Math.max(firstSection, 0))
    .filter((line) => line && !/^#{1,6}\s/.test(line) && !/^[-*_|: ]{3,}$/.test(line))
    .map((line) =>
      line
        .replace(/^>\s?/, '')
        .replace(/^(?:[-*+]|\d+[.)])\s+/, '')
        .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
        .replace(/[*_`~]+/g, '')
        .replace(/\|/g, ' ')
        .trim(),
    )
    .filter((line) => !BLANK_LINE.test(line))
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (!words) return null;
  if (words.length <= max) return words;
  const cut = words.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.–-]+$/, '')}…`;
}

/** The excerpt of each session's main document (its latest finished version), in one query. */
export async function mainDocumentExcerpts(db: Database, sessions: SessionRow[]): Promise<Map<string, string>> {
  const wanted = new Map<string, string>();
  for (const s of sessions) {
    const key = findConsultationType(s.consultationTypeId)?.documents[0];
    if (key) wanted.set(s.id, key);
  }
  const found = new Map<string, string>();
  if (wanted.size === 0) return found;
  // Only the start of each text is read: a list never needs a whole document.
  const rows = await db
    .selectDistinctOn([generatedDocuments.sessionId, generatedDocuments.documentKey], {
      sessionId: generatedDocuments.sessionId,
      key: generatedDocuments.documentKey,
      start: sql<string>`left(${generatedDocuments.text}, 600)`,
    })
    .from(generatedDocuments)
    .where(
      and(
        inArray(generatedDocuments.sessionId, [...wanted.keys()]),
        inArray(generatedDocuments.documentKey, [...new Set(wanted.values())]),
        eq(generatedDocuments.status, 'done'),
      ),
    )
    .orderBy(generatedDocuments.sessionId, generatedDocuments.documentKey, desc(generatedDocuments.version));
  for (const row of rows) {
    if (found.has(row.sessionId) || wanted.get(row.sessionId) !== row.key) continue;
    const excerpt = excerptOf(row.start);
    if (excerpt) found.set(row.sessionId, excerpt);
  }
  return found;
}
