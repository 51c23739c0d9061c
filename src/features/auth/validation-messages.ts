import { msg } from '@lingui/core/macro';
import type { I18n, MessageDescriptor } from '@lingui/core';
import { formSummary, type ValidationCode } from './validation';

/** Spec §5 wording (English is the source; each catalog translates it). */
export const validationMessages: Record<ValidationCode, MessageDescriptor> = {
  required: msg`This field is required`,
  fill_all_fields: msg`Fill all the fields`,
  password_too_short: msg`The password must have a minimum of 6 characters`,
  passwords_do_not_match: msg`The given passwords do not match`,
  name_too_short: msg`The name must have at least 3 characters`,
  invalid_email: msg`A valid e-mail is required`,
  invalid_phone: msg`A valid phone number is required`,
  language_required: msg`A language must be selected`,
};

const serverFieldMessages: Record<string, MessageDescriptor> = {
  invitation_email_mismatch: msg`This invitation was sent to another e-mail address`,
  invalid_current_password: msg`The current password is not correct`,
  passwords_do_not_match: validationMessages.passwords_do_not_match,
  password_too_short: validationMessages.password_too_short,
  name_too_short: validationMessages.name_too_short,
  invalid_name: msg`The name cannot contain line breaks or control characters`,
  invalid_email: validationMessages.invalid_email,
  invalid_phone: validationMessages.invalid_phone,
};
const invalidValue = msg`This value is not valid`;

/** A field's message from a client check code or a server field code. */
export function fieldMessage(i18n: I18n, code: string | undefined): string | undefined {
  if (!code) return undefined;
  const d = validationMessages[code as ValidationCode] ?? serverFieldMessages[code] ?? invalidValue;
  return i18n._(d);
}

/** The form-level message for a set of field errors: "Fill all the fields" when something required is empty. */
export function summaryMessage(i18n: I18n, errors: Record<string, string | undefined>): string | undefined {
  const summary = formSummary(errors as Record<string, ValidationCode | undefined>);
  return summary ? i18n._(validationMessages[summary]) : undefined;
}
