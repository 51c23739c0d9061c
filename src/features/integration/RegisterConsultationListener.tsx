import { useNavigate } from '@tanstack/react-router';
import { useAtomValue } from 'jotai';
import { useEffect } from 'react';
import { ApiFailureError } from '../../api/client';
import { consultationsApi } from '../../api/consultations';
import { authAtom } from '../../app-state';
import { consultationPathFor } from '../auth/navigation-rules';
import { cacheSession } from '../consultation/useConsultationSession';
import { DEFAULT_TYPE, parseRegisterMessage } from './register-consultation';

/** Listens for `register_consultation` from the configured systems while a clinician is signed in. */
export function RegisterConsultationListener() {
  const navigate = useNavigate();
  const signedIn = Boolean(useAtomValue(authAtom));
  const v2Home = useAtomValue(authAtom)?.user?.v2_home ?? false;

  useEffect(() => {
    if (!signedIn) return;
    let origins: string[] = [];
    let stopped = false;
    consultationsApi.capabilities().then(
      (c) => (origins = c.integration?.origins ?? []),
      () => undefined,
    );

    async function onMessage(event: MessageEvent) {
      const request = parseRegisterMessage(event, origins);
      if (!request || stopped) return;
      const reply = (body: Record<string, unknown>) =>
        (event.source as WindowProxy | null)?.postMessage({ external_id: request.externalId, ...body }, event.origin);
      let session: { id: string; show_transcription: boolean } | undefined;
      try {
        const { consultation_session } = await consultationsApi.start(request.consultationTypeId ?? DEFAULT_TYPE, {});
        await cacheSession(consultation_session);
        session = consultation_session;
      } catch (err) {
        if (err instanceof ApiFailureError && err.failure.kind === 'http' && err.failure.status === 409) {
          const active = await consultationsApi.activeStatus().catch(() => undefined);
          if (active?.active && active.id) session = { id: active.id, show_transcription: active.show_transcription ?? false };
        }
      }
      if (!session) {
        reply({ event: 'consultation_registration_failed' });
        return;
      }
      reply({ event: 'consultation_registered', id: session.id });
      const path = consultationPathFor(session, v2Home, window.location.pathname);
      if (path) await navigate({ to: path });
    }
    const listener = (e: MessageEvent) => void onMessage(e);
    window.addEventListener('message', listener);
    return () => {
      stopped = true;
      window.removeEventListener('message', listener);
    };
  }, [signedIn, v2Home, navigate]);

  return null;
}
