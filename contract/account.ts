import { z } from 'zod';

import { LANGUAGES, NAME_MIN, PASSWORD_MIN, PHONE_PATTERN } from './constants.js';

export { LANGUAGES, NAME_MIN, PASSWORD_MIN, PHONE_PATTERN, type Language } from './constants.js';

// Overlong input is refused rather than truncated: names and e-mails end up in documents and mails.
const email = z
  .string()
  .trim()
  .toLowerCase()
  .max(254)
  .pipe(z.email({ error: 'invalid_email' }));
const password = z.string().min(PASSWORD_MIN, { error: 'password_too_short' }).max(256, { error: 'too_long' });
// A name is one line of letters: it is printed in documents and mails, where a line break or a control character could pass for text of the product's own.
const name = z
  .string()
  .trim()
  .min(NAME_MIN, { error: 'name_too_short' })
  .max(120, { error: 'too_long' })
  .refine((v) => !/[\p{Cc}\u2028\u2029\u202A-\u202E\u2066-\u2069]/u.test(v), { error: 'invalid_name' });
const language = z.enum(LANGUAGES, { error: 'invalid_language' });
const phone = z.string().trim().max(32).regex(PHONE_PATTERN, { error: 'invalid_phone' });
const token = z.string().min(10).max(4096);

export const dUserSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  email: z.string(),
  language,
  phone_number: z.string().nullable(),
  medical_speciality_id: z.string().nullable(),
  organization_id: z.uuid().nullable(),
  organization_role: z.enum(['admin', 'member']).nullable(),
  opt_in_newsletter: z.boolean(),
  opt_in_product_contact: z.boolean(),
  save_audios: z.boolean(),
  save_text_data: z.boolean(),
  v2_home: z.boolean(),
  consultation_mode: z.enum(['normal', 'mobile', 'teleconsultation']),
  force_password_change: z.boolean(),
  email_confirmed: z.boolean(),
  /** Runs this server (settings › AI engines); granted with `npm run admin -- grant-server-admin`. */
  server_admin: z.boolean(),
});
export type DUser = z.infer<typeof dUserSchema>;

export const userEnvelope = z.object({ d_user: dUserSchema });

export const loginBody = z.object({
  user: z.object({ email, password: z.string().min(1, { error: 'required' }).max(256) }),
});

/** A launch from the record system named this account: its password links the record system's user to it. */
export const launchLinkBody = z.object({ password: z.string().min(1, { error: 'required' }).max(256) });
export const launchLinkEnvelope = z.object({
  launch_link: z.object({
    email: z.string(),
    /** The record system (its FHIR address) and its name for the user to be linked. */
    record_system: z.string(),
    record_system_user: z.string(),
    /** An organization's admin enters the password at every launch, linked or not. */
    again: z.boolean(),
  }),
});
export type LaunchLink = z.infer<typeof launchLinkEnvelope>['launch_link'];

export const signupBody = z.object({
  user: z.object({
    name,
    email,
    password,
    language,
    phone_number: phone.optional(),
  }),
  invitation_token: z.string().min(10).max(200).optional(),
});

export const accountUpdateBody = z.object({
  user: z
    .object({
      name: name.optional(),
      email: z.string().max(254).optional(),
      phone_number: phone.nullable().optional(),
      language: language.optional(),
      medical_speciality_id: z.string().max(64).nullable().optional(),
      opt_in_newsletter: z.boolean().optional(),
      opt_in_product_contact: z.boolean().optional(),
      save_audios: z.boolean().optional(),
      save_text_data: z.boolean().optional(),
      v2_home: z.boolean().optional(),
      consultation_mode: z.enum(['normal', 'mobile', 'teleconsultation']).optional(),
      password: password.optional(),
      current_password: z.string().max(256).optional(),
    })
    .strict(),
});
export type AccountUpdate = z.infer<typeof accountUpdateBody>['user'];

export const resetPasswordRequestBody = z.object({ email });
export const resetPasswordConfirmBody = z.object({
  password,
  password_confirmation: z.string().max(256),
});
export const tokenParams = z.object({ token });
export const tokenBody = z.object({ token });

export const organizationSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  role: z.enum(['admin', 'member']),
});
export const organizationsEnvelope = z.object({ organizations: z.array(organizationSchema) });

export const medicalSpecialitySchema = z.object({ id: z.string(), name: z.string() });
export const medicalSpecialitiesEnvelope = z.object({
  medical_specialities: z.array(medicalSpecialitySchema),
});
export type MedicalSpeciality = z.infer<typeof medicalSpecialitySchema>;

export const qrTokenEnvelope = z.object({ token: z.string(), url: z.string(), expires_at: z.string() });
export const okEnvelope = z.object({ ok: z.literal(true) });
