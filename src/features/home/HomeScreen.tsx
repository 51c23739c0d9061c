import { Trans } from '@lingui/react/macro';
import { useAtomValue } from 'jotai';
import { authAtom } from '../../app-state';
import { ComingSoon } from '../../ui/ComingSoon';

/** Home (and home-v2): the consultations list and recording arrive with the capture feature. */
export function HomeScreen({ variant }: { variant: 'home' | 'home-v2' }) {
  const name = useAtomValue(authAtom)?.user?.name ?? '';
  return (
    <>
      <p className="muted" data-home={variant}>
        <Trans>Welcome, {name}.</Trans>
      </p>
      <ComingSoon title={<Trans>Consultations</Trans>}>
        <p className="muted">
          <Trans>Recording consultations, recent consultations and their documents will appear here in a coming version.</Trans>
        </p>
      </ComingSoon>
    </>
  );
}
