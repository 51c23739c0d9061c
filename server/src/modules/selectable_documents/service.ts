import { and, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { selectableDocumentGuides } from '../../db/schema.js';

export async function findGuide(db: Database, userId: string, documentId: string): Promise<string | undefined> {
  const [row] = await db
    .select({ content: selectableDocumentGuides.content })
    .from(selectableDocumentGuides)
    .where(and(eq(selectableDocumentGuides.userId, userId), eq(selectableDocumentGuides.documentId, documentId)));
  return row?.content;
}

/** One guide per clinician and document: saving replaces it, saving an empty one removes it. */
export async function saveGuide(db: Database, userId: string, documentId: string, content: string): Promise<string | undefined> {
  if (!content) {
    await db.delete(selectableDocumentGuides).where(and(eq(selectableDocumentGuides.userId, userId), eq(selectableDocumentGuides.documentId, documentId)));
    return undefined;
  }
  await db
    .insert(selectableDocumentGuides)
    .values({ userId, documentId, content })
    .onConflictDoUpdate({ target: [selectableDocumentGuides.userId, selectableDocumentGuides.documentId], set: { content, updatedAt: new Date() } });
  return content;
}
