/**
 * Takes over documents whose writer died. A version being written (`generating`) holds a lease its process renews
 * (service.ts, holdLease); a process that crashed or was killed stops renewing, and once the lease has passed any
 * live process claims the version (one claim per row: FOR UPDATE SKIP LOCKED, takeovers + 1) and writes it again
 * from the start. The debit taken when it was started stays attached; after MAX_TAKEOVERS the version is failed
 * and refunded, as any failed generation is.
 *
 * Every process sweeps every GENERATION_SWEEP_SECONDS. With the embedded database this process is the only
 * writer, so at start it takes over every `generating` version at once, without waiting for leases to pass.
 */
import { and, desc, eq, isNull, lt, notInArray, or, sql } from 'drizzle-orm';
import { findUserById } from '../../auth/users.js';
import { generatedDocuments } from '../../db/schema.js';
import type { AppContext } from '../../app-context.js';
import type { Database } from '../../db/client.js';
import { describeErrorSafely } from '../../errors/safe-errors.js';
import { findSessionById } from '../consultation_sessions/repository.js';
import { isChargedFor, refundGeneration } from '../credits/service.js';
import { findOwnTemplate } from '../processor_inputs/service.js';
import { findGuide } from '../selectable_documents/service.js';
import { dbTimeIn, resumeVersion, type Change, type DocumentRow } from './service.js';

/** A version whose writers keep dying (a document that crashes the engine) is failed after this many takeovers. */
export const MAX_TAKEOVERS = 3;
/** At most this many versions claimed per sweep by one process, so a backlog is shared between processes. */
const CLAIMS_PER_SWEEP = 20;

/**
 * Claims one version whose lease has passed (or any generating one, with `all`), or undefined when none is left.
 * The versions this pass already claimed are being written again here: `all` must not claim them once more.
 */
async function claimOne(ctx: AppContext, all: boolean, claimed: string[]): Promise<DocumentRow | undefined> {
  const expired = or(isNull(generatedDocuments.leaseUntil), lt(generatedDocuments.leaseUntil, sql`now()`));
  const candidate = ctx.db
    .select({ id: generatedDocuments.id })
    .from(generatedDocuments)
    .where(and(eq(generatedDocuments.status, 'generating'), all ? undefined : expired, claimed.length ? notInArray(generatedDocuments.id, claimed) : undefined))
    .orderBy(generatedDocuments.leaseUntil)
    .limit(1)
    .for('update', { skipLocked: true });
  const [row] = await ctx.db
    .update(generatedDocuments)
    // Written again from the start: the text saved so far for readers on other processes goes with the old writer.
    .set({ leaseUntil: dbTimeIn(ctx.config.generationLeaseMs), takeovers: sql`${generatedDocuments.takeovers} + 1`, text: '' })
    .where(and(eq(generatedDocuments.id, sql`(${candidate})`), eq(generatedDocuments.status, 'generating')))
    .returning();
  return row;
}

/** Fails a version that cannot be written again, refunding its debit, unless someone else claimed it since. */
async function giveUp(ctx: AppContext, row: DocumentRow, userId: string | undefined, reason: string) {
  const user = userId ? await findUserById(ctx.db, userId) : undefined;
  // The failure and its refund are one change: a process dying between them cannot leave a failed version charged.
  await ctx.db.transaction(async (tx) => {
    const t = tx as unknown as Database;
    const failed = await t
      .update(generatedDocuments)
      .set({ status: 'failed', error: `generation_failed: ${reason}`, completedAt: new Date(), leaseUntil: null })
      .where(and(eq(generatedDocuments.id, row.id), eq(generatedDocuments.status, 'generating'), eq(generatedDocuments.takeovers, row.takeovers)))
      .returning({ id: generatedDocuments.id });
    if (failed.length > 0 && user && (await isChargedFor(t, row.id))) await refundGeneration(t, user, row.id);
  });
}

/** Starts writing a claimed version again, with what it was started with: template, guide, change request. */
async function resume(ctx: AppContext, row: DocumentRow): Promise<void> {
  const session = await findSessionById(ctx.db, row.sessionId);
  // A deleted consultation takes its documents with it; nothing to write.
  if (!session) return;
  if (row.takeovers > MAX_TAKEOVERS) return giveUp(ctx, row, session.userId, 'interrupted too many times; try again');
  let change: Change | undefined;
  if (row.changeKind === 'text') {
    const [previous] = await ctx.db
      .select()
      .from(generatedDocuments)
      .where(
        and(
          eq(generatedDocuments.sessionId, row.sessionId),
          eq(generatedDocuments.documentKey, row.documentKey),
          eq(generatedDocuments.status, 'done'),
          lt(generatedDocuments.version, row.version),
        ),
      )
      .orderBy(desc(generatedDocuments.version))
      .limit(1);
    if (!previous) return giveUp(ctx, row, session.userId, 'the version to change is gone; try again');
    change = { previousText: previous.text, instructions: row.changeText ?? '' };
  }
  // A change keeps the template of the version it changes; only the guide is read again (as service.ts does).
  const template = row.templateId && !change ? await findOwnTemplate(ctx.db, session.userId, row.templateId).catch(() => undefined) : undefined;
  const personal = { templateId: row.templateId ?? undefined, template: template?.text, guide: await findGuide(ctx.db, session.userId, row.documentKey) };
  const user = await findUserById(ctx.db, session.userId);
  const charge = user && (await isChargedFor(ctx.db, row.id)) ? { user } : undefined;
  resumeVersion(ctx, session, row, personal, change, charge);
}

/** One pass: claims and restarts the versions whose writer died. Returns how many it took over. */
export async function takeOverGenerations(ctx: AppContext, opts: { all?: boolean } = {}): Promise<number> {
  const claimed: string[] = [];
  // With `all` (start-up) the whole backlog is this process's alone; a sweep leaves some for the other processes.
  while ((opts.all || claimed.length < CLAIMS_PER_SWEEP) && !ctx.shutdown.aborted) {
    const row = await claimOne(ctx, opts.all ?? false, claimed);
    if (!row) break;
    claimed.push(row.id);
    await resume(ctx, row);
  }
  return claimed.length;
}

export type GenerationTakeover = { stop: () => Promise<void> };

/** Sweeps every `everyMs` until stopped (at shutdown); 0 runs no sweeps. */
export function startGenerationTakeover(
  ctx: AppContext,
  opts: { everyMs: number; log: { info: (o: object, m: string) => void; error: (o: object, m: string) => void } },
): GenerationTakeover {
  if (opts.everyMs <= 0) return { stop: async () => undefined };
  let running: Promise<unknown> = Promise.resolve();
  const tick = () => {
    running = running
      .then(async () => {
        const taken = await takeOverGenerations(ctx);
        if (taken) opts.log.info({ taken }, 'took over documents whose writer stopped');
      })
      .catch((err: unknown) => {
        if (!ctx.shutdown.aborted) opts.log.error({ err: describeErrorSafely(err) }, 'document takeover sweep failed');
      });
  };
  const timer = setInterval(tick, opts.everyMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
