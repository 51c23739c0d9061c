import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { documentsApi, type GeneratedDocument, type Omission } from '../../api/documents';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { describeFailure } from '../i18n/api-error-messages';
import { addToNote } from './add-to-note';
import { documentMessages } from './document-messages';
import { dismissedOmissions, dismissOmission, isDismissed } from './omission-dismissals';

type Props = {
  sessionId: string;
  docKey: string;
  doc: GeneratedDocument;
  omitted: Omission[];
  readOnly: boolean;
  onNewVersion: (doc: GeneratedDocument) => void;
};

/**
 * Said but not in the note: the stretches of the consultation that carry a clinical fact the note does not state
 * (whatever engine wrote it), each with what is missing; "Add to the note" puts it in its section as a new
 * version, "Dismiss" hides it on this device.
 */
export function OmissionList({ sessionId, docKey, doc, omitted, readOnly, onNewVersion }: Props) {
  const { i18n, t } = useLingui();
  const [dismissed, setDismissed] = useState(() => dismissedOmissions(sessionId, doc.key));
  const [adding, setAdding] = useState<number>();
  const [error, setError] = useState<string>();
  const shown = omitted.map((o, i) => ({ o, i })).filter(({ o }) => !isDismissed(dismissed, o));
  if (shown.length === 0) return null;
  const headings = { subjective: t`Subjective`, objective: t`Objective`, assessment: t`Assessment`, plan: t`Plan` };

  async function add(o: Omission, i: number) {
    setAdding(i);
    setError(undefined);
    try {
      const markdown = addToNote(doc.text, o.text, o.section, headings[o.section]);
      onNewVersion((await documentsApi.change(sessionId, docKey, { markdown })).generated_document);
    } catch (err) {
      setError(describeFailure(i18n, err, documentMessages.generateFailed));
    } finally {
      setAdding(undefined);
    }
  }

  return (
    <section className="omissions" aria-labelledby={`omissions-${doc.id}`}>
      <h3 id={`omissions-${doc.id}`}>
        <Trans>Said but not in the note</Trans>
      </h3>
      <p className="muted">
        <Trans>These were said in the consultation and carry a clinical fact the note does not state. Add each one to the note, or dismiss it.</Trans>
      </p>
      {error && <Alert tone="error">{error}</Alert>}
      <ul className="omission-list">
        {shown.map(({ o, i }) => (
          <li key={`${o.start}-${o.end}`}>
            <q className="omission-text">{o.text}</q>
            <span className="omission-meta">
              <span className="badge" data-section={o.section}>
                {headings[o.section]}
              </span>{' '}
              <span className="muted">
                <Trans>Not in the note: {o.missing.join(', ')}</Trans>
              </span>
            </span>
            {!readOnly && (
              <span className="omission-actions">
                <Button
                  variant="secondary"
                  busy={adding === i}
                  disabled={adding !== undefined}
                  onClick={() => void add(o, i)}
                  aria-label={t`Add to the note: ${o.text}`}
                >
                  <Trans>Add to the note</Trans>
                </Button>
                <Button
                  variant="ghost"
                  disabled={adding !== undefined}
                  onClick={() => setDismissed(dismissOmission(sessionId, doc.key, o))}
                  aria-label={t`Dismiss: ${o.text}`}
                >
                  <Trans>Dismiss</Trans>
                </Button>
              </span>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
