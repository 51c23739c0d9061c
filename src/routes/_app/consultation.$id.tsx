import { createFileRoute } from '@tanstack/react-router';
import { ConsultationScreen } from '../../features/consultation/ConsultationScreen';

export const Route = createFileRoute('/_app/consultation/$id')({
  component: function Consultation() {
    const { id } = Route.useParams();
    return <ConsultationScreen key={id} id={id} variant="consultation" />;
  },
});
