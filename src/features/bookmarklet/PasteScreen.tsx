import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useState } from 'react';
import { consultationsApi } from '../../api/consultations';
import { documentsApi } from '../../api/documents';
import { Alert } from '../../ui/Alert';
import { describeFailure } from '../i18n/api-error-messages';
import { Button } from '../../ui/Button';
import { markdownToPlainText } from '../../../contract/markdown-text';
import { useConsultationTypes } from '../home/useConsultationTypes';
import { PASTE_MESSAGE, targetOrigin } from './bookmarklet';

type Note = { sessionId: string; typeId: string; when: string; text: string };

/** Text compared as words: the clipboard may have changed line endings or trailing spaces on the way. */
const sameText = (a: string, b: string) => a.replace(/\s+/g, ' ').trim() === b.replace(/\s+/g, ' ').trim();

/**
 * The bookmarklet's window: the main documents of the consultations still kept; the one chosen is sent, as plain
 * text, to the page that opened this window, and only to the origin that page declared.
 */
export function PasteScreen({ to }: { to: unknown }) {
  const { i18n } = useLingui();
  const { types } = useConsultationTypes();
  const [notes, setNotes] = useState<Note[]>();
  const [loadError, setLoadError] = useState<string>();
  const [sent, setSent] = useState(false);
  const [problem, setProblem] = useState<'clipboard' | 'foreign'>();
  const origin = targetOrigin(to);
  const opener = typeof window !== 'undefined' ? (window.opener as Window | null) : null;

  useEffect(() => {
    (async () => {
      const { consultation_sessions } = await consultationsApi.recent();
      // The latest twenty: a note is pasted soon after it is written, and each one is a request (asked together,
      // not one after another: the window is opened to paste at once).
      const latest = consultation_sessions.slice(0, 20);
      const docs = await Promise.all(latest.map((s) => documentsApi.get(s.id, 'main').catch(() => undefined)));
      const found: Note[] = [];
      latest.forEach((s, i) => {
        const doc = docs[i];
        if (doc?.generated_document.status === 'done') {
          found.push({
            sessionId: s.id,
            typeId: s.consultation_type_id,
            when: s.finished_at ?? s.created_at,
            text: markdownToPlainText(doc.generated_document.text),
          });
        }
      });
      setNotes(found);
    })().catch((err: unknown) => setLoadError(describeFailure(i18n, err)));
  }, [i18n]);

  if (!origin || !opener) {
    return (
      <Alert tone="info">
        <Trans>This window opens from the bookmarklet (settings › tools), to paste a note into another system's text box.</Trans>
      </Alert>
    );
  }
  function paste(note: Note) {
    setProblem(undefined);
    opener!.postMessage({ type: PASTE_MESSAGE, text: note.text }, origin!);
    setSent(true);
    setTimeout(() => window.close(), 800);
  }
  // What the clinician copied from a document here goes in; anything else on the clipboard is refused (spec §5),
  // so that this window never becomes a way to type arbitrary text into the record system.
  async function pasteCopied() {
    let copied: string;
    try {
      copied = await navigator.clipboard.readText();
    } catch {
      setProblem('clipboard');
      return;
    }
    const note = notes?.find((n) => sameText(n.text, copied));
    if (!note) {
      setProblem('foreign');
      return;
    }
    paste(note);
  }
  return (
    <>
      <p className="muted">
        <Trans>Paste into: {origin}</Trans>
      </p>
      {sent && (
        <Alert tone="success">
          <Trans>Pasted.</Trans>
        </Alert>
      )}
      {problem === 'clipboard' && (
        <Alert tone="error">
          <Trans>The clipboard could not be read. Allow this app to read it when the browser asks, or choose the note below.</Trans>
        </Alert>
      )}
      {problem === 'foreign' && (
        <Alert tone="error">
          <Trans>What is on the clipboard is not a note from this app, so it is not pasted. Copy a document here first, or choose the note below.</Trans>
        </Alert>
      )}
      {notes && notes.length > 0 && (
        <Button variant="secondary" onClick={() => void pasteCopied()}>
          <Trans>Paste what I copied</Trans>
        </Button>
      )}
      {loadError && <Alert tone="error">{loadError}</Alert>}
      {!notes && !loadError && (
        <p role="status">
          <Trans>Loading…</Trans>
        </p>
      )}
      {notes?.length === 0 && (
        <p className="muted">
          <Trans>No notes to paste: documents of finished consultations appear here while they are kept.</Trans>
        </p>
      )}
      <ul className="recent-list">
        {notes?.map((n) => (
          <li key={n.sessionId} className="card recent-item">
            <div>
              <strong>{types?.find((ty) => ty.id === n.typeId)?.name ?? n.typeId}</strong>
              <div className="muted">{i18n.date(n.when, { dateStyle: 'medium', timeStyle: 'short' })}</div>
              <p className="history-excerpt">{n.text.slice(0, 140)}…</p>
            </div>
            <Button onClick={() => paste(n)}>
              <Trans>Paste</Trans>
            </Button>
          </li>
        ))}
      </ul>
    </>
  );
}
