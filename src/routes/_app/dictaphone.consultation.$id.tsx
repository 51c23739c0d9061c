import { createFileRoute } from '@tanstack/react-router';
import { ConsultationScreen } from '../../features/consultation/ConsultationScreen';

export const Route = createFileRoute('/_app/dictaphone/consultation/$id')({
  component: function Dictaphone() {
    const { id } = Route.useParams();
    return <ConsultationScreen key={id} id={id} variant="dictaphone" />;
  },
});
