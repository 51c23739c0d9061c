import { and, desc, eq, gt } from 'drizzle-orm';
import type { Language } from '../../../../contract/constants.js';
import type { Database } from '../../db/client.js';
import { announcements } from '../../db/schema.js';

const SHOWN = 10;

export async function publishAnnouncement(db: Database, input: { language: Language; title: string; body: string; days: number }) {
  const [row] = await db
    .insert(announcements)
    .values({ language: input.language, title: input.title, body: input.body, expiresAt: new Date(Date.now() + input.days * 24 * 3600 * 1000) })
    .returning();
  return row!;
}

/** The announcements still running in one language, newest first. */
export async function currentAnnouncements(db: Database, language: Language) {
  const rows = await db
    .select()
    .from(announcements)
    .where(and(eq(announcements.language, language), gt(announcements.expiresAt, new Date())))
    .orderBy(desc(announcements.publishedAt))
    .limit(SHOWN);
  return rows.map((r) => ({ id: r.id, title: r.title, body: r.body, published_at: r.publishedAt.toISOString() }));
}
