import { msg } from '@lingui/core/macro';
import type { I18n, MessageDescriptor } from '@lingui/core';
import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { organizationsApi, type CreditsView } from '../../../api/organizations';
import { Alert } from '../../../ui/Alert';
import { describeFailure } from '../../i18n/api-error-messages';

/** What each ledger row was for, as the server records it. */
const reasons: Record<string, MessageDescriptor> = {
  grant: msg`Credits added by support`,
  initial_grant: msg`Credits given when the account was opened`,
  generation: msg`Document written by AI`,
  screening: msg`Patient screened by AI`,
  refund: msg`Refund: the document was not written`,
  screening_refund: msg`Refund: the patient was not screened`,
};

/**
 * Notes the server once wrote itself, in English, for grants it made: older ledgers still hold them, and they say
 * no more than the reason, so the reason's translation is shown instead.
 */
const systemNotes: Record<string, string> = { 'initial grant': 'initial_grant', 'through support': 'grant' };

function describeRow(i18n: I18n, row: CreditsView['ledger'][number]): string {
  if (row.note && !systemNotes[row.note]) return row.note;
  const reason = (row.note && systemNotes[row.note]) || row.reason;
  const label = reasons[reason];
  return label ? i18n._(label) : reason;
}

/** Spec §2 settings › credits: the shared balance and who used what; buying more goes through support. */
export function CreditsSection() {
  const { i18n, t } = useLingui();
  const [credits, setCredits] = useState<CreditsView>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    organizationsApi.credits().then(
      (r) => setCredits(r.credits),
      (err) => setError(describeFailure(i18n, err)),
    );
  }, [i18n]);
  if (error) return <Alert tone="error">{error}</Alert>;
  if (!credits)
    return (
      <p role="status">
        <Trans>Loading…</Trans>
      </p>
    );
  const balance = credits.balance;
  return (
    <section className="card" aria-labelledby="credits-title">
      <h2 id="credits-title">
        <Trans>Credits</Trans>
      </h2>
      <p className="balance" data-testid="credits-balance">
        <Trans>{balance} credits available</Trans>
      </p>
      <p className="muted">
        {credits.shared_with_organization ? (
          <Trans>These credits are shared by every member of your organization.</Trans>
        ) : (
          <Trans>These credits are yours.</Trans>
        )}{' '}
        <Trans>Each document written by AI and each patient screened by AI uses one credit; work done without AI is free.</Trans>
      </p>
      <Alert tone="info">
        <Trans>
          More credits are bought through support, not in the app:{' '}
          <Link to="/settings/{-$section}" params={{ section: 'support' }}>
            write to support
          </Link>
          .
        </Trans>
      </Alert>
      <h3>
        <Trans>Usage</Trans>
      </h3>
      {credits.ledger.length === 0 ? (
        <p className="muted">
          <Trans>Nothing used or granted yet.</Trans>
        </p>
      ) : (
        <div className="table-scroll">
          <table className="data-table" data-stack="narrow">
            <caption className="visually-hidden">{t`Usage`}</caption>
            <thead>
              <tr>
                <th scope="col">{t`Date`}</th>
                <th scope="col">{t`Who`}</th>
                <th scope="col">{t`What`}</th>
                <th scope="col" className="numeric">{t`Credits`}</th>
              </tr>
            </thead>
            <tbody>
              {credits.ledger.map((row) => (
                <tr key={row.id}>
                  <td data-label={t`Date`}>{i18n.date(row.created_at, { dateStyle: 'medium', timeStyle: 'short' })}</td>
                  <td data-label={t`Who`}>{row.user_name ?? t`Support`}</td>
                  <td data-label={t`What`}>{describeRow(i18n, row)}</td>
                  <td data-label={t`Credits`} className="numeric">
                    {row.amount > 0 ? `+${row.amount}` : row.amount}
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
