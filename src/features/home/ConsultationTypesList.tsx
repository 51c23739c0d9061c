import { Trans, useLingui } from '@lingui/react/macro';
import { Link, useNavigate } from '@tanstack/react-router';
import { useAtomValue } from 'jotai';
import { useState } from 'react';
import { consultationsApi, type ConsultationTypeView } from '../../api/consultations';
import { ApiFailureError } from '../../api/client';
import { appStore, authAtom } from '../../app-state';
import { newConsultationId, startLocally } from '../../offline/session-ops';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { confirm } from '../../ui/confirm';
import { consultationPathFor } from '../auth/navigation-rules';
import { describeFailure } from '../i18n/api-error-messages';
import { cacheSession } from '../consultation/useConsultationSession';
import { isMobileDevice } from '../pairing/ActiveSessionFollower';
import { recordingMessages } from '../recording/recording-messages';
import { cachedTypes } from './useConsultationTypes';

/** Starting a consultation of a type: opens its screen, or offers the one already in progress (409). */
export function useStartConsultation() {
  const { i18n, t } = useLingui();
  const navigate = useNavigate();
  const v2Home = useAtomValue(authAtom)?.user?.v2_home ?? false;
  const [error, setError] = useState<string>();
  const [starting, setStarting] = useState<string>();

  async function open(session: { id: string; show_transcription: boolean }) {
    const path = consultationPathFor(session, v2Home, window.location.pathname);
    if (path) await navigate({ to: path });
  }

  async function start(typeId: string, force = false): Promise<void> {
    setStarting(typeId);
    setError(undefined);
    // Chosen here, so a start whose answer was lost and is then made offline is one consultation, not two.
    const id = newConsultationId();
    try {
      const { consultation_session } = await consultationsApi.start(typeId, { force, mobile: isMobileDevice(), id });
      await cacheSession(consultation_session);
      await open(consultation_session);
    } catch (err) {
      const body = err instanceof ApiFailureError && err.failure.kind === 'http' && err.failure.status === 409;
      const unreachable = err instanceof ApiFailureError && (err.failure.kind === 'network' || err.failure.kind === 'timeout');
      const userId = appStore.get(authAtom)?.user?.id;
      if (unreachable && userId) {
        // No network: the consultation starts on this device and reaches the server when the network returns.
        const type = cachedTypes(i18n.locale)?.find((ty) => ty.id === typeId);
        const session = await startLocally({
          id,
          userId,
          consultationTypeId: typeId,
          showTranscription: type?.show_transcription ?? false,
          mobile: isMobileDevice(),
        });
        void import('../recording/upload-service').then((m) => m.kickUploads());
        await open(session);
        return;
      }
      if (body) {
        const startNew = await confirm({
          type: 'warning',
          title: t`A consultation is in progress`,
          message: t`You can go back to it, or end it and start a new one. Ending it keeps what was recorded.`,
          confirmLabel: t`End it and start a new one`,
          cancelLabel: t`Go back to it`,
        });
        if (startNew) return start(typeId, true);
        const active = await consultationsApi.activeStatus().catch(() => undefined);
        if (active?.active && active.id) await open({ id: active.id, show_transcription: active.show_transcription ?? false });
      } else {
        // With no network, say so: the clinician can try again when it returns.
        setError(describeFailure(i18n, err, recordingMessages.createFailed));
      }
    } finally {
      setStarting(undefined);
    }
  }
  return { start, starting, error };
}

/** The consultation types the clinician can start, each with its documents. */
export function ConsultationTypesList({
  types,
  loadFailed,
  offline = false,
}: {
  types: ConsultationTypeView[] | undefined;
  loadFailed: boolean;
  offline?: boolean;
}) {
  const { i18n, t } = useLingui();
  const { start, starting, error: startError } = useStartConsultation();
  const error = startError ?? (loadFailed ? i18n._(recordingMessages.typesLoadFailed) : undefined);

  return (
    <section aria-labelledby="types-title">
      <h2 id="types-title">
        <Trans>Start a consultation</Trans>
      </h2>
      {error && <Alert tone="error">{error}</Alert>}
      {offline && !error && (
        <Alert tone="warning">
          <Trans>No connection to the server: these are the consultation types saved on this device.</Trans>
        </Alert>
      )}
      {!types && !error && (
        <p role="status">
          <Trans>Loading…</Trans>
        </p>
      )}
      {types?.length === 0 && (
        <p className="muted">
          <Trans>No consultation types are available for this account. Support can add them.</Trans>
        </p>
      )}
      <ul className="type-list">
        {/* One focused action: the first type (the general consultation) leads, full width; the others follow. */}
        {types?.map((type, index) => (
          <li key={type.id} className="card type-card" data-primary={index === 0 || undefined}>
            <h3>{type.name}</h3>
            <p className="muted">{type.description}</p>
            <details className="type-documents">
              <summary>
                <Trans>Write one document on its own</Trans>
              </summary>
              <ul>
                {[type.main_document, ...type.selectable_documents].map((d) => (
                  <li key={d.id}>
                    <Link
                      to="/consultation_types/$consultationTypeId/selectable_documents/$selectableDocumentId"
                      params={{ consultationTypeId: type.id, selectableDocumentId: d.id }}
                    >
                      {d.name}
                    </Link>
                  </li>
                ))}
              </ul>
            </details>
            <Button
              variant={index === 0 ? 'primary' : 'secondary'}
              onClick={() => start(type.id)}
              busy={starting === type.id}
              aria-label={t`Start: ${type.name}`}
            >
              <Trans>Start</Trans>
            </Button>
          </li>
        ))}
      </ul>
    </section>
  );
}
