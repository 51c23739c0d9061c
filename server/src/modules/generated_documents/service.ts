import { countJobFailure, timeDocumentWriting } from '../../observability/metrics-registry.js';
import { and, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { evidenceFor, partsInTranscript, unsupportedTerms, type PartText } from './evidence.js';
import { isLanguage, type Language } from '../../../../contract/constants.js';
import { NOTES_FIELDS, type NotesData } from '../../ai/text-generator.js';
import { findUserById, type UserRow } from '../../auth/users.js';
import { applyTextCommand } from '../../ai/structurer/text-commands.js';
import { attachDocument, debitGeneration, refundGeneration } from '../credits/service.js';
import type { Database } from '../../db/client.js';
import { documentFeedback, generatedDocuments } from '../../db/schema.js';
import { transcriptQualityLine, withoutQualityLine } from '../../ai/transcript-quality.js';
import type { AppContext } from '../../app-context.js';
import { DomainError, notFound } from '../../errors/domain-error.js';
import { findConsultationType, PATIENT_LANGUAGE_INPUT, templateInputId } from '../consultation_types/catalogue.js';
import { findOwnTemplate } from '../processor_inputs/service.js';
import { findGuide } from '../selectable_documents/service.js';
import { findSessionById, listTranscribedParts, type SessionRow } from '../consultation_sessions/repository.js';
import { flagsOfComposerVersion, flagsOfHandEdit, flagsOfModelVersion, priorOf, requestedTerms, termsToCheck, withChecked, type PriorFlags } from './flags.js';
import { assembleTranscription, partWaitOver, transcriptEngines } from '../consultation_sessions/transcription.js';
import { describeErrorSafely } from '../../errors/safe-errors.js';
import { cutOffCode } from '../../ai/text-cut-off.js';

export type DocumentRow = typeof generatedDocuments.$inferSelect;

/** How often a waiting generation looks at the parts again. */
const PART_POLL_MS = 500;

/** `main` is the consultation type's first document; any other key must be one of its selectable documents. */
export function resolveDocumentKey(session: SessionRow, doc: string): string {
  const type = findConsultationType(session.consultationTypeId);
  const key = doc === 'main' ? type?.documents[0] : doc;
  if (!type || !key || !type.documents.includes(key)) throw notFound('This consultation has no such document');
  return key;
}

export async function latestVersion(ctx: Pick<AppContext, 'db'>, sessionId: string, key: string): Promise<DocumentRow | undefined> {
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

/** The database's clock plus a duration: every process compares leases with the same clock. */
export const dbTimeIn = (ms: number) => sql`now() + ${`${Math.round(ms)} milliseconds`}::interval`;

/**
 * Inserts the next version. A finish-triggered version exists at most once per document (a partial unique
 * index): undefined when another request already inserted it.
 */
async function insertVersion(
  ctx: AppContext,
  db: Database,
  sessionId: string,
  key: string,
  values: Partial<typeof generatedDocuments.$inferInsert>,
): Promise<DocumentRow | undefined> {
  // Two requests racing for the same next version: the unique index refuses one, which then takes the next.
  for (let attempt = 0; attempt < 5; attempt++) {
    const next = ((await latestVersion({ db }, sessionId, key))?.version ?? 0) + 1;
    const status = values.status ?? 'generating';
    const [row] = await db
      .insert(generatedDocuments)
      .values({
        sessionId,
        documentKey: key,
        version: next,
        status,
        engine: ctx.textGenerator.info.engine,
        ...(status === 'generating' ? { leaseUntil: dbTimeIn(ctx.config.generationLeaseMs) } : {}),
        ...values,
      })
      .onConflictDoNothing()
      .returning();
    if (row) return row;
    if (values.finishTriggered && (await findFinishTriggered(db, sessionId, key))) return undefined;
  }
  throw new DomainError(409, 'invalid_request', 'Too many simultaneous changes to this document');
}

async function findFinishTriggered(db: Database, sessionId: string, key: string): Promise<DocumentRow | undefined> {
  const [row] = await db
    .select()
    .from(generatedDocuments)
    .where(and(eq(generatedDocuments.sessionId, sessionId), eq(generatedDocuments.documentKey, key), eq(generatedDocuments.finishTriggered, true)));
  return row;
}

/**
 * Inserts a version to be written and takes its cost in one transaction: a version refused as a duplicate is
 * never debited, and a 402 (no credits left) leaves no version behind. AI engines cost credits; the offline
 * composer is free. `created` is false when the finish-triggered version already existed (returned as it is).
 */
async function insertCharged(
  ctx: AppContext,
  session: SessionRow,
  key: string,
  values: Partial<typeof generatedDocuments.$inferInsert>,
): Promise<{ row: DocumentRow; created: true; charge?: Charge } | { row: DocumentRow; created: false }> {
  const user = ctx.textGenerator.info.usesAi ? await findUserById(ctx.db, session.userId) : undefined;
  if (ctx.textGenerator.info.usesAi && !user) throw notFound('Consultation not found');
  const row = await ctx.db.transaction(async (tx) => {
    const t = tx as unknown as Database;
    const inserted = await insertVersion(ctx, t, session.id, key, values);
    if (inserted && user) {
      const { ledgerId } = await debitGeneration(t, user);
      await attachDocument(t, ledgerId, inserted.id);
    }
    return inserted;
  });
  if (row) return { row, created: true, charge: user ? { user } : undefined };
  const existing = await findFinishTriggered(ctx.db, session.id, key);
  if (!existing) throw new DomainError(409, 'invalid_request', 'Too many simultaneous changes to this document');
  return { row: existing, created: false };
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

/**
 * The language a document is written in: the clinician's, except a patient summary, written in the patient's
 * language when the consultation data name one (a patient who reads another language than the clinician).
 */
export function documentLanguage(session: Pick<SessionRow, 'userInputs'>, key: string, clinicianLanguage: Language): Language {
  if (key !== 'patient_summary') return clinicianLanguage;
  const chosen = (session.userInputs as { processor_input_id?: string; value?: string }[]).find((i) => i.processor_input_id === PATIENT_LANGUAGE_INPUT)?.value;
  return isLanguage(chosen) ? chosen : clinicianLanguage;
}

/** Whether a document is a consultation's notes, beside which what was said and left out is listed. */
const isNotes = (key: string) => key === 'consultation_notes';

/**
 * The consultation notes as the clinician corrected them (a later version of the main document than the first,
 * by hand or by a change request), for any other document written after: undefined for the notes themselves,
 * and while nobody has corrected them.
 */
async function correctedNotes(ctx: AppContext, session: SessionRow, key: string): Promise<string | undefined> {
  const main = findConsultationType(session.consultationTypeId)?.documents[0];
  if (!main || main === key) return undefined;
  const [latest] = await ctx.db
    .select({ version: generatedDocuments.version, text: generatedDocuments.text })
    .from(generatedDocuments)
    .where(and(eq(generatedDocuments.sessionId, session.id), eq(generatedDocuments.documentKey, main), eq(generatedDocuments.status, 'done')))
    .orderBy(desc(generatedDocuments.version))
    .limit(1);
  return latest && latest.version > 1 && latest.text.trim() ? latest.text : undefined;
}

/**
 * What the finished versions of a document (those before `beforeVersion`, when given) and the latest finished
 * notes of its consultation say about terms: flagged, confirmed, or written in by the clinician. The notes count for
 * every other document, which repeats what they hold.
 */
async function priorFlagsFor(ctx: AppContext, session: SessionRow, key: string, beforeVersion?: number): Promise<PriorFlags> {
  const main = findConsultationType(session.consultationTypeId)?.documents[0];
  const keys = main && main !== key ? [key, main] : [key];
  const rows = await ctx.db
    .select({ key: generatedDocuments.documentKey, version: generatedDocuments.version, evidence: generatedDocuments.evidence })
    .from(generatedDocuments)
    .where(and(eq(generatedDocuments.sessionId, session.id), inArray(generatedDocuments.documentKey, keys), eq(generatedDocuments.status, 'done')));
  const own = rows.filter((r) => r.key === key && (beforeVersion === undefined || r.version < beforeVersion));
  const notes = rows.filter((r) => r.key !== key).sort((a, b) => b.version - a.version)[0];
  return priorOf([...own.map((r) => r.evidence), notes?.evidence]);
}

export type Personalisation = { templateId?: string; template?: string; guide?: string };

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

/**
 * The transcript to write from, once it has stopped growing. When the finish named its part count, that is when
 * each of those parts is stored and transcribed, or PART_WAIT_SECONDS after the finish (then the transcript marks
 * the missing stretch); without a count, when the stored parts are transcribed or that long from now. The session
 * is read again on every look: a repeated finish may raise the count, the clinician may type the transcript.
 */
async function waitForTranscript(
  ctx: AppContext,
  sessionId: string,
  stop: () => boolean,
  language: Language,
): Promise<{ transcript: string; session: SessionRow | undefined; parts?: PartText[]; engines: string[] }> {
  const started = Date.now();
  for (;;) {
    const session = await findSessionById(ctx.db, sessionId);
    if (!session) return { transcript: '', session, engines: [] };
    // The clinician's own text wins, without waiting for the parts; it is theirs, not an engine's.
    if (session.transcriptionOverride !== null) return { transcript: session.transcriptionOverride, session, engines: [] };
    const waitOver = session.expectedParts !== null ? partWaitOver(session, ctx.config.partWaitMs) : Date.now() - started >= ctx.config.partWaitMs;
    // Every half second while parts are awaited: read again only when they changed.
    const chunks = await ctx.partsCache.parts(ctx.db, session.id);
    const assembled = ctx.partsCache.work(session.id, chunks).assemble(chunks, { expectedParts: session.expectedParts, waitOver, language });
    if (assembled.status !== 'processing' || waitOver || stop())
      return { transcript: assembled.text, session, parts: partsInTranscript(assembled.text, chunks), engines: transcriptEngines(chunks) };
    await new Promise((r) => setTimeout(r, PART_POLL_MS));
  }
}

/**
 * Keeps a version's lease while this process writes it. `lost` turns true when another process took the version
 * over (its takeovers count moved on): this writer must then stop and save nothing.
 */
function holdLease(ctx: AppContext, row: DocumentRow) {
  let lost = false;
  const renew = async () => {
    try {
      const kept = await ctx.db
        .update(generatedDocuments)
        .set({ leaseUntil: dbTimeIn(ctx.config.generationLeaseMs) })
        .where(ownedBy(row))
        .returning({ id: generatedDocuments.id });
      if (kept.length === 0) lost = true;
    } catch (err) {
      // A database blip: the next renewal tries again, well inside the lease.
      if (!ctx.shutdown.aborted) console.error('document generation could not renew its lease', describeErrorSafely(err));
    }
  };
  const timer = setInterval(() => void renew(), Math.max(50, ctx.config.generationLeaseMs / 3));
  return {
    get lost() {
      return lost;
    },
    stop: () => clearInterval(timer),
  };
}

/** The version still generating under the same owner: a writer's updates are fenced by its takeovers count. */
const ownedBy = (row: DocumentRow) =>
  and(eq(generatedDocuments.id, row.id), eq(generatedDocuments.status, 'generating'), eq(generatedDocuments.takeovers, row.takeovers));

/** The writer stopped without a result: the server is shutting down, or another process took the version over. */
class WritingInterrupted extends Error {}

export type Charge = { user: UserRow };

export type Change = { previousText: string; instructions: string };

/** How often a version being written is saved as it grows, for readers connected to another process. */
const PARTIAL_SAVE_MS = 1000;

/** Writes one version in the background; the row says how it went, the live stream shows it being written. */

function generate(ctx: AppContext, session: SessionRow, row: DocumentRow, personal: Personalisation, change?: Change, charge?: Charge): void {
  const work = writeVersion(ctx, session, row, personal, change, charge).catch((err: unknown) => {
    if (!ctx.shutdown.aborted) console.error('document generation could not record its result', err);
  });
  ctx.background.add(work);
  void work.finally(() => ctx.background.delete(work));
}

/**
 * The engine's pieces until the process stops: a stopping process hands the version over at once instead of
 * waiting for an engine that has not said anything yet (a local model reading a long transcript).
 */
async function* untilStopped<T>(signal: AbortSignal, pieces: AsyncIterable<T>): AsyncGenerator<T> {
  const iterator = pieces[Symbol.asyncIterator]();
  let stop: () => void = () => undefined;
  const stopped = new Promise<never>((_resolve, reject) => {
    stop = () => reject(new WritingInterrupted());
    if (signal.aborted) stop();
    else signal.addEventListener('abort', stop, { once: true });
  });
  stopped.catch(() => undefined);
  try {
    for (;;) {
      const next = await Promise.race([iterator.next(), stopped]);
      if (next.done) return;
      yield next.value;
    }
  } finally {
    signal.removeEventListener('abort', stop);
    // Not awaited: an engine still inside its own await would hold this up.
    void Promise.resolve(iterator.return?.()).catch(() => undefined);
  }
}

async function writeVersion(ctx: AppContext, session: SessionRow, row: DocumentRow, personal: Personalisation, change?: Change, charge?: Charge) {
  ctx.liveDocuments.begin(row.id, row.takeovers);
  const lease = holdLease(ctx, row);
  const interrupted = () => ctx.shutdown.aborted || lease.lost;
  let text = '';
  /** Times the writing itself, from the transcript being ready (the wait for the parts is not the writer's). */
  let writing: ((outcome: 'done' | 'failed') => void) | undefined;
  try {
    const user = await findUserById(ctx.db, session.userId);
    const language = (user?.language ?? 'pt') as Language;
    // The marks of missing words are written in the document's language, as the rest of its text.
    const waited = await waitForTranscript(ctx, session.id, interrupted, documentLanguage(session, row.documentKey, language));
    writing = timeDocumentWriting();
    if (interrupted()) throw new WritingInterrupted();
    const data = notesData(waited.session ?? session);
    const date = new Date();
    // The engine that writes it: an administrator may have changed the engine since the version was inserted.
    const writer = ctx.textGenerator.info;
    let savedAt = Date.now();
    let saving: Promise<unknown> | undefined;
    const outputLanguage = documentLanguage(waited.session ?? session, row.documentKey, language);
    const corrected = change ? undefined : await correctedNotes(ctx, waited.session ?? session, row.documentKey);
    // Written from the text alone: the line about the transcript's quality is the new version's own (added below).
    const editedNotes = corrected === undefined ? undefined : withoutQualityLine(corrected);
    const asked = change ? { ...change, previousText: withoutQualityLine(change.previousText) } : undefined;
    for await (const delta of untilStopped(
      ctx.shutdown,
      ctx.textGenerator.write({
        documentKind: row.documentKey,
        language,
        ...(outputLanguage !== language ? { outputLanguage } : {}),
        transcript: waited.transcript,
        data,
        clinician: { name: user?.name ?? '' },
        date,
        template: personal.template,
        guide: personal.guide,
        change: asked,
        ...(editedNotes ? { editedNotes } : {}),
      }),
    )) {
      if (interrupted()) throw new WritingInterrupted();
      text += delta;
      ctx.liveDocuments.append(row.id, delta);
      // With several processes, a reader on another one starts from the saved text: saved about once a second,
      // one save at a time, never holding the writing up; a failed save is only a reader catching up later.
      if (ctx.config.databaseUrl && !saving && Date.now() - savedAt >= PARTIAL_SAVE_MS) {
        savedAt = Date.now();
        saving = ctx.db
          .update(generatedDocuments)
          .set({ text })
          .where(ownedBy(row))
          .then(
            () => undefined,
            (err: unknown) => console.error('a document being written could not be saved as it grows', describeErrorSafely(err)),
          )
          .finally(() => (saving = undefined));
      }
    }
    await saving;
    const written = text;
    // Every copy of the document (on screen, copied, as a PDF, in the record system) says how good its transcript was.
    // A transcript the clinician wrote over names no engine: only its uncertain words still speak.
    const quality = transcriptQualityLine({ engines: waited.engines, transcript: waited.transcript }, outputLanguage);
    if (quality) {
      const footer = `${text.endsWith('\n') ? '' : '\n'}\n${quality}\n`;
      text += footer;
      ctx.liveDocuments.append(row.id, footer);
    }
    const sources = { transcript: waited.transcript, clinician: user?.name ?? '', language, date };
    const linked = evidenceFor(written, {
      ...sources,
      data: { ...data, previous: change?.previousText ?? editedNotes },
      parts: waited.parts,
      omissions: isNotes(row.documentKey),
    });
    // Flags are checked against the transcript and the inputs only: never the version changed, the corrected
    // notes or the instructions (what those carry is judged by their own flags, and by the terms a change asks for).
    const prior = await priorFlagsFor(ctx, session, row.documentKey, row.version);
    const unsupported = (t: string) => unsupportedTerms(t, { ...sources, data });
    const requested = change ? requestedTerms(unsupported(change.instructions), unsupported(change.previousText)) : [];
    const flags = writer.usesAi ? flagsOfModelVersion(unsupported(written), prior, requested) : flagsOfComposerVersion(unsupported(written), prior);
    const evidence = { ...linked, ...flags };
    const saved = await ctx.db
      .update(generatedDocuments)
      .set({
        status: 'done',
        text,
        evidence,
        engine: writer.engine,
        model: writer.usesAi ? (writer.model ?? null) : null,
        completedAt: new Date(),
        leaseUntil: null,
      })
      .where(ownedBy(row))
      .returning({ id: generatedDocuments.id });
    if (saved.length > 0) writing('done');
    // Charged for an AI engine that was replaced by the free composer before it began: given back.
    if (charge && saved.length > 0 && !writer.usesAi) await refundGeneration(ctx.db, charge.user, row.id);
    ctx.liveDocuments.end(row.id, saved.length > 0);
  } catch (err) {
    if (err instanceof WritingInterrupted) {
      // Shutting down: hand the version to the next process at once (its lease ends now) instead of failing it.
      if (!lease.lost) await ctx.db.update(generatedDocuments).set({ leaseUntil: sql`now()` }).where(ownedBy(row));
      ctx.liveDocuments.end(row.id, false);
      return;
    }
    writing?.('failed');
    countJobFailure('document', 'failed');
    // The transcript and inputs are untouched; the clinician can write it again. What the engine wrote before it
    // stopped stays on the failed version, shown only as an incomplete draft (never copied, exported or sent).
    // A document that was not written is not paid for (unless its new writer, elsewhere, is still at it): the
    // failure and the refund are one change, so a process dying between them cannot leave it charged.
    await ctx.db.transaction(async (tx) => {
      const t = tx as unknown as Database;
      const failed = await t
        .update(generatedDocuments)
        .set({ status: 'failed', text, error: failureText(err), completedAt: new Date(), leaseUntil: null })
        .where(ownedBy(row))
        .returning({ id: generatedDocuments.id });
      if (charge && failed.length > 0) await refundGeneration(t, charge.user, row.id);
    });
    ctx.liveDocuments.end(row.id, false);
  } finally {
    lease.stop();
  }
}

/**
 * What a failed version's `error` holds: the code the app explains (why the engine did not finish), then the
 * failure as it may be logged. view.ts reads the code back.
 */
const failureText = (err: unknown) => `${cutOffCode(err)}: ${describeErrorSafely(err)}`.slice(0, 500);

/** Writes a version claimed from a process that died (takeover.ts), from the start and without a new debit. */
export function resumeVersion(
  ctx: AppContext,
  session: SessionRow,
  row: DocumentRow,
  personal: Personalisation,
  change: Change | undefined,
  charge: Charge | undefined,
): void {
  generate(ctx, session, row, personal, change, charge);
}

/**
 * Starts writing a version. With `finishTriggered` (the request that finished the consultation) at most one such
 * version exists per document: a second start answers the first one's row, debiting nothing.
 */
export async function startGeneration(ctx: AppContext, session: SessionRow, doc: string, opts: { finishTriggered?: boolean } = {}): Promise<DocumentRow> {
  const key = resolveDocumentKey(session, doc);
  const personal = await personalisation(ctx, session, key);
  const started = await insertCharged(ctx, session, key, { templateId: personal.templateId ?? null, finishTriggered: opts.finishTriggered ?? false });
  if (started.created) generate(ctx, session, started.row, personal, undefined, started.charge);
  return started.row;
}

export async function requestChange(
  ctx: AppContext,
  session: SessionRow,
  doc: string,
  change: { kind: 'text' | 'markdown'; content: string },
): Promise<DocumentRow> {
  const key = resolveDocumentKey(session, doc);
  const previous = await latestVersion(ctx, session.id, key);
  if (change.kind === 'markdown') {
    // A manual edit replaces the text as written: nothing to generate; its sentences are linked all the same.
    const user = await findUserById(ctx.db, session.userId);
    const chunks = await listTranscribedParts(ctx.db, session.id);
    const transcript =
      session.transcriptionOverride ??
      assembleTranscription(chunks, { expectedParts: null, waitOver: false, language: (user?.language ?? 'pt') as Language }).text;
    // The line about the transcript's quality is no sentence of the consultation.
    const sources = { transcript, data: notesData(session), clinician: user?.name ?? '', language: (user?.language ?? 'pt') as Language, date: new Date() };
    const text = withoutQualityLine(change.content);
    const linked = evidenceFor(text, {
      ...sources,
      parts: session.transcriptionOverride === null ? partsInTranscript(transcript, chunks) : undefined,
      omissions: isNotes(key),
    });
    // What a model wrote and the clinician kept stays flagged until they confirm it; what they wrote in is theirs.
    const evidence = { ...linked, ...flagsOfHandEdit(unsupportedTerms(text, sources), await priorFlagsFor(ctx, session, key)) };
    const row = await insertVersion(ctx, ctx.db, session.id, key, {
      status: 'done',
      text: change.content,
      engine: 'manual',
      changeKind: 'markdown',
      templateId: previous?.templateId ?? null,
      completedAt: new Date(),
      evidence,
    });
    // Only a finish-triggered insert can come back empty.
    return row!;
  }
  if (previous?.status !== 'done') throw new DomainError(409, 'invalid_request', 'There is no finished version to change yet');
  // Without a model only simple requests can be made: any other is refused now, before a version or a charge,
  // and never written into the document.
  if (!ctx.textGenerator.info.usesAi) {
    const user = await findUserById(ctx.db, session.userId);
    if (applyTextCommand(previous.text, change.content, (user?.language ?? 'pt') as Language) === undefined) {
      throw new DomainError(422, 'change_not_applied', 'This change cannot be made without an AI engine; edit the text, or ask to add, remove or replace');
    }
  }
  // A change keeps the template the previous version was written with; only the guide is read again.
  const personal = { ...(await personalisation(ctx, session, key)), templateId: previous.templateId ?? undefined, template: undefined };
  const started = await insertCharged(ctx, session, key, { changeKind: 'text', changeText: change.content, templateId: previous.templateId });
  // Only a finish-triggered version can be refused as a duplicate; a change is always a new one.
  if (!started.created) return started.row;
  generate(ctx, session, started.row, personal, { previousText: previous.text, instructions: change.content }, started.charge);
  return started.row;
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

/**
 * The clinician signs the latest version of a document: from then on it is final, not a draft. `version`, when
 * given, is the one the clinician read: a newer one (written or changed since) is refused, so a signature never
 * lands on a text nobody looked at. Signing a signed version again changes nothing.
 */
export async function signDocument(ctx: AppContext, session: SessionRow, key: string, userId: string, version?: number): Promise<DocumentRow> {
  const latest = await latestVersion(ctx, session.id, key);
  if (!latest) throw notFound('This document has not been generated yet');
  if (version !== undefined && version !== latest.version) {
    throw new DomainError(409, 'version_not_latest', 'A newer version of this document exists; read it before signing');
  }
  if (latest.status !== 'done' || !latest.text.trim()) throw new DomainError(409, 'document_not_finished', 'Only a finished document can be signed');
  // A signature says the text is right: never over terms a model wrote that nobody said and the clinician has not checked.
  if (termsToCheck(latest.evidence).length > 0) throw new DomainError(409, 'terms_to_check', 'Check the flagged terms before signing');
  if (latest.signedAt) return latest;
  const [signed] = await ctx.db
    .update(generatedDocuments)
    .set({ signedAt: new Date(), signedBy: userId })
    .where(and(eq(generatedDocuments.id, latest.id), isNull(generatedDocuments.signedAt), eq(generatedDocuments.status, 'done')))
    .returning();
  // Signed by a request a moment earlier: that signature stands.
  return signed ?? (await findVersion(ctx, session.id, key, latest.version))!;
}

/**
 * The clinician confirms flagged terms of a version ("I have checked them"): they are no longer asked about, in
 * this version or in later ones that keep them. Only terms the version flags are taken.
 */
export async function confirmChecked(ctx: AppContext, session: SessionRow, key: string, version: number, terms: string[]): Promise<DocumentRow> {
  // Read and written under the row's lock: two confirmations at once both count.
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(generatedDocuments)
      .where(and(eq(generatedDocuments.sessionId, session.id), eq(generatedDocuments.documentKey, key), eq(generatedDocuments.version, version)))
      .for('update');
    if (!row) throw notFound('This version does not exist');
    if (row.status !== 'done' || !row.evidence) throw new DomainError(409, 'document_not_finished', 'Only a finished document can be checked');
    const [saved] = await tx
      .update(generatedDocuments)
      .set({ evidence: withChecked(row.evidence, terms) })
      .where(eq(generatedDocuments.id, row.id))
      .returning();
    return saved!;
  });
}
