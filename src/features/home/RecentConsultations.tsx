import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from '@tanstack/react-router';
import { useAtomValue } from 'jotai';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { consultationsApi, type ConsultationTypeView, type SessionSummary } from '../../api/consultations';
import { authAtom } from '../../app-state';
import { ApiFailureError } from '../../api/client';
import { Alert } from '../../ui/Alert';
import { describeFailure } from '../i18n/api-error-messages';
import { searchMatcher } from '../i18n/search-match';
import { Button } from '../../ui/Button';
import { TextField } from '../../ui/TextField';
import { appDb } from '../../offline/db';
import { timeLeft } from './retention-countdown';

const TICK_MS = 30_000;
/** In quick access only the latest few are listed until the clinician asks for all (or searches). */
const QUICK_COUNT = 5;

async function cachedFinishedSessions(): Promise<SessionSummary[]> {
  const rows = await appDb().sessions.where('status').equals('finished').toArray();
  return rows
    .map((r) => ({
      id: r.id,
      status: 'finished' as const,
      consultation_type_id: r.consultation_type_id,
      show_transcription: r.show_transcription,
      mobile: false,
      recording_state: 'stopped' as const,
      platform: null,
      created_at: r.created_at,
      finished_at: r.finished_at,
      expires_at: r.expires_at,
      read_only: false,
      audio_deleted_at: null,
      patient_label: null,
      language: r.language ?? null,
    }))
    .sort((a, b) => (b.finished_at ?? '').localeCompare(a.finished_at ?? ''));
}

/**
 * Finished consultations still kept, each with the time left before its data is deleted; searchable by patient,
 * type, date and the notes' first words. `compact` is quick access's form: a sub-heading and the latest few.
 * `hidden`: asked for already, shown later (home asks for everything it shows at once, then draws it together).
 */
export function RecentConsultations({
  types,
  compact = false,
  hidden = false,
}: {
  types: ConsultationTypeView[] | undefined;
  compact?: boolean;
  hidden?: boolean;
}) {
  const { i18n, t } = useLingui();
  const v2Home = useAtomValue(authAtom)?.user?.v2_home ?? false;
  const [sessions, setSessions] = useState<SessionSummary[]>();
  // Why the list could not be asked for: no connection (the device's copies are shown), or the server's answer.
  const [failed, setFailed] = useState<false | 'offline' | string>(false);
  const [query, setQuery] = useState('');
  const [showAll, setShowAll] = useState(false);
  const [now, setNow] = useState(() => Date.now());

  useEffect(() => {
    const load = () =>
      consultationsApi.recent().then(
        (r) => {
          setSessions(r.consultation_sessions);
          setFailed(false);
        },
        async (err: unknown) => {
          // No answer: the finished consultations this device has seen, while they are kept.
          const kept = await cachedFinishedSessions().catch(() => undefined);
          if (kept) setSessions((shown) => shown ?? kept);
          const unreachable = !(err instanceof ApiFailureError) || err.failure.kind !== 'http';
          setFailed(unreachable ? 'offline' : describeFailure(i18n, err));
        },
      );
    void load();
    // The countdown moves, and a consultation whose time is up leaves the list.
    const timer = setInterval(() => {
      setNow(Date.now());
      void load();
    }, TICK_MS);
    return () => clearInterval(timer);
  }, [i18n]);

  const typeName = useCallback((id: string) => types?.find((ty) => ty.id === id)?.name ?? id, [types]);
  const visible = useMemo(() => {
    const found = searchMatcher(query);
    return (sessions ?? [])
      .filter((s) => !timeLeft(s.expires_at, now).expired)
      .filter((s) =>
        found(
          [s.patient_label, typeName(s.consultation_type_id), i18n.date(s.finished_at ?? s.created_at, { dateStyle: 'medium', timeStyle: 'short' }), s.excerpt]
            .filter(Boolean)
            .join(' '),
        ),
      );
  }, [sessions, now, query, typeName, i18n]);

  if (hidden) return null;
  const Heading = compact ? 'h3' : 'h2';
  const shown = compact && !showAll && !query ? visible.slice(0, QUICK_COUNT) : visible;
  return (
    <section aria-labelledby="recent-title" className="recent" data-compact={compact || undefined}>
      <Heading id="recent-title">
        <Trans>Recent consultations</Trans>
      </Heading>
      <p className="muted">
        <Trans>Finished consultations are kept for a short time, then their data is deleted.</Trans>
      </p>
      <div className="search-field">
        <TextField
          label={t`Search consultations`}
          type="search"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          placeholder={t`Patient, type or date`}
        />
      </div>
      {failed === 'offline' && (
        <Alert tone="warning">
          <Trans>No connection to the server: showing the consultations saved on this device.</Trans>
        </Alert>
      )}
      {failed && failed !== 'offline' && <Alert tone="error">{failed}</Alert>}
      {!sessions && !failed && (
        <p role="status">
          <Trans>Loading…</Trans>
        </p>
      )}
      {sessions && visible.length === 0 && (
        <p className="muted">{query ? <Trans>No consultation matches your search.</Trans> : <Trans>No recent consultations.</Trans>}</p>
      )}
      <ul className="recent-list">
        {shown.map((s) => {
          const left = timeLeft(s.expires_at, now);
          const when = i18n.date(s.finished_at ?? s.created_at, { dateStyle: 'medium', timeStyle: 'short' });
          const { hours, minutes } = left;
          return (
            <li key={s.id} className="card recent-item" data-testid="recent-consultation">
              <div className="recent-main">
                <Link
                  to={s.show_transcription ? '/dictaphone/consultation/$id' : v2Home ? '/consultation_v2/$id' : '/consultation/$id'}
                  params={{ id: s.id }}
                  className="recent-link"
                >
                  {s.patient_label ?? typeName(s.consultation_type_id)}
                </Link>
                <div className="muted">{s.patient_label ? `${typeName(s.consultation_type_id)} · ${when}` : when}</div>
                {s.excerpt ? (
                  <p className="recent-excerpt">{s.excerpt}</p>
                ) : (
                  // No words of its own yet (nothing said, or the notes still only blanks to fill in): said calmly.
                  <p className="recent-excerpt" data-empty="true">
                    <Trans>No notes yet</Trans>
                  </p>
                )}
              </div>
              <span className="badge countdown" title={t`Time left before the data is deleted`}>
                {hours > 0 ? (
                  <Trans>
                    Deleted in {hours} h {minutes} min
                  </Trans>
                ) : (
                  <Trans>Deleted in {minutes} min</Trans>
                )}
              </span>
            </li>
          );
        })}
      </ul>
      {shown.length < visible.length && (
        <Button variant="ghost" onClick={() => setShowAll(true)}>
          <Trans>Show all ({visible.length})</Trans>
        </Button>
      )}
    </section>
  );
}
