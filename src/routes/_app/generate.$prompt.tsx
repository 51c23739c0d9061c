import { createFileRoute } from '@tanstack/react-router';
import { StandaloneDocumentScreen } from '../../features/documents/StandaloneDocumentScreen';

export const Route = createFileRoute('/_app/generate/$prompt')({
  component: function Generation() {
    const { prompt } = Route.useParams();
    return <StandaloneDocumentScreen target={prompt} />;
  },
});
