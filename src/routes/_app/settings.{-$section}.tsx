import { createFileRoute } from '@tanstack/react-router';
import { SettingsScreen } from '../../features/settings/SettingsScreen';

export const Route = createFileRoute('/_app/settings/{-$section}')({
  component: function Settings() {
    const { section } = Route.useParams();
    return <SettingsScreen section={section} />;
  },
});
