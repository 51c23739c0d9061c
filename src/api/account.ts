import type { DUser, Language, LaunchLink, MedicalSpeciality } from '../../contract/account';
import { api } from './instance';
import { call } from './client';
import { deviceHeaders } from './device-id';

export type SessionResult = { d_user: DUser; token: string };

/** The token arrives in the Authorization response header (login, auto and signed-token logins). */
async function withSessionToken(response: Response): Promise<SessionResult> {
  const header = response.headers.get('authorization') ?? '';
  const token = header.replace(/^Bearer\s+/i, '');
  const body = (await response.json()) as { d_user: DUser; token?: string };
  const found = token || body.token;
  if (!found) {
    console.error('Token not returned');
    throw new Error('Token not returned');
  }
  return { d_user: body.d_user, token: found };
}

export const accountApi = {
  login: (email: string, password: string) =>
    call(async () => withSessionToken(await api().post('v1/login', { json: { user: { email, password } }, headers: deviceHeaders() }))),
  logout: () => call(() => api().delete('v1/logout')),
  deleteAccount: () =>
    call(() =>
      api()
        .delete('v1/account')
        .then(() => undefined),
    ),
  /**
   * A new account through an invitation starts signed in; any other answer (202) says only that a mail is on its
   * way, since the server answers alike whether or not the address already has an account.
   */
  signup: (user: { name: string; email: string; password: string; language: Language }, invitationToken?: string) =>
    call(async (): Promise<SessionResult | { checkMail: true }> => {
      const response = await api().post('v1/signup', {
        json: { user, ...(invitationToken ? { invitation_token: invitationToken } : {}) },
        headers: deviceHeaders(),
      });
      return response.status === 202 ? { checkMail: true } : withSessionToken(response);
    }),
  getAccount: () => call(() => api().get('v1/account').json<{ d_user: DUser }>()),
  updateAccount: (user: Record<string, unknown>) => call(() => api().put('v1/account', { json: { user } }).json<{ d_user: DUser }>()),
  requestPasswordReset: (email: string) => call(() => api().post('v1/reset_password', { json: { email } })),
  resetPassword: (token: string, password: string, passwordConfirmation: string) =>
    call(() =>
      api().patch(`v1/reset_password/${encodeURIComponent(token)}`, {
        json: { password, password_confirmation: passwordConfirmation },
      }),
    ),
  confirmEmail: (token: string) => call(async () => withSessionToken(await api().patch(`v1/confirm_email/${encodeURIComponent(token)}`))),
  autoLogin: (token: string) => call(async () => withSessionToken(await api().post('v1/auto_login/', { json: { token } }))),
  /** The end of a launch from the record system: the sign-in is in a cookie only this browser holds. */
  launchSession: () => call(async () => withSessionToken(await api().post('v1/launch_session'))),
  /** A launch named an account that existed before: whose it is, and its password to link it (the cookie holds the request). */
  launchLink: () => call(() => api().get('v1/launch_link').json<{ launch_link: LaunchLink }>()),
  linkLaunch: (password: string) => call(async () => withSessionToken(await api().post('v1/launch_link', { json: { password }, headers: deviceHeaders() }))),
  signedTokenLogin: (token: string) => call(async () => withSessionToken(await api().post('v1/signed_token_login/', { json: { token } }))),
  medicalSpecialities: () => call(() => api().get('v1/medical_specialities').json<{ medical_specialities: MedicalSpeciality[] }>()),
};
