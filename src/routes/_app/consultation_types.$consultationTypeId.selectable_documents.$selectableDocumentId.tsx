import { createFileRoute } from '@tanstack/react-router';
import { StandaloneDocumentScreen } from '../../features/documents/StandaloneDocumentScreen';

export const Route = createFileRoute('/_app/consultation_types/$consultationTypeId/selectable_documents/$selectableDocumentId')({
  component: function SelectableDocument() {
    const { selectableDocumentId } = Route.useParams();
    return <StandaloneDocumentScreen target={selectableDocumentId} />;
  },
});
