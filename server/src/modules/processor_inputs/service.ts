import { and, asc, eq } from 'drizzle-orm';
import type { Database as Db } from '../../db/client.js';
import { processorInputTemplates } from '../../db/schema.js';
import { DomainError, notFound } from '../../errors/domain-error.js';
import { findProcessorInput } from '../consultation_types/catalogue.js';

export type TemplateRow = typeof processorInputTemplates.$inferSelect;
/** A template sent without a name keeps its name (update) or is numbered (create). */
export type TemplateInput = { name?: string; text: string };

/** A clinician keeps a handful of templates per input; more is a sign of a loop in a client, not of a need. */
export const MAX_TEMPLATES_PER_INPUT = 50;

export function requireProcessorInput(id: string) {
  const input = findProcessorInput(id);
  if (!input) throw notFound('Unknown processor input');
  return input;
}

export const listTemplates = (db: Db, userId: string) =>
  db.select().from(processorInputTemplates).where(eq(processorInputTemplates.userId, userId)).orderBy(asc(processorInputTemplates.createdAt));

/** The user's own template, or 404: another clinician's template is indistinguishable from a missing one. */
export async function findOwnTemplate(db: Db, userId: string, templateId: string, processorInputId?: string): Promise<TemplateRow> {
  const [row] = await db
    .select()
    .from(processorInputTemplates)
    .where(
      and(
        eq(processorInputTemplates.id, templateId),
        eq(processorInputTemplates.userId, userId),
        ...(processorInputId ? [eq(processorInputTemplates.processorInputId, processorInputId)] : []),
      ),
    );
  if (!row) throw notFound('Template not found');
  return row;
}

export async function createTemplate(db: Db, userId: string, processorInputId: string, input: TemplateInput): Promise<TemplateRow> {
  requireProcessorInput(processorInputId);
  const existing = await db
    .select({ id: processorInputTemplates.id })
    .from(processorInputTemplates)
    .where(and(eq(processorInputTemplates.userId, userId), eq(processorInputTemplates.processorInputId, processorInputId)));
  if (existing.length >= MAX_TEMPLATES_PER_INPUT) {
    throw new DomainError(409, 'invalid_request', `At most ${MAX_TEMPLATES_PER_INPUT} templates per input`);
  }
  const name = input.name ?? `Template ${existing.length + 1}`;
  const [row] = await db.insert(processorInputTemplates).values({ userId, processorInputId, name, text: input.text }).returning();
  return row!;
}

export async function updateTemplate(db: Db, userId: string, processorInputId: string, templateId: string, input: TemplateInput): Promise<TemplateRow> {
  requireProcessorInput(processorInputId);
  await findOwnTemplate(db, userId, templateId, processorInputId);
  const [row] = await db
    .update(processorInputTemplates)
    .set({ text: input.text, ...(input.name ? { name: input.name } : {}), updatedAt: new Date() })
    .where(and(eq(processorInputTemplates.id, templateId), eq(processorInputTemplates.userId, userId)))
    .returning();
  return row!;
}

export async function deleteTemplate(db: Db, userId: string, processorInputId: string, templateId: string): Promise<void> {
  requireProcessorInput(processorInputId);
  await findOwnTemplate(db, userId, templateId, processorInputId);
  await db.delete(processorInputTemplates).where(and(eq(processorInputTemplates.id, templateId), eq(processorInputTemplates.userId, userId)));
}

export const templateView = (t: TemplateRow) => ({
  id: t.id,
  processor_input_id: t.processorInputId,
  name: t.name,
  template: t.text,
  created_at: t.createdAt.toISOString(),
  updated_at: t.updatedAt.toISOString(),
});
