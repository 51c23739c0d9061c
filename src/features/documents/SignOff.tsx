import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { documentsApi, type GeneratedDocument } from '../../api/documents';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { confirm } from '../../ui/confirm';
import { describeFailure } from '../i18n/api-error-messages';
import { askToCheckFlaggedTerms } from './check-flagged-terms';

type Props = { sessionId: string; docKey: string; doc: GeneratedDocument; onSigned: (doc: GeneratedDocument) => void };

/** Whether this version is a draft or signed, above its text. */
export function SignStatus({ doc }: { doc: GeneratedDocument }) {
  const { i18n } = useLingui();
  if (doc.signed_at) {
    const when = new Date(doc.signed_at).toLocaleString(i18n.locale, { dateStyle: 'medium', timeStyle: 'short' });
    return (
      <p className="sign-status sign-status-signed" data-testid="sign-status">
        <Trans>Signed on {when}</Trans>
      </p>
    );
  }
  return (
    <p className="sign-status sign-status-draft" data-testid="sign-status">
      <strong>
        <Trans>Draft</Trans>
      </strong>{' '}
      <Trans>Not signed yet: read it, then sign it.</Trans>
    </p>
  );
}

/**
 * The clinician's sign-off, below the text they read: what they sign is the version on screen (the server refuses
 * it when a newer one exists), and any change afterwards is a new draft. Only the latest unsigned version offers it.
 */
export function SignButton({ sessionId, docKey, doc, onSigned }: Props) {
  const { i18n, t } = useLingui();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();

  async function sign() {
    const version = doc.version;
    // Terms a model wrote that nobody said are checked first: the server refuses a signature over them.
    const flagged = doc.evidence?.flagged ?? [];
    if (flagged.length > 0) {
      if (!(await askToCheckFlaggedTerms(i18n, flagged))) return;
      try {
        await documentsApi.confirmChecked(sessionId, docKey, version, flagged);
      } catch (err) {
        setError(describeFailure(i18n, err));
        return;
      }
    }
    const ok = await confirm({
      type: 'info',
      title: t`Sign this document?`,
      message: t`You confirm that you have read version ${version} and that it is correct. The record receives it as final; any later change makes a new draft.`,
      confirmLabel: t`Sign`,
    });
    if (!ok) return;
    setBusy(true);
    setError(undefined);
    try {
      onSigned((await documentsApi.sign(sessionId, docKey, version)).generated_document);
    } catch (err) {
      setError(describeFailure(i18n, err));
    } finally {
      setBusy(false);
    }
  }

  if (doc.signed_at || doc.version !== doc.total_versions) return null;
  return (
    <>
      <Button onClick={() => void sign()} busy={busy}>
        <Trans>Sign document</Trans>
      </Button>
      {error && <Alert tone="error">{error}</Alert>}
    </>
  );
}
