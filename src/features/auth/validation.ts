/** The client-side checks of spec §5, returning codes; forms turn codes into translated messages. */
import { NAME_MIN, PASSWORD_MIN, PHONE_PATTERN, LANGUAGES } from '../../../contract/constants';

export type ValidationCode =
  | 'required'
  | 'fill_all_fields'
  | 'password_too_short'
  | 'passwords_do_not_match'
  | 'name_too_short'
  | 'invalid_email'
  | 'invalid_phone'
  | 'language_required';

export type FieldErrors<F extends string> = Partial<Record<F, ValidationCode>>;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const checkEmail = (v: string): ValidationCode | undefined => (!v.trim() ? 'required' : EMAIL.test(v.trim()) ? undefined : 'invalid_email');
export const checkPassword = (v: string): ValidationCode | undefined => (!v ? 'required' : v.length < PASSWORD_MIN ? 'password_too_short' : undefined);
export const checkPasswordMatch = (a: string, b: string): ValidationCode | undefined => (a === b ? undefined : 'passwords_do_not_match');
export const checkName = (v: string): ValidationCode | undefined => (!v.trim() ? 'required' : v.trim().length < NAME_MIN ? 'name_too_short' : undefined);
export const checkPhone = (v: string): ValidationCode | undefined => (!v.trim() ? 'required' : PHONE_PATTERN.test(v.trim()) ? undefined : 'invalid_phone');
export const checkLanguage = (v: string): ValidationCode | undefined => ((LANGUAGES as readonly string[]).includes(v) ? undefined : 'language_required');

/** Runs field checks and keeps only the failures. */
export function collectErrors<F extends string>(checks: Record<F, ValidationCode | undefined>): FieldErrors<F> {
  const out: FieldErrors<F> = {};
  for (const key of Object.keys(checks) as F[]) {
    const code = checks[key];
    if (code) out[key] = code;
  }
  return out;
}

export function validateLogin(v: { email: string; password: string }) {
  return collectErrors({ email: checkEmail(v.email), password: v.password ? undefined : 'required' });
}

export function validateSignup(v: { name: string; email: string; password: string; passwordConfirmation: string; language: string }) {
  return collectErrors({
    name: checkName(v.name),
    email: checkEmail(v.email),
    password: checkPassword(v.password),
    passwordConfirmation: v.passwordConfirmation ? checkPasswordMatch(v.password, v.passwordConfirmation) : 'required',
    language: checkLanguage(v.language),
  });
}

export function validateNewPassword(v: { password: string; passwordConfirmation: string }) {
  return collectErrors({
    password: checkPassword(v.password),
    passwordConfirmation: v.passwordConfirmation ? checkPasswordMatch(v.password, v.passwordConfirmation) : 'required',
  });
}

export const hasErrors = (e: object) => Object.keys(e).length > 0;

/** "Fill all the fields" leads when something required is empty; otherwise the field messages speak. */
export function formSummary(errors: Record<string, ValidationCode | undefined>): ValidationCode | undefined {
  return Object.values(errors).includes('required') ? 'fill_all_fields' : undefined;
}
