import { Trans, useLingui } from '@lingui/react/macro';
import { useCallback, useEffect, useState } from 'react';
import { customDocumentsApi, type CustomDocumentRequest } from '../../api/custom-documents';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { describeFailure } from '../i18n/api-error-messages';
import { DocumentBuilder } from './DocumentBuilder';

/** The clinician's requests for custom documents: drafts to continue, sent ones to follow, and a new one. */
export function CustomDocumentRequests({ documents }: { documents: { id: string; name: string }[] }) {
  const { i18n, t } = useLingui();
  const [requests, setRequests] = useState<CustomDocumentRequest[]>();
  const [open, setOpen] = useState<CustomDocumentRequest | 'new'>();
  const [notice, setNotice] = useState<string>();
  const [error, setError] = useState<string>();

  // Spec §4: a request sent and not yet approved blocks a new one and the editing of drafts.
  const pending = requests?.find((r) => r.status === 'submitted');
  const load = useCallback(
    () =>
      customDocumentsApi.list().then(
        (r) => {
          setRequests(r.custom_document_requests);
          setError(undefined);
          return true;
        },
        (err) => {
          setError(describeFailure(i18n, err));
          return false;
        },
      ),
    [i18n],
  );
  useEffect(() => void load(), [load]);

  if (open) {
    return (
      <DocumentBuilder
        request={open === 'new' ? undefined : open}
        documents={documents}
        onDone={() => {
          setOpen(undefined);
          setNotice(undefined);
          void load().then((ok) => ok && setNotice(t`Your requests were updated.`));
        }}
      />
    );
  }
  return (
    <section className="card" aria-labelledby="requests-title">
      <h2 id="requests-title">
        <Trans>Custom documents</Trans>
      </h2>
      <p className="muted">
        <Trans>Need a document that is not here? Describe it section by section, add examples, and support builds it for you.</Trans>
      </p>
      {error && <Alert tone="error">{error}</Alert>}
      {notice && <Alert tone="success">{notice}</Alert>}
      {requests === undefined && !error && (
        <p role="status">
          <Trans>Loading…</Trans>
        </p>
      )}
      {requests && requests.length > 0 && (
        <ul className="recent-list">
          {requests.map((r) => (
            <li key={r.id} className="recent-item" data-testid="custom-request">
              <div>
                <strong>{r.title}</strong>
                <div className="muted">
                  {r.status === 'draft' ? (
                    <Trans>Draft</Trans>
                  ) : r.status === 'approved' ? (
                    <Trans>Approved by support on {i18n.date(r.approved_at ?? r.created_at, { dateStyle: 'medium' })}</Trans>
                  ) : (
                    <Trans>Sent to support on {i18n.date(r.submitted_at ?? r.created_at, { dateStyle: 'medium' })}, waiting for approval</Trans>
                  )}
                </div>
              </div>
              <span className="badge" data-status={r.status === 'approved' ? 'accepted' : r.status === 'submitted' ? 'pending' : undefined}>
                {r.status === 'draft' ? <Trans>Draft</Trans> : r.status === 'approved' ? <Trans>Approved</Trans> : <Trans>Waiting</Trans>}
              </span>
              {r.status === 'draft' && !pending && (
                <Button variant="secondary" onClick={() => setOpen(r)}>
                  <Trans>Continue</Trans>
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
      {requests === undefined ? null : pending ? (
        <Alert tone="info">
          <Trans>Your request "{pending.title}" is waiting for support's approval. You can make a new request, or change a draft, once it is approved.</Trans>
        </Alert>
      ) : (
        <Button onClick={() => setOpen('new')}>
          <Trans>Request a custom document</Trans>
        </Button>
      )}
    </section>
  );
}
