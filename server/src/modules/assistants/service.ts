import { engineFailureSummary } from '../../ai/engine-check.js';
import { randomUUID } from 'node:crypto';
import { and, asc, eq } from 'drizzle-orm';
import type { Language } from '../../../../contract/constants.js';
import { promptFile } from '../../ai/prompts.js';
import type { UserRow } from '../../auth/users.js';
import { assistantMessages, assistantRuns, assistantThreads } from '../../db/schema.js';
import type { AppContext } from '../../app-context.js';
import type { Database } from '../../db/client.js';
import { DomainError, notFound } from '../../errors/domain-error.js';
import { debitGeneration, refundGeneration } from '../credits/service.js';
import { findAssistant } from './catalogue.js';
import { cutOffCode } from '../../ai/text-cut-off.js';
import { errorCodes, type ErrorCode } from '../../../../contract/errors.js';

/** A run's stored error as answered: its words, and the code before them when it has one (an engine's failure). */
function runError(stored: string | null): { error: string | null; error_code: ErrorCode | null } {
  const [code, words] = stored?.split(/: (.*)/s) ?? [];
  if (stored && words !== undefined && (errorCodes as readonly string[]).includes(code!)) return { error: words, error_code: code as ErrorCode };
  return { error: stored, error_code: null };
}

const HISTORY_LIMIT = 40;

async function findThread(ctx: AppContext, userId: string, threadKey: string) {
  const [thread] = await ctx.db
    .select()
    .from(assistantThreads)
    .where(and(eq(assistantThreads.userId, userId), eq(assistantThreads.threadKey, threadKey)));
  return thread;
}

/** Stores the question and starts a run in the background; answers the keys to poll with. */
export async function ask(ctx: AppContext, user: UserRow, input: { message: string; assistant_key: string; thread_key?: string }) {
  if (!findAssistant(input.assistant_key)) throw new DomainError(400, 'invalid_request', 'Unknown assistant', { assistant_key: 'unknown' });
  let thread = input.thread_key ? await findThread(ctx, user.id, input.thread_key) : undefined;
  if (thread && thread.assistantKey !== input.assistant_key)
    throw new DomainError(400, 'invalid_request', 'This conversation belongs to another assistant', { thread_key: 'other_assistant' });
  if (!thread) {
    const [created] = await ctx.db
      .insert(assistantThreads)
      .values({ userId: user.id, assistantKey: input.assistant_key, threadKey: input.thread_key ?? randomUUID() })
      .returning();
    thread = created!;
  }
  const charged = ctx.textGenerator.converse && ctx.textGenerator.info.usesAi ? await debitGeneration(ctx.db, user) : undefined;
  await ctx.db.insert(assistantMessages).values({ threadId: thread.id, role: 'user', content: input.message });
  const [run] = await ctx.db.insert(assistantRuns).values({ threadId: thread.id, status: 'queued' }).returning();
  const work = answer(ctx, user, thread, run!.id, Boolean(charged)).catch(() => undefined);
  ctx.background.add(work);
  void work.finally(() => ctx.background.delete(work));
  return { assistant_key: thread.assistantKey, thread_key: thread.threadKey, run_key: run!.id, status: 'queued' as const };
}

async function answer(ctx: AppContext, user: UserRow, thread: typeof assistantThreads.$inferSelect, runId: string, charged: boolean) {
  const finish = (status: 'completed' | 'failed', error?: string, db: Database = ctx.db) =>
    db
      .update(assistantRuns)
      .set({ status, error: error ?? null, completedAt: new Date() })
      .where(eq(assistantRuns.id, runId));
  if (!ctx.textGenerator.converse) {
    await finish('failed', 'The assistant needs an AI engine, and none is configured on this server.');
    return;
  }
  await ctx.db.update(assistantRuns).set({ status: 'in_progress' }).where(eq(assistantRuns.id, runId));
  try {
    const history = await ctx.db.select().from(assistantMessages).where(eq(assistantMessages.threadId, thread.id)).orderBy(asc(assistantMessages.createdAt));
    const system = promptFile(user.language as Language, `assistant_${thread.assistantKey}`).text;
    let reply = '';
    for await (const delta of ctx.textGenerator.converse({
      system,
      messages: history.slice(-HISTORY_LIMIT).map((m) => ({ role: m.role === 'assistant' ? 'assistant' : 'user', content: m.content })),
    })) {
      reply += delta;
    }
    await ctx.db.insert(assistantMessages).values({ threadId: thread.id, role: 'assistant', content: reply });
    await finish('completed');
  } catch (err) {
    // A reply the engine did not finish (ai/text-cut-off.ts) is not kept, not even in part, and not paid for: the
    // run's failure and the refund are one change.
    await ctx.db.transaction(async (tx) => {
      const t = tx as unknown as Database;
      if (charged) await refundGeneration(t, user, runId);
      // The code first (as a failed document's), for the app to say why: runState splits it off.
      await finish('failed', `${cutOffCode(err)}: ${engineFailureSummary(err)}`, t);
    });
  }
}

export async function runState(ctx: AppContext, userId: string, q: { assistant_key: string; thread_key: string; run_key: string }) {
  const thread = await findThread(ctx, userId, q.thread_key);
  if (!thread || thread.assistantKey !== q.assistant_key) throw notFound('Conversation not found');
  const [run] = await ctx.db
    .select()
    .from(assistantRuns)
    .where(and(eq(assistantRuns.id, q.run_key), eq(assistantRuns.threadId, thread.id)));
  if (!run) throw notFound('Run not found');
  const messages = await ctx.db.select().from(assistantMessages).where(eq(assistantMessages.threadId, thread.id)).orderBy(asc(assistantMessages.createdAt));
  return {
    run_key: run.id,
    status: run.status as 'queued' | 'in_progress' | 'completed' | 'failed',
    ...runError(run.error),
    messages: messages.map((m) => ({ role: m.role, content: m.content, created_at: m.createdAt.toISOString() })),
  };
}
