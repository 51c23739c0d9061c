import { useNavigate, useRouterState } from '@tanstack/react-router';
import { useAtomValue } from 'jotai';
import { useEffect, useRef } from 'react';
import { consultationsApi } from '../../api/consultations';
import { authAtom } from '../../app-state';
import { consultationPathFor, homeAfterSessionEnded, routeNameOf } from '../auth/navigation-rules';

export const ACTIVE_SESSION_POLL_MS = 5000;

/** A phone or tablet: where the consultation is being recorded in mobile mode. */
export const isMobileDevice = () => /Android|iPhone|iPad|iPod|Mobile/i.test(navigator.userAgent) || (navigator.maxTouchPoints > 1 && window.innerWidth < 820);

/**
 * Mobile mode (spec §2 and §4): while the account's consultation_mode is mobile and the page is visible, the
 * active session is polled every 5 s, and fetched again whenever the page becomes visible. When one appears,
 * this device opens its consultation screen; when it disappears on a phone, the phone goes back home.
 */
export function ActiveSessionFollower() {
  const user = useAtomValue(authAtom)?.user;
  const navigate = useNavigate();
  const location = useRouterState({ select: (s) => s.location });
  const where = useRef(location);
  where.current = location;
  const lastActive = useRef<string | undefined>(undefined);
  const enabled = user?.consultation_mode === 'mobile';
  const v2Home = user?.v2_home ?? false;

  useEffect(() => {
    if (!enabled) return;
    let stopped = false;
    async function check() {
      if (stopped || document.visibilityState !== 'visible') return;
      const status = await consultationsApi.activeStatus().catch(() => undefined);
      if (!status || stopped) return;
      const { pathname, searchStr } = where.current;
      if (status.active && status.id) {
        lastActive.current = status.id;
        const path = consultationPathFor({ id: status.id, show_transcription: status.show_transcription }, v2Home, pathname);
        if (path) await navigate({ to: path });
      } else if (lastActive.current) {
        const ended = lastActive.current;
        lastActive.current = undefined;
        const onItsPage =
          pathname.endsWith(`/${ended}`) && ['consultation', 'consultation_v2', 'dictaphone_consultation'].includes(routeNameOf(pathname) ?? '');
        if (onItsPage && isMobileDevice()) await navigate({ href: homeAfterSessionEnded(v2Home, searchStr) });
      }
    }
    void check();
    const timer = setInterval(() => void check(), ACTIVE_SESSION_POLL_MS);
    const onVisible = () => void check();
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      stopped = true;
      clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [enabled, v2Home, navigate]);

  return null;
}
