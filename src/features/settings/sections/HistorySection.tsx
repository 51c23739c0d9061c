import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from '@tanstack/react-router';
import { useAtomValue } from 'jotai';
import { useEffect, useState } from 'react';
import { ApiFailureError } from '../../../api/client';
import { organizationsApi, type HistoryEntry } from '../../../api/organizations';
import { authAtom } from '../../../app-state';
import { Alert } from '../../../ui/Alert';
import { describeFailure } from '../../i18n/api-error-messages';
import { useConsultationTypes } from '../../home/useConsultationTypes';

/**
 * Spec §2 settings › history: the clinician's past consultations as far as they are kept; with a user id, a
 * member's history for the organisation's administrators (what was done, never what was said).
 */
export function HistorySection({ userId }: { userId?: string }) {
  const { i18n, t } = useLingui();
  const user = useAtomValue(authAtom)?.user;
  const { types } = useConsultationTypes();
  const [entries, setEntries] = useState<HistoryEntry[]>();
  const [memberName, setMemberName] = useState<string>();
  const [error, setError] = useState<string>();
  const other = userId && userId !== user?.id;

  useEffect(() => {
    setEntries(undefined);
    setError(undefined);
    const load = other
      ? user?.organization_id
        ? organizationsApi.memberHistory(user.organization_id, userId!).then((r) => {
            setMemberName(r.member.name);
            return r.consultation_sessions;
          })
        : Promise.reject(new ApiFailureError({ kind: 'http', status: 403, code: 'forbidden', message: '', fields: {} }))
      : organizationsApi.ownHistory().then((r) => r.consultation_sessions);
    load.then(setEntries, (err) => {
      const forbidden = err instanceof ApiFailureError && err.failure.kind === 'http' && (err.failure.status === 403 || err.failure.status === 404);
      setError(forbidden ? t`Only administrators of your organization can see another member's history.` : describeFailure(i18n, err));
    });
  }, [other, userId, user?.organization_id, i18n, t]);

  const textOnlySince = (date: string) => t`Text only, audio deleted on ${date}`;
  const typeOf = (id: string) => types?.find((ty) => ty.id === id);
  const typeName = (id: string) => typeOf(id)?.name ?? id;
  return (
    <section className="card" aria-labelledby="history-title">
      <h2 id="history-title">{other ? memberName ? t`History of ${memberName}` : <Trans>Member history</Trans> : <Trans>Your history</Trans>}</h2>
      <p className="muted">
        <Trans>Consultations appear here while their data is kept. With text storage on, their text stays after the audio is deleted.</Trans>
      </p>
      {error && <Alert tone="error">{error}</Alert>}
      {!entries && !error && (
        <p role="status">
          <Trans>Loading…</Trans>
        </p>
      )}
      {entries && entries.length === 0 && (
        <p className="muted">
          <Trans>No consultations kept.</Trans>
        </p>
      )}
      <ul className="recent-list">
        {entries?.map((e) => (
          <li key={e.id} className="card recent-item" data-testid="history-entry">
            <div>
              {other ? (
                <strong>{typeName(e.consultation_type_id)}</strong>
              ) : (
                // One's own consultations open, archived ones read-only; a member's are only listed (no text).
                <Link
                  to={typeOf(e.consultation_type_id)?.show_transcription ? '/dictaphone/consultation/$id' : '/consultation/$id'}
                  params={{ id: e.id }}
                  className="recent-link"
                >
                  {typeName(e.consultation_type_id)}
                </Link>
              )}
              <div className="muted">{i18n.date(e.finished_at ?? e.created_at, { dateStyle: 'medium', timeStyle: 'short' })}</div>
              {e.transcript_excerpt && <p className="history-excerpt">{e.transcript_excerpt}</p>}
            </div>
            <span className="badge">
              {e.data_kept === 'all'
                ? t`Audio and text kept`
                : e.audio_deleted_at
                  ? textOnlySince(i18n.date(e.audio_deleted_at, { dateStyle: 'medium' }))
                  : t`Text only`}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
