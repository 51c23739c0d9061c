import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { customDocumentsApi, type CustomDocumentRequest, type RequestDraft, type RequestSection } from '../../api/custom-documents';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { confirm } from '../../ui/confirm';
import { objectKey } from '../../ui/object-key';
import { SelectField } from '../../ui/SelectField';
import { TextAreaField } from '../../ui/TextAreaField';
import { TextField } from '../../ui/TextField';
import { useSessionDraft } from '../../offline/session-drafts';
import { describeFailure } from '../i18n/api-error-messages';
import { EXAMPLE_MAX_MB, ExamplesUploader } from './ExamplesUploader';
import { SectionEditorDialog } from './SectionEditorDialog';

type Props = { request?: CustomDocumentRequest; documents: { id: string; name: string }[]; onDone: () => void };
type Editing = { index?: number; focusChange?: boolean } | undefined;

/**
 * Spec §2 document builder: a base document (changeable), a title, sections each with a change request and a
 * delete (confirmed), example files, and vocabulary comments; saved as a draft, then sent to support.
 */
export function DocumentBuilder({ request, documents, onDone }: Props) {
  const { i18n, t } = useLingui();
  const [saved, setSaved] = useState<CustomDocumentRequest | undefined>(request);
  // Kept in the tab until saved or sent, so that an expired session does not lose a request being written.
  const [draft, setDraft, forgetDraft] = useSessionDraft<RequestDraft>(`custom_request.${saved?.id ?? 'new'}`, () => ({
    title: request?.title ?? '',
    base_document: request?.base_document ?? null,
    sections: request?.sections ?? [],
    other_comments: request?.other_comments ?? '',
  }));
  const [editing, setEditing] = useState<Editing>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [titleError, setTitleError] = useState<string>();
  // Asked to send with no section: said until there is one, and gone as soon as one is added.
  const [sectionsMissing, setSectionsMissing] = useState(false);
  const showSectionsMissing = sectionsMissing && draft.sections.length === 0;

  /** Saves the draft (creating it the first time) and answers it, or undefined when it could not. */
  async function save(): Promise<CustomDocumentRequest | undefined> {
    if (!draft.title.trim()) {
      setTitleError(t`Fill this field.`);
      return undefined;
    }
    setTitleError(undefined);
    setBusy(true);
    setError(undefined);
    try {
      const { custom_document_request } = saved ? await customDocumentsApi.update(saved.id, draft) : await customDocumentsApi.create(draft);
      setSaved(custom_document_request);
      forgetDraft();
      return custom_document_request;
    } catch (err) {
      setError(describeFailure(i18n, err));
      return undefined;
    } finally {
      setBusy(false);
    }
  }

  async function addExamples(files: File[]) {
    const target = saved ?? (await save());
    if (!target) return;
    setBusy(true);
    let current = target;
    for (const file of files) {
      if (file.size > EXAMPLE_MAX_MB * 1024 * 1024) {
        const size = (file.size / 1024 / 1024).toFixed(0);
        setError(t`${file.name} is ${size} MB: an example may be at most ${EXAMPLE_MAX_MB} MB.`);
        continue;
      }
      try {
        current = (await customDocumentsApi.addExample(current.id, file)).custom_document_request;
      } catch (err) {
        setError(`${file.name}: ${describeFailure(i18n, err)}`);
      }
    }
    setSaved(current);
    setBusy(false);
  }

  async function removeExample(exampleId: string) {
    if (!saved) return;
    try {
      await customDocumentsApi.removeExample(saved.id, exampleId);
      // Off the list only once the server let it go: otherwise it is still part of the request.
      setSaved({ ...saved, examples: saved.examples.filter((e) => e.id !== exampleId) });
    } catch (err) {
      setError(describeFailure(i18n, err));
    }
  }

  async function send() {
    if (draft.sections.length === 0) {
      setSectionsMissing(true);
      return;
    }
    const target = await save();
    if (!target) return;
    try {
      await customDocumentsApi.submit(target.id);
      onDone();
    } catch (err) {
      setError(describeFailure(i18n, err));
    }
  }

  async function cancel() {
    if (
      await confirm({
        type: 'warning',
        title: t`Leave the request?`,
        message: t`Changes not saved are lost. A saved draft stays in your list.`,
        confirmLabel: t`Leave`,
      })
    ) {
      forgetDraft();
      onDone();
    }
  }

  async function removeSection(index: number) {
    const section = draft.sections[index]!;
    if (await confirm({ type: 'warning', title: t`Delete the section “${section.title}”?`, message: t`This cannot be undone.`, confirmLabel: t`Delete` })) {
      setDraft((d) => ({ ...d, sections: d.sections.filter((_, i) => i !== index) }));
    }
  }

  function putSection(section: RequestSection) {
    setDraft((d) => {
      const sections = [...d.sections];
      if (editing?.index === undefined) sections.push(section);
      else sections[editing.index] = section;
      return { ...d, sections };
    });
    setEditing(undefined);
  }

  return (
    <section className="card" aria-labelledby="builder-title">
      <h2 id="builder-title">{saved ? <Trans>Custom document request</Trans> : <Trans>New custom document request</Trans>}</h2>
      {error && <Alert tone="error">{error}</Alert>}
      {showSectionsMissing && (
        <Alert tone="error">
          <Trans>Add at least one section before sending.</Trans>
        </Alert>
      )}
      <TextField
        label={t`Document title`}
        value={draft.title}
        maxLength={200}
        error={titleError}
        onChange={(e) => setDraft({ ...draft, title: e.target.value })}
      />
      <SelectField
        label={t`Base document`}
        value={draft.base_document ?? ''}
        onChange={(e) => setDraft({ ...draft, base_document: e.target.value || null })}
        options={[{ value: '', label: t`None: start from blank` }, ...documents.map((d) => ({ value: d.id, label: d.name }))]}
      />
      <h3>
        <Trans>Sections</Trans>
      </h3>
      {draft.sections.length === 0 && (
        <p className="muted">
          <Trans>Describe each part of the document, in order.</Trans>
        </p>
      )}
      <ol className="section-list">
        {draft.sections.map((s, i) => (
          <li key={objectKey(s)} className="section-item" data-testid="request-section">
            <strong>{s.title}</strong>
            {s.description && <p>{s.description}</p>}
            {s.change_request && (
              <p className="muted">
                <Trans>Change requested: {s.change_request}</Trans>
              </p>
            )}
            <div className="form-actions">
              <Button variant="secondary" onClick={() => setEditing({ index: i })} aria-label={t`Edit ${s.title}`}>
                <Trans>Edit</Trans>
              </Button>
              <Button variant="secondary" onClick={() => setEditing({ index: i, focusChange: true })} aria-label={t`Request changes to ${s.title}`}>
                <Trans>Request changes</Trans>
              </Button>
              <Button variant="ghost" onClick={() => void removeSection(i)} aria-label={t`Delete ${s.title}`}>
                <Trans>Delete</Trans>
              </Button>
            </div>
          </li>
        ))}
      </ol>
      <Button variant="secondary" onClick={() => setEditing({})}>
        <Trans>Add a section</Trans>
      </Button>
      <ExamplesUploader examples={saved?.examples ?? []} onAdd={(files) => void addExamples(files)} onRemove={(id) => void removeExample(id)} disabled={busy} />
      <TextAreaField
        label={t`Other comments`}
        hint={t`Medical vocabulary, abbreviations or wording you use.`}
        rows={3}
        maxLength={5000}
        value={draft.other_comments}
        onChange={(e) => setDraft({ ...draft, other_comments: e.target.value })}
      />
      <div className="form-actions">
        <Button onClick={() => void send()} busy={busy}>
          <Trans>Send to support</Trans>
        </Button>
        <Button variant="secondary" onClick={() => void save()} disabled={busy}>
          <Trans>Save draft</Trans>
        </Button>
        <Button variant="ghost" onClick={() => void cancel()}>
          <Trans>Cancel</Trans>
        </Button>
      </div>
      {editing && (
        <SectionEditorDialog
          initial={editing.index === undefined ? undefined : draft.sections[editing.index]}
          focusChange={editing.focusChange}
          onSave={putSection}
          onClose={() => setEditing(undefined)}
        />
      )}
    </section>
  );
}
