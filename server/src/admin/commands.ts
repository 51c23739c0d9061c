/**
 * Support's admin commands, run either by the CLI on its own database connection or, while a server holds the
 * embedded database, by that server on the CLI's behalf (admin/admin-socket.ts). Each answers the lines to print.
 */
import { and, eq, or } from 'drizzle-orm';
import { z } from 'zod';
import type { Config } from '../config.js';
import type { Database } from '../db/client.js';
import { customDocumentRequests, organizations, users } from '../db/schema.js';
import { LANGUAGES, type Language } from '../../../contract/constants.js';
import { publishAnnouncement } from '../modules/announcements/service.js';
import { grantCredits } from '../modules/credits/service.js';
import { createOrganizationWithAdmin } from '../modules/organizations/service.js';
import { recordAdminCommand, verifyAuditLogCommand } from '../audit/admin-commands.js';
import { openAuditKeys } from '../audit/audit-key.js';
import { backupCommands } from './backup-commands.js';
import { UsageError } from './usage-error.js';

// Callers (the CLI, the admin socket, tests) take the error with the commands that throw it.
export { UsageError } from './usage-error.js';

const commands = {
  'create-organization': {
    usage: 'create-organization --name "Clinic name" --admin-email admin@example.com',
    args: z.object({ name: z.string().trim().min(1).max(200), 'admin-email': z.email().max(254) }),
    async run(db: Database, config: Config, args: { name: string; 'admin-email': string }) {
      const { signupLink } = await createOrganizationWithAdmin(db, {
        name: args.name,
        adminEmail: args['admin-email'].toLowerCase(),
        publicUrl: config.publicUrl,
        initialCredits: config.initialCredits,
      });
      return ['Organization created. Send this signup link to its admin (valid 7 days):', signupLink];
    },
  },
  'grant-credits': {
    usage: 'grant-credits --organization <id or exact name> --amount 100 [--note "invoice 42"]',
    args: z.object({
      organization: z.string().trim().min(1).max(200),
      amount: z.coerce.number().int().min(1).max(1_000_000),
      note: z.string().max(500).optional(),
    }),
    async run(db: Database, _config: Config, args: { organization: string; amount: number; note?: string }) {
      const isId = z.uuid().safeParse(args.organization).success;
      const found = await db
        .select()
        .from(organizations)
        .where(isId ? or(eq(organizations.id, args.organization), eq(organizations.name, args.organization)) : eq(organizations.name, args.organization));
      if (found.length !== 1)
        throw new UsageError(found.length ? `Several organizations are called "${args.organization}": use the id.` : `No organization "${args.organization}".`);
      await grantCredits(db, { organizationId: found[0]!.id }, args.amount, args.note);
      return [`Granted ${args.amount} credits to ${found[0]!.name} (${found[0]!.id}).`];
    },
  },
  'publish-announcement': {
    usage: 'publish-announcement --language pt --title "Novidade" --body "…" [--days 30]',
    args: z.object({
      language: z.enum(LANGUAGES),
      title: z.string().trim().min(1).max(120),
      body: z.string().trim().min(1).max(1000),
      days: z.coerce.number().int().min(1).max(365).default(30),
    }),
    async run(db: Database, _config: Config, args: { language: Language; title: string; body: string; days: number }) {
      const row = await publishAnnouncement(db, args);
      return [`Announcement published in ${args.language} until ${row.expiresAt.toISOString().slice(0, 10)} (${row.id}).`];
    },
  },
  'grant-server-admin': {
    usage: 'grant-server-admin --email someone@example.com',
    args: z.object({ email: z.email().max(254) }),
    run: (db: Database, _config: Config, args: { email: string }) => setServerAdmin(db, args.email, true),
  },
  'revoke-server-admin': {
    usage: 'revoke-server-admin --email someone@example.com',
    args: z.object({ email: z.email().max(254) }),
    run: (db: Database, _config: Config, args: { email: string }) => setServerAdmin(db, args.email, false),
  },
  'approve-custom-document': {
    usage: 'approve-custom-document --id <request id>',
    args: z.object({ id: z.uuid() }),
    async run(db: Database, _config: Config, args: { id: string }) {
      // Only a request sent and waiting: a draft is the clinician's still, an approved one stays as it was.
      const [row] = await db
        .update(customDocumentRequests)
        .set({ status: 'approved', approvedAt: new Date(), updatedAt: new Date() })
        .where(and(eq(customDocumentRequests.id, args.id), eq(customDocumentRequests.status, 'submitted')))
        .returning();
      if (!row) {
        const [found] = await db.select({ status: customDocumentRequests.status }).from(customDocumentRequests).where(eq(customDocumentRequests.id, args.id));
        throw new UsageError(
          found ? `That request is ${found.status === 'draft' ? 'still a draft' : 'already approved'}.` : `No custom document request ${args.id}.`,
        );
      }
      return [`Approved "${row.title}" (${row.id}); its author can make a new request now.`];
    },
  },
  'verify-audit-log': {
    usage: 'verify-audit-log [--expect-hash <newest hash of an earlier check>]',
    args: z.object({
      'expect-hash': z
        .string()
        .regex(/^[0-9a-f]{64}$/)
        .optional(),
    }),
    run: (db: Database, config: Config, args: { 'expect-hash'?: string }) =>
      verifyAuditLogCommand(db, openAuditKeys(config), args['expect-hash'], (message) => new UsageError(message)),
  },
  ...backupCommands,
} as const;

/**
 * Administrators of the server (settings › AI engines) are named only here, by someone with a shell on the
 * server: no API call can make anyone one.
 */
async function setServerAdmin(db: Database, email: string, grant: boolean): Promise<string[]> {
  const [user] = await db.select().from(users).where(eq(users.email, email.toLowerCase()));
  if (!user) throw new UsageError(`No account with the e-mail ${email}: the person signs up first.`);
  // Anyone may sign up with an address they do not own: only a confirmed one is known to be the operator's.
  if (grant && !user.emailConfirmedAt) throw new UsageError(`${email} is not confirmed yet: the person opens the confirmation mail first.`);
  await db.update(users).set({ serverAdmin: grant, updatedAt: new Date() }).where(eq(users.id, user.id));
  const who = `${user.name} <${user.email}> (${user.id})`;
  return [grant ? `${who} can now set this server's AI engines (settings › AI engines).` : `${who} can no longer set this server's AI engines.`];
}

export type CommandName = keyof typeof commands;
/** Every flag any command takes: given as strings on the command line, except a command's `booleanFlags` (--force). */
export const FLAGS = Object.fromEntries(
  Object.values(commands).flatMap((c) =>
    Object.keys(c.args.shape).map((flag) => {
      const boolean = 'booleanFlags' in c && (c.booleanFlags as readonly string[]).includes(flag);
      return [flag, { type: boolean ? ('boolean' as const) : ('string' as const) }];
    }),
  ),
);
export const commandNames = Object.keys(commands) as CommandName[];
export const usage = () => `Usage:\n${commandNames.map((c) => `  npm run admin -- ${commands[c].usage}`).join('\n')}`;

export function parseCommandArgs(name: string, args: Record<string, unknown>) {
  const command = commands[name as CommandName];
  if (!command) throw new UsageError(usage());
  const parsed = command.args.safeParse(args);
  if (!parsed.success) throw new UsageError(`Usage:\n  npm run admin -- ${command.usage}`);
  return { command, args: parsed.data };
}

export async function runCommand(db: Database, config: Config, name: string, args: Record<string, unknown>): Promise<string[]> {
  // Every run is in the audit log, refused ones included (the name only when it is a command's).
  return recordAdminCommand(db, openAuditKeys(config), Object.hasOwn(commands, name) ? name : null, async () => {
    const { command, args: parsed } = parseCommandArgs(name, args);
    // The zod schema above is this command's own; the cast joins the pair TypeScript cannot see together.
    return (command.run as (db: Database, config: Config, a: unknown) => Promise<string[]>)(db, config, parsed);
  });
}
