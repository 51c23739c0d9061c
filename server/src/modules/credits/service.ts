import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { UserRow } from '../../auth/users.js';
import type { Database } from '../../db/client.js';
import { creditLedger, organizations, users } from '../../db/schema.js';
import { DomainError } from '../../errors/domain-error.js';

/** One AI-written document costs one credit; the offline composer costs nothing. */
export const GENERATION_COST = 1;

export type CreditAccount = { organizationId: string } | { ownerUserId: string };

export const accountOf = (user: Pick<UserRow, 'id' | 'organizationId'>): CreditAccount =>
  user.organizationId ? { organizationId: user.organizationId } : { ownerUserId: user.id };

const accountWhere = (a: CreditAccount) =>
  'organizationId' in a
    ? eq(creditLedger.organizationId, a.organizationId)
    : and(isNull(creditLedger.organizationId), eq(creditLedger.ownerUserId, a.ownerUserId));

export async function balanceOf(db: Database, account: CreditAccount): Promise<number> {
  const [row] = await db
    .select({ total: sql<number>`coalesce(sum(${creditLedger.amount}), 0)::int` })
    .from(creditLedger)
    .where(accountWhere(account));
  return Number(row?.total ?? 0);
}

/** Why credits were added: by support (with its own note), or on opening the account. The app translates the reason. */
export type GrantReason = 'grant' | 'initial_grant';

export async function grantCredits(db: Database, account: CreditAccount, amount: number, note?: string, actorUserId?: string, reason: GrantReason = 'grant') {
  await db.insert(creditLedger).values({ ...account, amount, reason, note, actorUserId });
}

/**
 * Takes the cost of one generation, or answers 402 when the account cannot pay it. The account's row is locked
 * for the check, so two generations at once cannot both spend the last credit.
 */
export async function debitGeneration(
  db: Database,
  user: Pick<UserRow, 'id' | 'organizationId'>,
  reason: 'generation' | 'screening' = 'generation',
): Promise<{ ledgerId: string }> {
  const account = accountOf(user);
  return db.transaction(async (tx) => {
    const t = tx as unknown as Database;
    if ('organizationId' in account)
      await t.select({ id: organizations.id }).from(organizations).where(eq(organizations.id, account.organizationId)).for('update');
    else await t.select({ id: users.id }).from(users).where(eq(users.id, account.ownerUserId)).for('update');
    if ((await balanceOf(t, account)) < GENERATION_COST) {
      throw new DomainError(402, 'insufficient_credits', 'No credits left. Ask your organization to buy more through support; your consultation is kept.');
    }
    const [row] = await t
      .insert(creditLedger)
      .values({ ...account, amount: -GENERATION_COST, reason, actorUserId: user.id })
      .returning({ id: creditLedger.id });
    return { ledgerId: row!.id };
  });
}

export async function refundGeneration(
  db: Database,
  user: Pick<UserRow, 'id' | 'organizationId'>,
  documentId: string,
  reason: 'refund' | 'screening_refund' = 'refund',
) {
  await db.insert(creditLedger).values({ ...accountOf(user), amount: GENERATION_COST, reason, actorUserId: user.id, documentId });
}

/** Whether a document's debit stands (debited and not refunded): a taken-over version keeps it, or refunds it. */
export async function isChargedFor(db: Database, documentId: string): Promise<boolean> {
  const [row] = await db
    .select({ total: sql<number>`coalesce(sum(${creditLedger.amount}), 0)::int` })
    .from(creditLedger)
    .where(eq(creditLedger.documentId, documentId));
  return Number(row?.total ?? 0) < 0;
}

export async function attachDocument(db: Database, ledgerId: string, documentId: string) {
  await db.update(creditLedger).set({ documentId }).where(eq(creditLedger.id, ledgerId));
}

export async function ledgerOf(db: Database, account: CreditAccount, limit = 200) {
  return db
    .select({
      id: creditLedger.id,
      amount: creditLedger.amount,
      reason: creditLedger.reason,
      note: creditLedger.note,
      createdAt: creditLedger.createdAt,
      userName: users.name,
    })
    .from(creditLedger)
    .leftJoin(users, eq(users.id, creditLedger.actorUserId))
    .where(accountWhere(account))
    .orderBy(desc(creditLedger.createdAt))
    .limit(limit);
}
