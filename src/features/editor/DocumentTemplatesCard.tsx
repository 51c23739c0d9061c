import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useState } from 'react';
import { templatesApi, type PersonalTemplate, type ProcessorInputView } from '../../api/templates';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { confirm } from '../../ui/confirm';
import { TextAreaField } from '../../ui/TextAreaField';
import { describeFailure } from '../i18n/api-error-messages';
import { TemplateForm, TemplatePreview } from './TemplateForm';

type Props = { typeId: string; document: { id: string; name: string; description: string }; input: ProcessorInputView | undefined; onChanged: () => void };

/** One document kind in the editor: the clinician's templates for it and their standing guidance. */
export function DocumentTemplatesCard({ typeId, document, input, onChanged }: Props) {
  const { i18n, t } = useLingui();
  const [editing, setEditing] = useState<string>();
  const [error, setError] = useState<string>();
  const [guide, setGuide] = useState<string>();
  const [guideSaved, setGuideSaved] = useState(false);

  useEffect(() => {
    // Not read: the field stays closed (saving an empty one would erase the guidance the server keeps).
    templatesApi.selectableDocument(typeId, document.id).then(
      (r) => setGuide(r.selectable_document.user_guide),
      (err) => setError(describeFailure(i18n, err)),
    );
  }, [typeId, document.id, i18n]);

  async function run(action: () => Promise<unknown>) {
    setError(undefined);
    try {
      await action();
      setEditing(undefined);
      onChanged();
    } catch (err) {
      setError(describeFailure(i18n, err));
    }
  }

  async function remove(template: PersonalTemplate) {
    const ok = await confirm({
      type: 'warning',
      title: t`Delete this template?`,
      message: t`“${template.name}” will be deleted. This cannot be undone.`,
      confirmLabel: t`Delete`,
    });
    if (ok && input) await run(() => templatesApi.remove(input.id, template.id));
  }

  async function saveGuide() {
    setGuideSaved(false);
    setError(undefined);
    try {
      setGuide((await templatesApi.saveGuide(document.id, guide ?? '')).user_guide.content);
      setGuideSaved(true);
    } catch (err) {
      setError(describeFailure(i18n, err));
    }
  }

  const headingId = `doc-${document.id}`;
  return (
    <section className="card" aria-labelledby={headingId}>
      <h2 id={headingId}>{document.name}</h2>
      <p className="muted">{document.description}</p>
      {error && <Alert tone="error">{error}</Alert>}
      <h3>
        <Trans>Your templates</Trans>
      </h3>
      {input && input.templates.length === 0 && (
        <p className="muted">
          <Trans>No templates yet: documents use the standard layout.</Trans>
        </p>
      )}
      <ul className="template-list">
        {input?.templates.map((template) => (
          <li key={template.id} className="template-item">
            {editing === template.id ? (
              <TemplateForm
                initial={{ name: template.name, template: template.template }}
                submitLabel={<Trans>Save template</Trans>}
                onCancel={() => setEditing(undefined)}
                onSubmit={(d) => run(() => templatesApi.update(input.id, template.id, d))}
              />
            ) : (
              <>
                <div className="template-head">
                  <strong>{template.name}</strong>
                  <span className="template-actions">
                    <Button variant="secondary" onClick={() => setEditing(template.id)} aria-label={t`Edit ${template.name}`}>
                      <Trans>Edit</Trans>
                    </Button>
                    <Button variant="danger" onClick={() => void remove(template)} aria-label={t`Delete ${template.name}`}>
                      <Trans>Delete</Trans>
                    </Button>
                  </span>
                </div>
                <TemplatePreview text={template.template} />
              </>
            )}
          </li>
        ))}
      </ul>
      {input && (
        <details className="template-new">
          <summary>
            <Trans>New template</Trans>
          </summary>
          <TemplateForm submitLabel={<Trans>Create template</Trans>} onSubmit={(d) => run(() => templatesApi.create(input.id, d))} />
        </details>
      )}
      <h3>
        <Trans>Guidance for this document</Trans>
      </h3>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void saveGuide();
        }}
      >
        <TextAreaField
          label={<Trans>What the AI should always do when writing it</Trans>}
          hint={<Trans>For example: “Always state the ICD-10 code.” It never adds facts.</Trans>}
          rows={3}
          maxLength={5000}
          value={guide ?? ''}
          disabled={guide === undefined}
          onChange={(e) => {
            setGuide(e.target.value);
            setGuideSaved(false);
          }}
        />
        <div className="form-actions">
          <Button type="submit" variant="secondary" disabled={guide === undefined}>
            <Trans>Save guidance</Trans>
          </Button>
          {guideSaved && (
            <span role="status" className="muted">
              <Trans>Saved.</Trans>
            </span>
          )}
        </div>
      </form>
    </section>
  );
}
