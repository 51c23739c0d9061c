import { eq } from 'drizzle-orm';
import type { DUser, Language } from '../../../contract/account.js';
import type { Database } from '../db/client.js';
import { users } from '../db/schema.js';

export type UserRow = typeof users.$inferSelect;

export async function findUserByEmail(db: Database, email: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.email, email.trim().toLowerCase())).limit(1);
  return row;
}

export async function findUserById(db: Database, id: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row;
}

/** The account as the web app knows it (`d_user`): never the password hash. */
export function toDUser(u: UserRow): DUser {
  return {
    id: u.id,
    name: u.name,
    email: u.email,
    language: u.language as Language,
    phone_number: u.phoneNumber,
    medical_speciality_id: u.medicalSpecialityId,
    organization_id: u.organizationId,
    organization_role: (u.organizationRole as DUser['organization_role']) ?? null,
    opt_in_newsletter: u.optInNewsletter,
    opt_in_product_contact: u.optInProductContact,
    save_audios: u.saveAudios,
    save_text_data: u.saveTextData,
    v2_home: u.v2Home,
    consultation_mode: u.consultationMode as DUser['consultation_mode'],
    force_password_change: u.forcePasswordChange,
    email_confirmed: u.emailConfirmedAt !== null,
    server_admin: u.serverAdmin,
  };
}
