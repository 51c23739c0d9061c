import { Trans } from '@lingui/react/macro';
import { createFileRoute } from '@tanstack/react-router';
import { ComingSoon } from '../../ui/ComingSoon';

export const Route = createFileRoute('/_app/trials/{-$space}')({
  component: () => <ComingSoon title={<Trans>Research space</Trans>} />,
});
