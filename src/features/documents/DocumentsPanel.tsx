import { Trans } from '@lingui/react/macro';
import * as Tabs from '@radix-ui/react-tabs';
import type { ConsultationTypeView } from '../../api/consultations';
import { DocumentView } from './DocumentView';

type Props = {
  sessionId: string;
  type: ConsultationTypeView;
  usesAi: boolean;
  readOnly?: boolean;
  /** The consultation's patient label, the one thing about the patient a notification may show. */
  patientLabel?: string | null;
  /** The notes wait for recorded parts that have not arrived (said beside the recording). */
  waitingForParts?: boolean;
  onWritten?: () => void;
};

/** The main document and the consultation type's selectable documents, one tab each (read-only once archived). */
export function DocumentsPanel({ sessionId, type, usesAi, readOnly = false, patientLabel, waitingForParts = false, onWritten }: Props) {
  const documents = [{ ...type.main_document, key: 'main' }, ...type.selectable_documents.map((d) => ({ ...d, key: d.id }))];
  return (
    <section className="card" aria-labelledby="documents-title">
      <h2 id="documents-title">
        <Trans>Documents</Trans>
      </h2>
      {!usesAi && !readOnly && (
        <p className="muted">
          <Trans>AI not configured: documents are assembled from your inputs and the transcript.</Trans>
        </p>
      )}
      <Tabs.Root defaultValue="main">
        <Tabs.List className="tabs" aria-labelledby="documents-title">
          {documents.map((d) => (
            <Tabs.Trigger key={d.key} value={d.key} className="tab">
              {d.name}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        {documents.map((d) => (
          <Tabs.Content key={d.key} value={d.key} className="tab-panel">
            <DocumentView
              sessionId={sessionId}
              docKey={d.key}
              title={d.name}
              canGenerate={!readOnly}
              readOnly={readOnly}
              patientLabel={patientLabel}
              waitingForParts={waitingForParts}
              onWritten={onWritten}
            />
          </Tabs.Content>
        ))}
      </Tabs.Root>
    </section>
  );
}
