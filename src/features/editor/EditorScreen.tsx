import { Trans, useLingui } from '@lingui/react/macro';
import { useNavigate } from '@tanstack/react-router';
import { useCallback, useEffect, useState } from 'react';
import { templatesApi, type ProcessorInputView } from '../../api/templates';
import { Alert } from '../../ui/Alert';
import { SelectField } from '../../ui/SelectField';
import { useConsultationTypes } from '../home/useConsultationTypes';
import { recordingMessages } from '../recording/recording-messages';
import type { ConsultationTypeView } from '../../api/consultations';
import { describeFailure } from '../i18n/api-error-messages';
import { CustomDocumentRequests } from '../custom-documents/CustomDocumentRequests';
import { DocumentTemplatesCard } from './DocumentTemplatesCard';
import { useDocumentTitle } from '../../ui/use-document-title';

/** Every document kind offered by some assistant, once. */
const allDocuments = (types: ConsultationTypeView[]) => [
  ...new Map(types.flatMap((ty) => [ty.main_document, ...ty.selectable_documents]).map((d) => [d.id, d])).values(),
];

/** Spec §2 editor: per consultation type, the clinician's templates and guidance for each of its documents. */
export function EditorScreen({ consultationTypeId }: { consultationTypeId?: string }) {
  const { i18n, t } = useLingui();
  useDocumentTitle(t`Templates`);
  const navigate = useNavigate();
  const { types, failed } = useConsultationTypes();
  const [inputs, setInputs] = useState<ProcessorInputView[]>();
  const [inputsFailure, setInputsFailure] = useState<string>();

  const reload = useCallback(() => {
    templatesApi.inputs().then(
      (r) => {
        setInputs(r.processor_inputs);
        setInputsFailure(undefined);
      },
      // With no network, a connection message rather than "Error loading session.".
      (err: unknown) => setInputsFailure(describeFailure(i18n, err)),
    );
  }, [i18n]);
  useEffect(reload, [reload]);

  const type = types?.find((ty) => ty.id === consultationTypeId) ?? types?.[0];
  const documents = type ? [type.main_document, ...type.selectable_documents] : [];
  return (
    <>
      <h1>
        <Trans>Templates</Trans>
      </h1>
      <p className="muted">
        <Trans>Keep your own layouts for each document, and tell the AI what you always want in it.</Trans>{' '}
        <a href="#requests-title">
          <Trans>Need a document that is not here? Request a custom document.</Trans>
        </a>
      </p>
      {(failed || inputsFailure) && <Alert tone="error">{inputsFailure ?? i18n._(recordingMessages.typesLoadFailed)}</Alert>}
      {types && type && (
        <SelectField
          label={<Trans>Consultation type</Trans>}
          value={type.id}
          onChange={(e) => void navigate({ to: '/editor/{-$consultationTypeId}', params: { consultationTypeId: e.target.value } })}
          options={types.map((ty) => ({ value: ty.id, label: ty.name }))}
        />
      )}
      {(!types || !inputs) && !failed && !inputsFailure && (
        <p role="status">
          <Trans>Loading…</Trans>
        </p>
      )}
      {type &&
        inputs &&
        documents.map((d) => (
          <DocumentTemplatesCard
            key={`${type.id}-${d.id}`}
            typeId={type.id}
            document={d}
            input={inputs.find((p) => p.document_id === d.id)}
            onChanged={reload}
          />
        ))}
      {types && <CustomDocumentRequests documents={allDocuments(types)} />}
    </>
  );
}
