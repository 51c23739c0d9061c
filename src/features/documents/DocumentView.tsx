import { Trans, useLingui } from '@lingui/react/macro';
import { useCallback, useEffect, useId, useState } from 'react';
import Markdown from 'react-markdown';
import { ApiFailureError } from '../../api/client';
import { documentsApi, type GeneratedDocument } from '../../api/documents';
import { followDocument } from '../../api/document-stream';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { describeFailure } from '../i18n/api-error-messages';
import { documentMessages } from './document-messages';

const POLL_MS = 1000;

/** One document of a consultation: its text, its versions, and a change request by text. */
export function DocumentView({ sessionId, docKey, canGenerate, onWritten }: { sessionId: string; docKey: string; canGenerate: boolean; onWritten?: () => void }) {
  const { i18n, t } = useLingui();
  const id = useId();
  const [doc, setDoc] = useState<GeneratedDocument | null>();
  const [version, setVersion] = useState<number>();
  const [error, setError] = useState<string>();
  const [change, setChange] = useState('');
  const [busy, setBusy] = useState(false);

  const load = useCallback(async () => {
    try {
      setDoc((await documentsApi.get(sessionId, docKey, version)).generated_document);
      setError(undefined);
    } catch (err) {
      if (err instanceof ApiFailureError && err.failure.kind === 'http' && err.failure.status === 404) setDoc(null);
      else setError(i18n._(documentMessages.loadFailed));
    }
  }, [sessionId, docKey, version, i18n]);

  useEffect(() => {
    void load();
  }, [load]);

  useEffect(() => {
    if (doc?.status === 'done') onWritten?.();
  }, [doc?.status, onWritten]);

  // While a version is being written, show its text as it streams in; poll as a fallback if the stream breaks.
  const [streamed, setStreamed] = useState<string>();
  useEffect(() => {
    if (doc?.status !== 'generating') return;
    const abort = new AbortController();
    let timer: ReturnType<typeof setInterval> | undefined;
    setStreamed('');
    followDocument(sessionId, docKey, (delta) => setStreamed((s) => (s ?? '') + delta), abort.signal)
      .catch(() => {
        if (!abort.signal.aborted) timer = setInterval(() => void load(), POLL_MS);
      })
      .finally(() => {
        if (!abort.signal.aborted) void load();
      });
    return () => {
      abort.abort();
      clearInterval(timer);
      setStreamed(undefined);
    };
  }, [doc?.status, doc?.id, sessionId, docKey, load]);

  async function generate() {
    setBusy(true);
    try {
      setVersion(undefined);
      setDoc((await documentsApi.start(sessionId, docKey)).generated_document);
    } catch (err) {
      setError(describeFailure(i18n, err, documentMessages.generateFailed));
    } finally {
      setBusy(false);
    }
  }

  async function requestChange() {
    if (!change.trim()) return;
    setBusy(true);
    try {
      const { generated_document } = await documentsApi.change(sessionId, docKey, { text: change.trim() });
      setVersion(undefined);
      setDoc(generated_document);
      setChange('');
    } catch (err) {
      setError(describeFailure(i18n, err, documentMessages.sendNotesFailed));
    } finally {
      setBusy(false);
    }
  }

  if (doc === undefined && !error) {
    return (
      <p role="status">
        <Trans>Loading…</Trans>
      </p>
    );
  }
  return (
    <div className="document">
      {error && <Alert tone="error">{error}</Alert>}
      {doc === null && (
        <div>
          <p className="muted">
            <Trans>This document has not been written yet.</Trans>
          </p>
          {canGenerate && (
            <Button onClick={generate} busy={busy}>
              <Trans>Generate</Trans>
            </Button>
          )}
        </div>
      )}
      {doc && (
        <>
          <div className="document-toolbar">
            <span className="version" aria-live="polite">
              <Trans>
                Version {doc.version} of {doc.total_versions}
              </Trans>
            </span>
            <Button variant="secondary" onClick={() => setVersion(doc.version - 1)} disabled={doc.version <= 1} aria-label={t`Previous version`}>
              ‹
            </Button>
            <Button variant="secondary" onClick={() => setVersion(doc.version + 1)} disabled={doc.version >= doc.total_versions} aria-label={t`Next version`}>
              ›
            </Button>
          </div>
          {doc.status === 'generating' && (
            <p role="status" className="muted">
              <Trans>Writing the document…</Trans>
            </p>
          )}
          {doc.status === 'failed' && (
            <Alert tone="error">
              {i18n._(documentMessages.generateFailed)}{' '}
              <button type="button" className="link-button" onClick={generate}>
                <Trans>Try again</Trans>
              </button>
            </Alert>
          )}
          <article className="document-text" data-testid="document-text">
            <Markdown>{doc.status === 'generating' ? (streamed ?? doc.text) : doc.text}</Markdown>
          </article>
          <div className="field">
            <label htmlFor={`${id}-change`}>
              <Trans>Request a change</Trans>
            </label>
            <textarea id={`${id}-change`} rows={3} value={change} onChange={(e) => setChange(e.target.value)} placeholder={t`For example: add that the pain radiates to the left arm.`} />
          </div>
          <Button onClick={requestChange} busy={busy} disabled={!change.trim() || doc.status === 'generating'}>
            <Trans>Send change</Trans>
          </Button>
        </>
      )}
    </div>
  );
}
