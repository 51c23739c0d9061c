import { Trans } from '@lingui/react/macro';
import { createFileRoute } from '@tanstack/react-router';
import { ComingSoon } from '../../ui/ComingSoon';

export const Route = createFileRoute('/_app/generate/$prompt')({
  component: () => <ComingSoon title={<Trans>Generate a document</Trans>} />,
});
