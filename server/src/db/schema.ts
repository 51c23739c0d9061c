import { sql } from 'drizzle-orm';
import { boolean, index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export const organizations = pgTable('organizations', {
  id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
  name: text('name').notNull(),
  createdAt: createdAt(),
});

export const medicalSpecialities = pgTable('medical_specialities', {
  id: text('id').primaryKey(),
  /** Display names by language: { pt, en, de, es }. */
  names: jsonb('names').$type<Record<string, string>>().notNull(),
});

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    name: text('name').notNull(),
    /** Stored lower-cased; the unique index is what makes signup race-free. */
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    language: text('language').notNull().default('pt'),
    phoneNumber: text('phone_number'),
    medicalSpecialityId: text('medical_speciality_id').references(() => medicalSpecialities.id, {
      onDelete: 'set null',
    }),
    organizationId: uuid('organization_id').references(() => organizations.id, { onDelete: 'set null' }),
    organizationRole: text('organization_role'),
    optInNewsletter: boolean('opt_in_newsletter').notNull().default(false),
    optInProductContact: boolean('opt_in_product_contact').notNull().default(false),
    saveAudios: boolean('save_audios').notNull().default(true),
    saveTextData: boolean('save_text_data').notNull().default(true),
    v2Home: boolean('v2_home').notNull().default(false),
    consultationMode: text('consultation_mode').notNull().default('normal'),
    forcePasswordChange: boolean('force_password_change').notNull().default(false),
    emailConfirmedAt: timestamp('email_confirmed_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('users_email_unique').on(t.email), index('users_organization_idx').on(t.organizationId)],
);

/** One row per issued JWT (its jti): logout and password changes revoke here, so a stolen token dies server-side. */
export const authSessions = pgTable(
  'auth_sessions',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [index('auth_sessions_user_idx').on(t.userId)],
);

/** Single-use links (e-mail confirmation, password reset, phone pairing). Only the SHA-256 of a token is stored. */
export const oneTimeTokens = pgTable(
  'one_time_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('one_time_tokens_user_idx').on(t.userId)],
);

export const organizationInvitations = pgTable(
  'organization_invitations',
  {
    id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    role: text('role').notNull(),
    /** SHA-256 of the token in the invitation link; resending issues a new token. */
    tokenHash: text('token_hash').notNull(),
    status: text('status').notNull().default('pending'),
    invitedAt: timestamp('invited_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    respondedAt: timestamp('responded_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('organization_invitations_token_unique').on(t.tokenHash)],
);
