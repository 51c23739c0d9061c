import { createFileRoute } from '@tanstack/react-router';
import { ConsultationScreen } from '../../features/consultation/ConsultationScreen';

export const Route = createFileRoute('/_app/consultation_v2/$id')({
  component: function ConsultationV2() {
    const { id } = Route.useParams();
    return <ConsultationScreen key={id} id={id} variant="consultation_v2" />;
  },
});
