import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { createFileRoute, Link } from '@tanstack/react-router';
import { AuthLayout } from '../features/auth/AuthLayout';
import { Alert } from '../ui/Alert';

const REASONS = {
  unknown_record_system: msg`This record system is not linked to an organization here. An administrator of your organization sets it up in Settings › Organization, with the client id for launches.`,
  record_system_unreachable: msg`The record system could not be reached or did not answer as expected. Try again in a moment.`,
  refused: msg`The record system did not authorize this app. Open the consultation again from the record system.`,
  expired: msg`This launch has expired or was already used. Open the consultation again from the record system.`,
  not_member: msg`Your account belongs to another organization than the one linked to this record system.`,
  no_identity: msg`The record system did not say who you are (no e-mail address), so nobody could be signed in.`,
  recording_elsewhere: msg`A consultation is being recorded on your account. Finish or pause it before opening another one from the record system.`,
} as const;
type Reason = keyof typeof REASONS;
const isReason = (r: unknown): r is Reason => typeof r === 'string' && r in REASONS;

/** Where a launch from the record system that could not go on lands (server/src/modules/launch). */
export const Route = createFileRoute('/launch_failed')({
  validateSearch: (search: Record<string, unknown>): { reason?: Reason } => (isReason(search.reason) ? { reason: search.reason } : {}),
  component: function LaunchFailed() {
    const { i18n } = useLingui();
    const { reason } = Route.useSearch();
    return (
      <AuthLayout title={<Trans>The consultation could not be opened from the record system</Trans>}>
        <Alert tone="error">{i18n._(REASONS[reason ?? 'record_system_unreachable'])}</Alert>
        <p>
          <Link to="/login">
            <Trans>Sign in here instead</Trans>
          </Link>
        </p>
      </AuthLayout>
    );
  },
});
