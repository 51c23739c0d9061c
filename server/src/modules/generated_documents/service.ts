import { and, desc, eq, lt } from 'drizzle-orm';
import type { Language } from '../../../../contract/constants.js';
import { NOTES_FIELDS, type NotesData } from '../../ai/text-generator.js';
import { findUserById, type UserRow } from '../../auth/users.js';
import { attachDocument, debitGeneration, refundGeneration } from '../credits/service.js';
import { documentFeedback, generatedDocuments } from '../../db/schema.js';
import type { AppContext } from '../../http/context.js';
import { DomainError, notFound } from '../../http/errors.js';
import { findConsultationType, templateInputId } from '../consultation_types/catalogue.js';
import { findOwnTemplate } from '../processor_inputs/service.js';
import { findGuide } from '../selectable_documents/service.js';
import { listChunks, type SessionRow } from '../consultation_sessions/repository.js';
import { assembleTranscription } from '../consultation_sessions/transcription.js';
import { describeErrorSafely } from '../../http/safe-errors.js';

export type DocumentRow = typeof generatedDocuments.$inferSelect;

/** How long a generation waits for the transcript to finish growing before it writes with what there is. */
const TRANSCRIPT_WAIT_MS = 10 * 60_000;

/** `main` is the consultation type's first document; any other key must be one of its selectable documents. */
export function resolveDocumentKey(session: SessionRow, doc: string): string {
  const type = findConsultationType(session.consultationTypeId);
  const key = doc === 'main' ? type?.documents[0] : doc;
  if (!type || !key || !type.documents.includes(key)) throw notFound('This consultation has no such document');
  return key;
}

export async function latestVersion(ctx: AppContext, sessionId: string, key: string): Promise<DocumentRow | undefined> {
  const [row] = await ctx.db
    .select()
    .from(generatedDocuments)
    .where(and(eq(generatedDocuments.sessionId, sessionId), eq(generatedDocuments.documentKey, key)))
    .orderBy(desc(generatedDocuments.version))
    .limit(1);
  return row;
}

export async function findVersion(ctx: AppContext, sessionId: string, key: string, version: number): Promise<DocumentRow | undefined> {
  const [row] = await ctx.db
    .select()
    .from(generatedDocuments)
    .where(and(eq(generatedDocuments.sessionId, sessionId), eq(generatedDocuments.documentKey, key), eq(generatedDocuments.version, version)));
  return row;
}

async function insertVersion(ctx: AppContext, sessionId: string, key: string, values: Partial<typeof generatedDocuments.$inferInsert>): Promise<DocumentRow> {
  // Two requests racing for the same next version: the unique index refuses one, which then takes the next.
  for (let attempt = 0; attempt < 5; attempt++) {
    const next = ((await latestVersion(ctx, sessionId, key))?.version ?? 0) + 1;
    const [row] = await ctx.db
      .insert(generatedDocuments)
      .values({ sessionId, documentKey: key, version: next, status: 'generating', engine: ctx.textGenerator.info.engine, ...values })
      .onConflictDoNothing()
      .returning();
    if (row) return row;
  }
  throw new DomainError(409, 'invalid_request', 'Too many simultaneous changes to this document');
}

/** The notes generation data: user inputs whose processor input is one of the spec's fields. */
function notesData(session: SessionRow): NotesData {
  const data: NotesData = {};
  for (const input of session.userInputs as { processor_input_id?: string; value?: string }[]) {
    if (input.processor_input_id && (NOTES_FIELDS as readonly string[]).includes(input.processor_input_id) && typeof input.value === 'string') {
      data[input.processor_input_id as keyof NotesData] = input.value;
    }
  }
  return data;
}

type Personalisation = { templateId?: string; template?: string; guide?: string };

/**
 * The clinician's template chosen for this document in the consultation (a user input `<document>_template`
 * whose value is the template's id) and their standing guide for the document kind. A template deleted since it
 * was chosen is simply not used.
 */
async function personalisation(ctx: AppContext, session: SessionRow, key: string): Promise<Personalisation> {
  const chosen = (session.userInputs as { processor_input_id?: string; value?: string }[]).find((i) => i.processor_input_id === templateInputId(key))?.value;
  const template = chosen ? await findOwnTemplate(ctx.db, session.userId, chosen).catch(() => undefined) : undefined;
  const guide = await findGuide(ctx.db, session.userId, key);
  return { templateId: template?.id, template: template?.text, guide };
}

async function waitForTranscript(ctx: AppContext, session: SessionRow): Promise<string> {
  // The clinician's own text wins, without waiting for the parts.
  if (session.transcriptionOverride !== null) return session.transcriptionOverride;
  const until = Date.now() + TRANSCRIPT_WAIT_MS;
  for (;;) {
    const assembled = assembleTranscription(await listChunks(ctx.db, session.id));
    if (assembled.status !== 'processing' || Date.now() > until || ctx.shutdown.aborted) return assembled.text;
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** Writes one version in the background; the row says how it went, the live stream shows it being written. */
type Charge = { user: UserRow };

type Change = { previousText: string; instructions: string };

function generate(ctx: AppContext, session: SessionRow, row: DocumentRow, personal: Personalisation, change?: Change, charge?: Charge): void {
  const work = writeVersion(ctx, session, row, personal, change, charge).catch((err: unknown) => {
    if (!ctx.shutdown.aborted) console.error('document generation could not record its result', err);
  });
  ctx.background.add(work);
  void work.finally(() => ctx.background.delete(work));
}

async function writeVersion(ctx: AppContext, session: SessionRow, row: DocumentRow, personal: Personalisation, change?: Change, charge?: Charge) {
  ctx.liveDocuments.begin(row.id);
  let text = '';
  try {
    const user = await findUserById(ctx.db, session.userId);
    const transcript = await waitForTranscript(ctx, session);
    if (ctx.shutdown.aborted) throw new Error('server shutting down');
    for await (const delta of ctx.textGenerator.write({
      documentKind: row.documentKey,
      language: (user?.language ?? 'pt') as Language,
      transcript,
      data: notesData(session),
      clinician: { name: user?.name ?? '' },
      date: new Date(),
      template: personal.template,
      guide: personal.guide,
      change,
    })) {
      text += delta;
      ctx.liveDocuments.append(row.id, delta);
    }
    await ctx.db.update(generatedDocuments).set({ status: 'done', text, completedAt: new Date() }).where(eq(generatedDocuments.id, row.id));
    ctx.liveDocuments.end(row.id, true);
  } catch (err) {
    // The transcript and inputs are untouched; the clinician can try again.
    await ctx.db
      .update(generatedDocuments)
      .set({ status: 'failed', text, error: describeErrorSafely(err).slice(0, 500), completedAt: new Date() })
      .where(eq(generatedDocuments.id, row.id));
    // A document that was not written is not paid for.
    if (charge) await refundGeneration(ctx.db, charge.user, row.id);
    ctx.liveDocuments.end(row.id, false);
  }
}

/** AI engines cost credits (402 when none are left, before anything is created); the offline composer is free. */
async function chargeIfAi(ctx: AppContext, session: SessionRow): Promise<{ charge?: Charge; ledgerId?: string }> {
  if (!ctx.textGenerator.info.usesAi) return {};
  const user = await findUserById(ctx.db, session.userId);
  if (!user) throw notFound('Consultation not found');
  const { ledgerId } = await debitGeneration(ctx.db, user);
  return { charge: { user }, ledgerId };
}

export async function startGeneration(ctx: AppContext, session: SessionRow, doc: string): Promise<DocumentRow> {
  const key = resolveDocumentKey(session, doc);
  const personal = await personalisation(ctx, session, key);
  const { charge, ledgerId } = await chargeIfAi(ctx, session);
  const row = await insertVersion(ctx, session.id, key, { templateId: personal.templateId ?? null });
  if (ledgerId) await attachDocument(ctx.db, ledgerId, row.id);
  generate(ctx, session, row, personal, undefined, charge);
  return row;
}

export async function requestChange(ctx: AppContext, session: SessionRow, doc: string, change: { kind: 'text' | 'markdown'; content: string }): Promise<DocumentRow> {
  const key = resolveDocumentKey(session, doc);
  const previous = await latestVersion(ctx, session.id, key);
  if (change.kind === 'markdown') {
    // A manual edit replaces the text as written: nothing to generate.
    return insertVersion(ctx, session.id, key, { status: 'done', text: change.content, engine: 'manual', changeKind: 'markdown', templateId: previous?.templateId ?? null, completedAt: new Date() });
  }
  if (!previous || previous.status !== 'done') throw new DomainError(409, 'invalid_request', 'There is no finished version to change yet');
  // A change keeps the template the previous version was written with; only the guide is read again.
  const personal = { ...(await personalisation(ctx, session, key)), templateId: previous.templateId ?? undefined, template: undefined };
  const { charge, ledgerId } = await chargeIfAi(ctx, session);
  const row = await insertVersion(ctx, session.id, key, { changeKind: 'text', changeText: change.content, templateId: previous.templateId });
  if (ledgerId) await attachDocument(ctx.db, ledgerId, row.id);
  generate(ctx, session, row, personal, { previousText: previous.text, instructions: change.content }, charge);
  return row;
}

/**
 * Generations cut short by a restart are marked failed, so the clinician sees "Generation failed" and retries.
 * With the embedded database this process is the only writer; with several API processes only generations far
 * older than any real one count as interrupted.
 */
export async function failInterruptedGenerations(ctx: AppContext, olderThanMs: number): Promise<void> {
  await ctx.db
    .update(generatedDocuments)
    .set({ status: 'failed', error: 'interrupted by a server restart', completedAt: new Date() })
    .where(and(eq(generatedDocuments.status, 'generating'), lt(generatedDocuments.createdAt, new Date(Date.now() - olderThanMs))));
}

export async function saveFeedback(ctx: AppContext, documentId: string, userId: string, rating: number, comment?: string) {
  const [row] = await ctx.db
    .insert(documentFeedback)
    .values({ documentId, userId, rating, comment: comment ?? null })
    .onConflictDoUpdate({ target: [documentFeedback.documentId, documentFeedback.userId], set: { rating, comment: comment ?? null, createdAt: new Date() } })
    .returning();
  return row!;
}

export async function listFeedback(ctx: AppContext, sessionId: string, key: string, userId: string) {
  const rows = await ctx.db
    .select({ version: generatedDocuments.version, rating: documentFeedback.rating, comment: documentFeedback.comment })
    .from(documentFeedback)
    .innerJoin(generatedDocuments, eq(generatedDocuments.id, documentFeedback.documentId))
    .where(and(eq(generatedDocuments.sessionId, sessionId), eq(generatedDocuments.documentKey, key), eq(documentFeedback.userId, userId)))
    .orderBy(generatedDocuments.version);
  return rows;
}
