import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useMemo, useRef, useState } from 'react';
import Markdown from 'react-markdown';
import { markdownPlugins } from '../../../contract/markdown-doc';
import { generateApi } from '../../api/generate';
import { templatesApi, type ProcessorInputView } from '../../api/templates';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { SelectField } from '../../ui/SelectField';
import { TextAreaField } from '../../ui/TextAreaField';
import { recordingMessages } from '../recording/recording-messages';
import { describeFailure } from '../i18n/api-error-messages';
import { useConsultationTypes } from '../home/useConsultationTypes';
import { DocumentActions } from './DocumentActions';
import { documentMessages } from './document-messages';
import { useDocumentTitle } from '../../ui/use-document-title';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * One document written on its own, outside a consultation: from what the clinician types, in the standard layout
 * or one of their templates. `target` is a document id, or (for /generate/{prompt}) one of their template ids.
 */
export function StandaloneDocumentScreen({ target }: { target: string }) {
  const { i18n, t } = useLingui();
  const { types, failed: typesFailed } = useConsultationTypes();
  const [inputs, setInputs] = useState<ProcessorInputView[]>();
  const [loadError, setLoadError] = useState<string>();
  const [values, setValues] = useState<Record<string, string>>({});
  const [templateId, setTemplateId] = useState(UUID.test(target) ? target : '');
  const [result, setResult] = useState<{ text: string; usesAi: boolean }>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const rendered = useRef<HTMLElement>(null);

  useEffect(() => {
    // A failed load is said as such, never as "this document does not exist".
    templatesApi.inputs().then(
      (r) => setInputs(r.processor_inputs),
      (err) => setLoadError(describeFailure(i18n, err)),
    );
  }, [i18n]);

  const input = inputs?.find((p) => (UUID.test(target) ? p.templates.some((tpl) => tpl.id === target) : p.document_id === target));
  const documentId = input?.document_id ?? (UUID.test(target) ? undefined : target);
  const document = useMemo(() => {
    for (const ty of types ?? []) {
      const found = [ty.main_document, ...ty.selectable_documents].find((d) => d.id === documentId);
      if (found) return found;
    }
    return undefined;
  }, [types, documentId]);
  useDocumentTitle(document?.name ?? t`Document`);

  if (loadError || (typesFailed && !types)) {
    return <Alert tone="error">{loadError ?? i18n._(recordingMessages.typesLoadFailed)}</Alert>;
  }
  if (types && inputs && !document) {
    return (
      <Alert tone="error">
        <Trans>This document does not exist, or the template was deleted.</Trans>
      </Alert>
    );
  }
  if (!document) {
    return (
      <p role="status">
        <Trans>Loading…</Trans>
      </p>
    );
  }

  async function generate() {
    setBusy(true);
    setError(undefined);
    try {
      const template = input?.templates.find((tpl) => tpl.id === templateId)?.template;
      const data = Object.fromEntries(Object.entries(values).filter(([, v]) => v.trim()));
      const r = await generateApi.document({ document: document!.id, data, ...(template ? { template } : {}) });
      setResult({ text: r.text, usesAi: r.uses_ai });
    } catch (err) {
      setError(describeFailure(i18n, err, documentMessages.generateFailed));
    } finally {
      setBusy(false);
    }
  }

  const field = (id: string, label: React.ReactNode, rows = 3) => (
    <TextAreaField label={label} rows={rows} maxLength={50_000} value={values[id] ?? ''} onChange={(e) => setValues((v) => ({ ...v, [id]: e.target.value }))} />
  );
  return (
    <>
      <h1>{document.name}</h1>
      <p className="muted">{document.description}</p>
      <section className="card" aria-labelledby="standalone-data">
        <h2 id="standalone-data">
          <Trans>What to write it from</Trans>
        </h2>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void generate();
          }}
        >
          {input && input.templates.length > 0 && (
            <SelectField
              label={<Trans>Layout</Trans>}
              value={templateId}
              onChange={(e) => setTemplateId(e.target.value)}
              options={[{ value: '', label: t`Standard layout` }, ...input.templates.map((tpl) => ({ value: tpl.id, label: tpl.name }))]}
            />
          )}
          {field('text', <Trans>Clinical information</Trans>, 5)}
          {field('physical_exam', <Trans>Physical examination</Trans>)}
          {field('exams_data', <Trans>Test results</Trans>)}
          {field('medication', <Trans>Medication</Trans>, 2)}
          {error && <Alert tone="error">{error}</Alert>}
          <Button type="submit" busy={busy} disabled={!Object.values(values).some((v) => v.trim())}>
            <Trans>Generate</Trans>
          </Button>
        </form>
      </section>
      {result && (
        <section className="card" aria-labelledby="standalone-result">
          <h2 id="standalone-result">
            <Trans>Document</Trans>
          </h2>
          <article className="document-text" data-testid="document-text" ref={rendered}>
            <Markdown remarkPlugins={markdownPlugins}>{result.text}</Markdown>
          </article>
          <DocumentActions title={document.name} markdown={result.text} rendered={rendered} />
        </section>
      )}
    </>
  );
}
