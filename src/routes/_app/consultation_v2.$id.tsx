import { Trans } from '@lingui/react/macro';
import { createFileRoute } from '@tanstack/react-router';
import { ComingSoon } from '../../ui/ComingSoon';

export const Route = createFileRoute('/_app/consultation_v2/$id')({
  component: () => <ComingSoon title={<Trans>Consultation</Trans>} />,
});
