import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from '@tanstack/react-router';
import { useAtomValue } from 'jotai';
import { useCallback, useEffect, useState } from 'react';
import { accountApi } from '../../../api/account';
import { organizationsApi, type OrganizationDetail, type OrgInvitation, type OrgRole } from '../../../api/organizations';
import { authAtom, updateUser } from '../../../app-state';
import { Alert } from '../../../ui/Alert';
import { Button } from '../../../ui/Button';
import { confirm } from '../../../ui/confirm';
import { TextAreaField } from '../../../ui/TextAreaField';
import { describeFailure } from '../../i18n/api-error-messages';
import { parseEmailList } from '../../organization/email-list';
import { MAX_INVITES } from '../../../../contract/constants';
import { RecordSystemCard } from '../../organization/RecordSystemCard';
import { RecordingConsentCard } from '../../organization/RecordingConsentCard';

const roleChangeFailed = msg`Error changing member role`;
const onlyAdmin = msg`You can't leave the organization (only admin)`;

/** Spec §2 settings › organisation: members and roles, invitations, leaving. Admin actions are checked by the server too. */
export function OrganisationSection() {
  const { i18n, t } = useLingui();
  const user = useAtomValue(authAtom)?.user;
  const orgId = user?.organization_id;
  const [org, setOrg] = useState<OrganizationDetail>();
  const [invitations, setInvitations] = useState<OrgInvitation[]>([]);
  const [error, setError] = useState<string>();
  const [notice, setNotice] = useState<string>();

  const load = useCallback(async () => {
    if (!orgId) return;
    try {
      const { organization } = await organizationsApi.get(orgId);
      setOrg(organization);
      if (organization.role === 'admin') setInvitations((await organizationsApi.invitations(orgId)).invitations);
    } catch (err) {
      setError(describeFailure(i18n, err));
    }
  }, [orgId, i18n]);
  useEffect(() => void load(), [load]);

  if (!orgId) {
    return (
      <section className="card">
        <h2>
          <Trans>Organization</Trans>
        </h2>
        <p className="muted">
          <Trans>You are not part of an organization. An administrator of your clinic can invite you; the invitation arrives by e-mail.</Trans>
        </p>
      </section>
    );
  }
  if (!org)
    return error ? (
      <Alert tone="error">{error}</Alert>
    ) : (
      <p role="status">
        <Trans>Loading…</Trans>
      </p>
    );
  const isAdmin = org.role === 'admin';

  async function act<T>(action: () => Promise<T>, fallback = msg`Error updating data`, done?: string | ((result: T) => string)) {
    setError(undefined);
    setNotice(undefined);
    try {
      const result = await action();
      if (done) setNotice(typeof done === 'string' ? done : done(result));
      await load();
    } catch (err) {
      setError(describeFailure(i18n, err, fallback));
    }
  }

  async function leave() {
    const ok = await confirm({
      type: 'warning',
      title: t`Leave ${org!.name}?`,
      message: t`You will no longer share its credits. Your consultations stay yours.`,
      confirmLabel: t`Leave`,
    });
    if (!ok) return;
    setError(undefined);
    try {
      await organizationsApi.leave(org!.id);
      updateUser((await accountApi.getAccount()).d_user);
    } catch (err) {
      setError(describeFailure(i18n, err, onlyAdmin));
    }
  }

  return (
    <div className="settings-section">
      <section className="card" aria-labelledby="org-members">
        <h2 id="org-members">{org.name}</h2>
        {error && <Alert tone="error">{error}</Alert>}
        {notice && <Alert tone="success">{notice}</Alert>}
        <h3>
          <Trans>Members</Trans>
        </h3>
        <ul className="member-list">
          {org.members.map((m) => (
            <li key={m.id} className="member-item" data-testid="member">
              <div>
                <strong>{m.name}</strong> {m.id === user?.id && <span className="badge">{t`You`}</span>}
                <div className="muted">{m.email}</div>
              </div>
              <div className="member-actions">
                {isAdmin && m.id !== user?.id ? (
                  <>
                    <label className="visually-hidden" htmlFor={`role-${m.id}`}>{t`Role of ${m.name}`}</label>
                    <select
                      id={`role-${m.id}`}
                      className="inline-select"
                      value={m.role}
                      onChange={(e) => void act(() => organizationsApi.changeRole(org.id, m.id, e.target.value as OrgRole), roleChangeFailed)}
                    >
                      <option value="member">{t`Member`}</option>
                      <option value="admin">{t`Administrator`}</option>
                    </select>
                    <Link to="/settings/$section/$userId" params={{ section: 'history', userId: m.id }} className="button" data-variant="secondary">
                      <Trans>History</Trans>
                    </Link>
                    <Button
                      variant="danger"
                      aria-label={t`Remove ${m.name}`}
                      onClick={async () => {
                        if (
                          await confirm({
                            type: 'warning',
                            title: t`Remove ${m.name}?`,
                            message: t`They will no longer share the organization's credits.`,
                            confirmLabel: t`Remove`,
                          })
                        ) {
                          await act(() => organizationsApi.remove(org.id, m.id));
                        }
                      }}
                    >
                      <Trans>Remove</Trans>
                    </Button>
                  </>
                ) : (
                  <span className="badge">{m.role === 'admin' ? t`Administrator` : t`Member`}</span>
                )}
              </div>
            </li>
          ))}
        </ul>
        <Button variant="secondary" onClick={() => void leave()}>
          <Trans>Leave the organization</Trans>
        </Button>
      </section>
      {isAdmin && <InvitationsCard orgId={org.id} invitations={invitations} act={act} />}
      {isAdmin && <RecordingConsentCard orgId={org.id} rule={org.recording_consent ?? 'off'} />}
      {isAdmin && <RecordSystemCard orgId={org.id} onChange={() => void load()} />}
    </div>
  );
}

type Act = <T>(a: () => Promise<T>, fallback?: ReturnType<typeof msg>, done?: string | ((result: T) => string)) => Promise<void>;

function InvitationsCard({ orgId, invitations, act }: { orgId: string; invitations: OrgInvitation[]; act: Act }) {
  const { i18n, t } = useLingui();
  const [text, setText] = useState('');
  const { valid, invalid } = parseEmailList(text);
  const tooMany = valid.length > MAX_INVITES;
  const count = valid.length;
  const checked = text.trim()
    ? invalid.length
      ? t`Invalid email: ${invalid.join(', ')}`
      : tooMany
        ? t`At most ${MAX_INVITES} addresses at a time: you entered ${count}.`
        : t`Valid email(s) entered: ${count}`
    : undefined;
  // What the server did with each address: nobody is told "sent" about an invitation that was not.
  const outcome = ({ results }: { results: { email: string; result: string }[] }) => {
    const sent = results.filter((r) => r.result === 'invited').length;
    const members = results
      .filter((r) => r.result === 'already_member')
      .map((r) => r.email)
      .join(', ');
    const pending = results
      .filter((r) => r.result === 'already_invited')
      .map((r) => r.email)
      .join(', ');
    return [
      sent > 0 ? t`Invitations sent: ${sent}.` : t`No invitation was sent.`,
      members ? t`Already members, not invited: ${members}.` : '',
      pending ? t`Already invited (use Resend to send it again): ${pending}.` : '',
    ]
      .filter(Boolean)
      .join(' ');
  };
  const statusLabel: Record<OrgInvitation['status'], string> = { pending: t`Pending`, accepted: t`Accepted`, rejected: t`Rejected`, expired: t`Expired` };

  return (
    <section className="card" aria-labelledby="org-invitations">
      <h2 id="org-invitations">
        <Trans>Invitations</Trans>
      </h2>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (invalid.length || !valid.length || tooMany) return;
          const sent = text;
          // Emptied when the invitations went, before the answer is shown and the list reloads: addresses typed
          // meanwhile stay, and so do the ones of a refused request (to correct and send again).
          void act(
            async () => {
              const result = await organizationsApi.invite(orgId, valid);
              setText((current) => (current === sent ? '' : current));
              return result;
            },
            undefined,
            outcome,
          );
        }}
      >
        <TextAreaField
          label={<Trans>E-mail addresses to invite, one per line</Trans>}
          rows={4}
          value={text}
          onChange={(e) => setText(e.target.value)}
          error={invalid.length || tooMany ? checked : undefined}
          hint={!invalid.length && !tooMany ? checked : undefined}
        />
        <Button type="submit" disabled={invalid.length > 0 || valid.length === 0 || tooMany}>
          <Trans>Send invitations</Trans>
        </Button>
      </form>
      {invitations.length > 0 && (
        <div className="table-scroll">
          <table className="data-table" data-stack="narrow">
            <caption className="visually-hidden">{t`Invitations`}</caption>
            <thead>
              <tr>
                <th scope="col">{t`E-mail`}</th>
                <th scope="col">{t`Invited on`}</th>
                <th scope="col">{t`Status`}</th>
                <th scope="col">
                  <span className="visually-hidden">{t`Actions`}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {invitations.map((inv) => (
                <tr key={inv.id} data-testid="invitation">
                  <td data-label={t`E-mail`}>{inv.email}</td>
                  <td data-label={t`Invited on`}>{i18n.date(inv.invited_at, { dateStyle: 'medium', timeStyle: 'short' })}</td>
                  <td data-label={t`Status`}>
                    <span className="badge" data-status={inv.status}>
                      {statusLabel[inv.status]}
                    </span>
                  </td>
                  <td className="row-actions">
                    {(inv.status === 'pending' || inv.status === 'expired') && (
                      <>
                        <Button
                          variant="secondary"
                          aria-label={t`Resend the invitation to ${inv.email}`}
                          onClick={() => void act(() => organizationsApi.resend(orgId, inv.id), undefined, t`Invitation sent again.`)}
                        >
                          <Trans>Resend</Trans>
                        </Button>
                        <Button
                          variant="ghost"
                          aria-label={t`Revoke the invitation to ${inv.email}`}
                          onClick={() => void act(() => organizationsApi.revoke(orgId, inv.id))}
                        >
                          <Trans>Revoke</Trans>
                        </Button>
                      </>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
