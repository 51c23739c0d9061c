import { Trans } from '@lingui/react/macro';
import { createFileRoute } from '@tanstack/react-router';
import { AuthLayout } from '../features/auth/AuthLayout';
import { PasteScreen } from '../features/bookmarklet/PasteScreen';

/** The bookmarklet's small window (signed-in only, like every route outside the guest ones). */
export const Route = createFileRoute('/paste')({
  validateSearch: (search: Record<string, unknown>) => ({ to: typeof search.to === 'string' ? search.to : undefined }),
  component: function Paste() {
    const { to } = Route.useSearch();
    return (
      <AuthLayout title={<Trans>Paste a note</Trans>}>
        <PasteScreen to={to} />
      </AuthLayout>
    );
  },
});
