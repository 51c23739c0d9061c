import { Trans } from '@lingui/react/macro';
import { createFileRoute } from '@tanstack/react-router';
import { ComingSoon } from '../../ui/ComingSoon';

export const Route = createFileRoute('/_app/editor/{-$consultationTypeId}')({
  component: () => <ComingSoon title={<Trans>Consultation type editor</Trans>} />,
});
