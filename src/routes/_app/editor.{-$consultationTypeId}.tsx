import { createFileRoute } from '@tanstack/react-router';
import { EditorScreen } from '../../features/editor/EditorScreen';

export const Route = createFileRoute('/_app/editor/{-$consultationTypeId}')({
  component: function Editor() {
    const { consultationTypeId } = Route.useParams();
    return <EditorScreen consultationTypeId={consultationTypeId} />;
  },
});
