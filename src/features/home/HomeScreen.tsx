import { Trans } from '@lingui/react/macro';
import { useAtomValue } from 'jotai';
import { authAtom } from '../../app-state';
import { isMobileDevice } from '../pairing/ActiveSessionFollower';
import { PairPhoneCard } from '../pairing/PairPhoneCard';
import { ConsultationTypesList } from './ConsultationTypesList';

/** Home (and home-v2): start a consultation. Recent consultations and trials arrive in coming versions. */
export function HomeScreen({ variant }: { variant: 'home' | 'home-v2' }) {
  const name = useAtomValue(authAtom)?.user?.name ?? '';
  return (
    <>
      <p className="muted" data-home={variant}>
        <Trans>Welcome, {name}.</Trans>
      </p>
      <h1>
        <Trans>Consultations</Trans>
      </h1>
      <ConsultationTypesList />
      {!isMobileDevice() && <PairPhoneCard />}
    </>
  );
}
