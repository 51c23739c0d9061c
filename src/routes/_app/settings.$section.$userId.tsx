import { createFileRoute } from '@tanstack/react-router';
import { SettingsScreen } from '../../features/settings/SettingsScreen';

export const Route = createFileRoute('/_app/settings/$section/$userId')({
  component: function MemberSettings() {
    const { section, userId } = Route.useParams();
    return <SettingsScreen section={section} userId={userId} />;
  },
});
