import { createFileRoute } from '@tanstack/react-router';
import { ResearchSpaceScreen } from '../../features/trials/ResearchSpaceScreen';
import { ResearchSpacesScreen } from '../../features/trials/ResearchSpacesScreen';

export const Route = createFileRoute('/_app/trials/{-$space}')({
  component: function Trials() {
    const { space } = Route.useParams();
    // A new key per space: nothing of one space's screen state carries into another's.
    return space ? <ResearchSpaceScreen key={space} spaceId={space} /> : <ResearchSpacesScreen />;
  },
});
