import { Trans } from '@lingui/react/macro';
import { createFileRoute } from '@tanstack/react-router';
import { ComingSoon } from '../../ui/ComingSoon';

export const Route = createFileRoute('/_app/dictaphone/consultation/$id')({
  component: () => <ComingSoon title={<Trans>Dictation</Trans>} />,
});
