import { Trans } from '@lingui/react/macro';
import { createFileRoute } from '@tanstack/react-router';
import { ComingSoon } from '../../ui/ComingSoon';

export const Route = createFileRoute('/_app/consultation_types/$consultationTypeId/selectable_documents/$selectableDocumentId')({
  component: () => <ComingSoon title={<Trans>Document</Trans>} />,
});
