import { Trans, useLingui } from '@lingui/react/macro';
import { TextField } from '../../ui/TextField';
import { fieldMessage } from './validation-messages';

/** The "new password" and "confirm" pair of the reset and change-password forms, with their messages. */
export function NewPasswordFields(props: {
  password: string;
  confirmation: string;
  onPassword: (value: string) => void;
  onConfirmation: (value: string) => void;
  errors: { password?: string; passwordConfirmation?: string };
}) {
  const { i18n, t } = useLingui();
  return (
    <>
      <TextField
        label={t`New password`}
        type="password"
        autoComplete="new-password"
        value={props.password}
        onChange={(e) => props.onPassword(e.target.value)}
        error={fieldMessage(i18n, props.errors.password)}
        hint={<Trans>At least 6 characters.</Trans>}
      />
      <TextField
        label={t`Confirm new password`}
        type="password"
        autoComplete="new-password"
        value={props.confirmation}
        onChange={(e) => props.onConfirmation(e.target.value)}
        error={fieldMessage(i18n, props.errors.passwordConfirmation)}
      />
    </>
  );
}
