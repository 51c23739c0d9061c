import { api } from './instance';
import { call } from './client';

export type OrgRole = 'admin' | 'member';
export type OrgMember = { id: string; name: string; email: string; role: OrgRole; created_at: string };
export type OrgInvitation = {
  id: string;
  email: string;
  role: OrgRole;
  status: 'pending' | 'accepted' | 'rejected' | 'expired';
  invited_at: string;
  expires_at: string;
  responded_at: string | null;
};
/** How the patient's consent to recording is asked before a consultation's first part. */
export type ConsentRule = 'off' | 'clinician' | 'patient';
export type OrganizationDetail = {
  id: string;
  name: string;
  role: OrgRole;
  members: OrgMember[];
  record_system: boolean;
  recording_consent?: ConsentRule;
};
export type RecordSystemAuth = 'none' | 'bearer' | 'backend_services';
export type RecordSystemView = {
  base_url: string;
  auth: RecordSystemAuth;
  client_id: string | null;
  scope: string | null;
  has_token: boolean;
  jwks_url: string | null;
  /** Launches from the record system (SMART App Launch): the client id it gave, and the addresses it registers. */
  launch_client_id: string | null;
  /** Documents go to the record only once their clinician signed them. */
  require_sign_off: boolean;
  launch_url: string;
  redirect_url: string;
  updated_at: string;
};
export type RecordSystemInput = {
  base_url: string;
  auth: RecordSystemAuth;
  token?: string;
  client_id?: string;
  scope?: string;
  launch_client_id?: string;
  require_sign_off?: boolean;
};
export type HistoryEntry = {
  id: string;
  consultation_type_id: string;
  status: 'finished' | 'archived';
  data_kept: 'all' | 'text';
  created_at: string;
  finished_at: string | null;
  expires_at: string | null;
  /** Set once archived: the day the audio went; the text still opens, read-only. */
  audio_deleted_at: string | null;
  documents: { key: string; versions: number }[];
  transcript_excerpt?: string;
};
export type InvitationView = { organization_name: string; email: string; role: OrgRole; status: OrgInvitation['status']; expires_at: string };
export type CreditsView = {
  balance: number;
  shared_with_organization: boolean;
  ledger: { id: string; amount: number; reason: string; note: string | null; user_name: string | null; created_at: string }[];
};

const org = (id: string) => `v1/organizations/${id}`;

export const organizationsApi = {
  get: (id: string) => call(() => api().get(org(id)).json<{ organization: OrganizationDetail }>()),
  setRecordingConsent: (id: string, rule: ConsentRule) =>
    call(() =>
      api()
        .put(`${org(id)}/recording_consent`, { json: { recording_consent: rule } })
        .json<{ recording_consent: ConsentRule }>(),
    ),
  recordSystem: (id: string) =>
    call(() =>
      api()
        .get(`${org(id)}/fhir_endpoint`)
        .json<{ fhir_endpoint: RecordSystemView | null }>(),
    ),
  saveRecordSystem: (id: string, input: RecordSystemInput) =>
    call(() =>
      api()
        .put(`${org(id)}/fhir_endpoint`, { json: input })
        .json<{ fhir_endpoint: RecordSystemView }>(),
    ),
  removeRecordSystem: (id: string) =>
    call(() =>
      api()
        .delete(`${org(id)}/fhir_endpoint`)
        .then(() => undefined),
    ),
  invitations: (id: string) =>
    call(() =>
      api()
        .get(`${org(id)}/invitations`)
        .json<{ invitations: OrgInvitation[] }>(),
    ),
  invite: (id: string, emails: string[]) =>
    call(() =>
      api()
        .post(`${org(id)}/invitations`, { json: { emails } })
        .json<{ results: { email: string; result: string }[]; invitations: OrgInvitation[] }>(),
    ),
  resend: (id: string, invitationId: string) =>
    call(() =>
      api()
        .post(`${org(id)}/invitations/${invitationId}/resend`)
        .json<{ invitation: OrgInvitation }>(),
    ),
  revoke: (id: string, invitationId: string) =>
    call(() =>
      api()
        .delete(`${org(id)}/invitations/${invitationId}`)
        .then(() => undefined),
    ),
  changeRole: (id: string, userId: string, role: OrgRole) =>
    call(() =>
      api()
        .put(`${org(id)}/members/${userId}`, { json: { role } })
        .json<{ member: OrgMember }>(),
    ),
  remove: (id: string, userId: string) =>
    call(() =>
      api()
        .delete(`${org(id)}/members/${userId}`)
        .then(() => undefined),
    ),
  leave: (id: string) =>
    call(() =>
      api()
        .post(`${org(id)}/leave`)
        .then(() => undefined),
    ),
  memberHistory: (id: string, userId: string) =>
    call(() =>
      api()
        .get(`${org(id)}/members/${userId}/history`)
        .json<{ member: { id: string; name: string }; consultation_sessions: HistoryEntry[] }>(),
    ),
  ownHistory: () => call(() => api().get('v1/consultation_sessions/history').json<{ consultation_sessions: HistoryEntry[] }>()),
  credits: () => call(() => api().get('v1/credits').json<{ credits: CreditsView }>()),
  support: (subject: string, message: string) =>
    call(() =>
      api()
        .post('v1/support', { json: { subject, message } })
        .then(() => undefined),
    ),
  invitation: (token: string) =>
    call(() =>
      api()
        .get(`v1/organization_invitations/${encodeURIComponent(token)}`)
        .json<{ invitation: InvitationView }>(),
    ),
  accept: (token: string) =>
    call(() =>
      api()
        .post(`v1/organization_invitations/${encodeURIComponent(token)}/accept`)
        .json<{ organization: { id: string; name: string; role: OrgRole } }>(),
    ),
  reject: (token: string) =>
    call(() =>
      api()
        .post(`v1/organization_invitations/${encodeURIComponent(token)}/reject`)
        .json<{ invitation: InvitationView }>(),
    ),
};
