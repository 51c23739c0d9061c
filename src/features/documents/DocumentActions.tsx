import { Trans, useLingui } from '@lingui/react/macro';
import { useAtomValue } from 'jotai';
import { useEffect, useState, type RefObject } from 'react';
import { authAtom } from '../../app-state';
import { Button } from '../../ui/Button';
import { documentMessages } from './document-messages';
import { markdownToPlainText } from '../../../contract/markdown-text';
import { formatDocumentDate } from '../../../contract/document-date';
import { isLanguage } from '../../../contract/constants';
import { documentFileName } from './file-name';
import { saveFile } from '../../ui/save-file';
import { consultationsApi } from '../../api/consultations';
import { documentsApi, type GeneratedDocument } from '../../api/documents';
import { describeFailure, fieldCodes } from '../i18n/api-error-messages';
import { recordSystemAvailable } from './record-system';
import { askToCheckFlaggedTerms } from './check-flagged-terms';

/** `flagged`: terms of a model's text found nowhere in the transcript or the inputs, to be checked before the text leaves. */
/** `draft`: a version its clinician has not signed; what leaves the app says so. */
type Props = {
  title: string;
  markdown: string;
  rendered: RefObject<HTMLElement | null>;
  flagged?: string[];
  draft?: boolean;
  sessionId?: string;
  docKey?: string;
  /** The version shown, whose flagged terms the clinician confirms (kept by the server for later versions too). */
  version?: number;
  onChecked?: (doc: GeneratedDocument) => void;
};

/**
 * Copy (formatted, or plain text for record systems that keep only text), PDF and markdown download; for a
 * consultation's document also FHIR: the Bundle a record system imports, and "Send to record". Each acts on this
 * document only, the one whose flagged terms the clinician was asked to check.
 */
export function DocumentActions({ title, markdown, rendered, flagged = [], draft = false, sessionId, docKey, version, onChecked }: Props) {
  const { i18n, t } = useLingui();
  const draftLabel = t`Draft, not signed`;
  const user = useAtomValue(authAtom)?.user;
  const clinician = user?.name ?? '';
  const organizationId = user?.organization_id;
  const [canSend, setCanSend] = useState(false);
  const [sending, setSending] = useState(false);
  useEffect(() => {
    if (!sessionId || !organizationId) return;
    let live = true;
    void recordSystemAvailable(organizationId).then((available) => live && setCanSend(available));
    return () => {
      live = false;
    };
  }, [sessionId, organizationId]);
  const [notice, setNotice] = useState<string>();
  const [checked, setChecked] = useState(false);

  /** A text with unsupported terms leaves only once the clinician has said they checked them (once a version). */
  async function reviewed(): Promise<boolean> {
    if (flagged.length === 0 || checked) return true;
    const ok = await askToCheckFlaggedTerms(i18n, flagged);
    setChecked(ok);
    // Kept by the server, so that the next version (or another device) does not ask again; offline, this screen remembers.
    if (ok && sessionId && docKey && version !== undefined) {
      documentsApi.confirmChecked(sessionId, docKey, version, flagged).then(
        (r) => onChecked?.(r.generated_document),
        () => undefined,
      );
    }
    return ok;
  }

  async function copy(rich: boolean) {
    if (!(await reviewed())) return;
    const plain = markdownToPlainText(markdown);
    try {
      if (rich && typeof ClipboardItem !== 'undefined' && rendered.current) {
        const html = `<meta charset="utf-8">${rendered.current.innerHTML}`;
        await navigator.clipboard.write([
          new ClipboardItem({ 'text/html': new Blob([html], { type: 'text/html' }), 'text/plain': new Blob([plain], { type: 'text/plain' }) }),
        ]);
      } else {
        await navigator.clipboard.writeText(plain);
      }
      setNotice(draft ? t`Copied. This is a draft: it is not signed yet.` : i18n._(documentMessages.copied));
    } catch {
      setNotice(i18n._(documentMessages.copyFailed));
    }
  }

  async function exportPdf() {
    if (!(await reviewed())) return;
    // jsPDF, the layout and the font are loaded only when a clinician asks for a PDF: they stay out of the consultation
    // screen's first load (and out of what the app keeps for offline use until a first export).
    const now = new Date();
    let pdf: Awaited<ReturnType<typeof import('./export-pdf').exportPdf>>;
    try {
      const { exportPdf } = await import('./export-pdf');
      pdf = await exportPdf({
        title: draft ? `${title} (${draftLabel})` : title,
        clinician,
        date: formatDocumentDate(now, isLanguage(i18n.locale) ? i18n.locale : 'pt'),
        markdown,
        pageLabel: (page, total) => t`Page ${page} of ${total}`,
      });
    } catch {
      setNotice(t`Exporting a PDF needs a connection the first time. Try again once you are online.`);
      return;
    }
    saveFile(pdf.output('blob'), documentFileName(title, now, 'pdf'));
  }

  async function downloadFhir() {
    if (!sessionId || !(await reviewed())) return;
    try {
      saveFile(await consultationsApi.fhir(sessionId, docKey), documentFileName(title, new Date(), 'fhir.json'));
    } catch (err) {
      setNotice(describeFailure(i18n, err));
    }
  }

  async function sendToRecord() {
    if (!sessionId || sending || !(await reviewed())) return;
    setSending(true);
    setNotice(t`Sending to the record…`);
    try {
      const { fhir_push } = await consultationsApi.pushToRecord(sessionId, docKey);
      const count = fhir_push.resources.filter((r) => r.resource_type === 'DocumentReference' && r.status > 0).length;
      const refusal = fhir_push.error ?? '';
      setNotice(
        fhir_push.status === 'partial'
          ? t`Sent in part: documents filed: ${count}. The record system refused the rest (${refusal}); send again to file what is missing.`
          : t`Sent to the record system (documents filed: ${count}).`,
      );
    } catch (err) {
      // The record system's own answer (status and message) follows ours: it is what its administrators need.
      const answer = fieldCodes(err).record_system;
      setNotice(answer ? `${describeFailure(i18n, err)} (${answer})` : describeFailure(i18n, err));
    } finally {
      setSending(false);
    }
  }

  return (
    <div className="document-actions">
      <Button variant="secondary" onClick={() => void copy(true)}>
        <Trans>Copy</Trans>
      </Button>
      <Button variant="secondary" onClick={() => void copy(false)}>
        <Trans>Copy as plain text</Trans>
      </Button>
      <Button variant="secondary" onClick={() => void exportPdf()}>
        <Trans>Export PDF</Trans>
      </Button>
      <Button
        variant="secondary"
        onClick={() =>
          void reviewed().then(
            (ok) =>
              ok &&
              saveFile(
                new Blob([draft ? `> ${draftLabel}\n\n${markdown}` : markdown], { type: 'text/markdown;charset=utf-8' }),
                documentFileName(title, new Date(), 'md'),
              ),
          )
        }
      >
        <Trans>Download .md</Trans>
      </Button>
      {sessionId && (
        <Button variant="secondary" onClick={() => void downloadFhir()}>
          <Trans>Download FHIR</Trans>
        </Button>
      )}
      {sessionId && canSend && (
        <Button variant="secondary" disabled={sending} onClick={() => void sendToRecord()}>
          <Trans>Send to record</Trans>
        </Button>
      )}
      <span role="status" className="muted document-notice">
        {notice}
      </span>
    </div>
  );
}
