import { describe, expect, it } from 'vitest';
import { formSummary, validateLogin, validateNewPassword, validateSignup, checkPhone } from './validation';

const good = { name: 'Ana Lima', email: 'ana@clinic.pt', password: 'secret1', passwordConfirmation: 'secret1', language: 'pt' };

describe('signup validation', () => {
  it('accepts a complete form', () => expect(validateSignup(good)).toEqual({}));
  it.each([
    ['short name', { name: 'Al' }, 'name', 'name_too_short'],
    ['blank name', { name: '   ' }, 'name', 'required'],
    ['bad e-mail', { email: 'ana@clinic' }, 'email', 'invalid_email'],
    ['short password', { password: '12345', passwordConfirmation: '12345' }, 'password', 'password_too_short'],
    ['mismatch', { passwordConfirmation: 'secret2' }, 'passwordConfirmation', 'passwords_do_not_match'],
    ['no language', { language: '' }, 'language', 'language_required'],
    ['unsupported language', { language: 'fr' }, 'language', 'language_required'],
  ])('%s', (_n, change, field, code) => {
    expect(validateSignup({ ...good, ...change })).toEqual({ [field]: code });
  });
  it('a 6-character password is enough', () => expect(validateSignup({ ...good, password: '123456', passwordConfirmation: '123456' })).toEqual({}));
});

describe('login validation', () => {
  it('requires both fields', () => expect(validateLogin({ email: '', password: '' })).toEqual({ email: 'required', password: 'required' }));
  it('summarises empty fields as "Fill all the fields"', () => expect(formSummary(validateLogin({ email: '', password: 'x' }))).toBe('fill_all_fields'));
  it('has no summary when only the format is wrong', () => expect(formSummary(validateLogin({ email: 'x', password: 'x' }))).toBeUndefined());
});

describe('new password validation', () => {
  it('checks length and match', () => {
    expect(validateNewPassword({ password: 'abc', passwordConfirmation: 'abc' })).toEqual({ password: 'password_too_short' });
    expect(validateNewPassword({ password: 'abcdef', passwordConfirmation: 'abcdeg' })).toEqual({ passwordConfirmation: 'passwords_do_not_match' });
  });
});

describe('phone validation', () => {
  it.each([
    ['+351 912 345 678', undefined],
    ['(030) 1234-5678', undefined],
    ['12', 'invalid_phone'],
    ['phone', 'invalid_phone'],
    ['', 'required'],
  ])('%s', (v, code) => expect(checkPhone(v)).toBe(code));
});
