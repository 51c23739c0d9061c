import { Trans, useLingui } from '@lingui/react/macro';
import { useCallback, useEffect, useRef, useState } from 'react';
import Markdown from 'react-markdown';
import { markdownPlugins } from '../../../contract/markdown-doc';
import { ApiFailureError } from '../../api/client';
import { documentsApi, type GeneratedDocument } from '../../api/documents';
import { followDocument, StreamEndedEarly } from '../../api/document-stream';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { describeCode, describeFailure } from '../i18n/api-error-messages';
import { DocumentActions } from './DocumentActions';
import { documentMessages } from './document-messages';
import { EditNotesDialog } from './EditNotesDialog';
import { EvidenceList } from './EvidenceList';
import { OmissionList } from './OmissionList';
import { SignButton, SignStatus } from './SignOff';
import { versionNav } from './version-nav';
import { askToNotify, notifyDocumentReady, notifyPermission } from './ready-notification';

const POLL_MS = 1000;
/** Times a stream that ended early is opened again before the view falls back to polling. */
const STREAM_ATTEMPTS = 4;

/** `readOnly`: an archived consultation, whose versions can be read, copied and exported but not changed. */
type Props = {
  sessionId: string;
  docKey: string;
  title: string;
  canGenerate: boolean;
  readOnly?: boolean;
  patientLabel?: string | null;
  waitingForParts?: boolean;
  onWritten?: () => void;
};

/** One document of a consultation: its text as it is written, its versions, the edit-notes modal, copy and export. */
export function DocumentView({ sessionId, docKey, title, canGenerate, readOnly = false, patientLabel, waitingForParts = false, onWritten }: Props) {
  const { i18n, t } = useLingui();
  const [doc, setDoc] = useState<GeneratedDocument | null>();
  const [version, setVersion] = useState<number>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [editing, setEditing] = useState(false);
  const [sources, setSources] = useState(false);
  const rendered = useRef<HTMLElement>(null);

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

  // A version seen being written and now done: told by the browser when this tab is in the background.
  const [permission, setPermission] = useState(notifyPermission);
  const [askedToNotify, setAskedToNotify] = useState(false);
  const writing = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (!doc) return;
    if (doc.status === 'generating') writing.current = doc.id;
    else if (doc.status === 'done' && writing.current === doc.id) {
      writing.current = undefined;
      notifyDocumentReady({ title: t`The document is ready`, body: patientLabel ? `${title} · ${patientLabel}` : title, tag: `document-ready:${doc.id}` });
    }
  }, [doc, t, title, patientLabel]);

  async function notifyWhenReady() {
    setAskedToNotify(true);
    setPermission(await askToNotify());
  }

  // While a version is being written, show its text as it streams in; poll as a fallback if the stream breaks.
  const [streamed, setStreamed] = useState<string>();
  // biome-ignore lint/correctness/useExhaustiveDependencies: doc?.id: a new version being written (a new id, the status still 'generating') opens its own stream.
  useEffect(() => {
    if (doc?.status !== 'generating') return;
    const abort = new AbortController();
    let timer: ReturnType<typeof setInterval> | undefined;
    // A stream that ends without an outcome (the server process answering it is restarting) is opened again, through
    // whichever process answers next; it starts again from the text written so far.
    const follow = async () => {
      for (let attempt = 1; ; attempt++) {
        setStreamed('');
        try {
          return await followDocument(sessionId, docKey, (delta) => setStreamed((s) => (s ?? '') + delta), abort.signal);
        } catch (err) {
          // A clean early end, or a connection dropped on the way (fetch's TypeError): worth opening again.
          const broken = err instanceof StreamEndedEarly || err instanceof TypeError;
          if (abort.signal.aborted || attempt >= STREAM_ATTEMPTS || !broken) throw err;
          await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
        }
      }
    };
    follow()
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

  function showNewVersion(next: GeneratedDocument) {
    setEditing(false);
    setVersion(undefined);
    setDoc(next);
  }

  const nav = versionNav(doc?.version ?? 1, doc?.total_versions ?? 1);
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
            {readOnly ? <Trans>This document was not written for this consultation.</Trans> : <Trans>This document has not been written yet.</Trans>}
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
            <Button variant="secondary" onClick={() => setVersion(nav.previous)} disabled={nav.previous === undefined} aria-label={t`Previous version`}>
              ‹
            </Button>
            <Button variant="secondary" onClick={() => setVersion(nav.next)} disabled={nav.next === undefined} aria-label={t`Next version`}>
              ›
            </Button>
          </div>
          {doc.status === 'generating' && (
            <div className="document-writing">
              <p role="status" className="muted">
                {waitingForParts ? (
                  <Trans>The document is written once the missing parts arrive, or when the wait for them ends.</Trans>
                ) : (
                  <Trans>Writing the document…</Trans>
                )}
              </p>
              {permission === 'default' && (
                <Button variant="ghost" onClick={() => void notifyWhenReady()}>
                  <Trans>Notify me when it is ready</Trans>
                </Button>
              )}
              {permission === 'granted' && askedToNotify && (
                <p className="muted">
                  <Trans>You will be notified when it is ready, if this tab is in the background.</Trans>
                </p>
              )}
            </div>
          )}
          {doc.status === 'failed' && (
            <>
              {/* Why the engine did not finish, and that nothing was charged (the server's error code). */}
              <Alert tone="error">{describeCode(i18n, doc.error_code, documentMessages.generateFailed)}</Alert>
              {!readOnly && canGenerate && (
                <div className="document-actions">
                  <Button onClick={generate} busy={busy}>
                    <Trans>Write again</Trans>
                  </Button>
                </div>
              )}
            </>
          )}
          {/* What the engine wrote before it stopped: a draft, marked as such, never offered to copy or export. */}
          {doc.status === 'failed' && doc.text.trim() !== '' && (
            <p className="document-incomplete" id={`incomplete-${doc.id}`}>
              <strong>
                <Trans>Incomplete: the engine stopped before the end.</Trans>
              </strong>{' '}
              <Trans>This draft is not the document: it cannot be copied or exported. Write the document again.</Trans>
            </p>
          )}
          {/* For every version, whoever wrote it: what a model invented and the clinician kept is still to check. */}
          {doc.status === 'done' && (doc.evidence?.flagged.length ?? 0) > 0 && (
            <Alert tone="warning">
              <Trans>Not in the transcript or your inputs: {doc.evidence!.flagged.join(', ')}. Check these before you copy or export the text.</Trans>
            </Alert>
          )}
          {doc.status === 'done' && <SignStatus doc={doc} />}
          {!(doc.status === 'failed' && doc.text.trim() === '') && (
            <article
              className="document-text"
              data-testid="document-text"
              ref={rendered}
              data-incomplete={doc.status === 'failed' || undefined}
              aria-describedby={doc.status === 'failed' ? `incomplete-${doc.id}` : undefined}
            >
              <Markdown remarkPlugins={markdownPlugins}>{doc.status === 'generating' ? (streamed ?? doc.text) : doc.text}</Markdown>
            </article>
          )}
          {/* Below the note it completes: on a phone the note comes first. */}
          {doc.status === 'done' && doc.version === doc.total_versions && (doc.evidence?.omitted?.length ?? 0) > 0 && (
            <OmissionList
              key={doc.id}
              sessionId={sessionId}
              docKey={docKey}
              doc={doc}
              omitted={doc.evidence!.omitted!}
              readOnly={readOnly}
              onNewVersion={showNewVersion}
            />
          )}
          {doc.status === 'done' && doc.evidence && (
            <div className="document-sources">
              <Button variant="ghost" aria-expanded={sources} onClick={() => setSources((s) => !s)}>
                {sources ? <Trans>Hide sources</Trans> : <Trans>Show sources</Trans>}
              </Button>
              {sources && <EvidenceList sessionId={sessionId} evidence={doc.evidence} />}
            </div>
          )}
          {doc.status === 'done' && (
            <>
              {!readOnly && (
                <div className="document-actions">
                  <SignButton sessionId={sessionId} docKey={docKey} doc={doc} onSigned={setDoc} />
                  <Button onClick={() => setEditing(true)}>
                    {/* The notes are the main document; a certificate or a letter is a document. */}
                    {docKey === 'main' ? <Trans>Edit notes</Trans> : <Trans>Edit document</Trans>}
                  </Button>
                  {canGenerate && (
                    <Button variant="secondary" onClick={generate} busy={busy}>
                      <Trans>Write again</Trans>
                    </Button>
                  )}
                </div>
              )}
              <DocumentActions
                key={doc.id}
                title={title}
                markdown={doc.text}
                rendered={rendered}
                flagged={doc.evidence?.flagged ?? []}
                version={doc.version}
                onChecked={setDoc}
                draft={!doc.signed_at}
                sessionId={sessionId}
                docKey={docKey}
              />
              {editing && !readOnly && (
                <EditNotesDialog open onOpenChange={setEditing} sessionId={sessionId} docKey={docKey} currentText={doc.text} onNewVersion={showNewVersion} />
              )}
            </>
          )}
        </>
      )}
    </div>
  );
}
