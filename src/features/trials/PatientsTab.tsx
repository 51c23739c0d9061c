import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { ApiFailureError } from '../../api/client';
import { researchApi, type Patient, type TextStatus } from '../../api/research';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { confirm } from '../../ui/confirm';
import { FileDropZone } from '../../ui/FileDropZone';
import { objectKey } from '../../ui/object-key';
import { saveFile } from '../../ui/save-file';
import { TextField } from '../../ui/TextField';
import { describeFailure } from '../i18n/api-error-messages';

/** Spec §5: at most 10 PDF files per patient upload. */
export const MAX_PATIENT_FILES = 10;
const MAX_PDF_MB = 20;

const isPdf = (f: File) => f.type === 'application/pdf' || f.name.toLowerCase().endsWith('.pdf');

function FileTextStatus({ status }: { status: TextStatus }) {
  if (status === 'ocr_pending' || status === 'ocr_running') {
    return (
      <span className="muted">
        {' '}
        · <Trans>Reading the scanned pages…</Trans>
      </span>
    );
  }
  if (status === 'ocr_done') {
    return (
      <span className="muted">
        {' '}
        · <Trans>Read from scanned pages: check the evidence quoted from it.</Trans>
      </span>
    );
  }
  if (status === 'no_text') {
    return (
      <span className="field-error">
        {' '}
        <Trans>No text could be read (a scan without legible text?): screening cannot use it.</Trans>
      </span>
    );
  }
  return null;
}

/** Patients of the space: each one the PDFs dropped (or chosen) together, with a pseudonymous reference. */
export function PatientsTab({ spaceId, patients, onChanged }: { spaceId: string; patients: Patient[]; onChanged: () => Promise<void> }) {
  const { i18n, t } = useLingui();
  const [label, setLabel] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<{ tone: 'success' | 'error'; text: string }>();

  function choose(list: File[]) {
    const next = [...files, ...list];
    const notPdf = next.find((f) => !isPdf(f));
    const tooBig = next.find((f) => f.size > MAX_PDF_MB * 1024 * 1024);
    const file = (notPdf ?? tooBig)?.name;
    if (notPdf) return setNotice({ tone: 'error', text: t`${file} is not a PDF. Only PDF files can be added.` });
    if (tooBig) return setNotice({ tone: 'error', text: t`${file} is larger than ${MAX_PDF_MB} MB.` });
    if (next.length > MAX_PATIENT_FILES) return setNotice({ tone: 'error', text: t`At most ${MAX_PATIENT_FILES} PDF files per patient.` });
    setNotice(undefined);
    setFiles(next);
  }

  function uploadFailure(err: unknown): string {
    if (!(err instanceof ApiFailureError) || err.failure.kind !== 'http') return describeFailure(i18n, err);
    const file = err.failure.fields.files ?? '';
    if (err.failure.status === 413) return t`At most ${MAX_PATIENT_FILES} PDF files per patient, each up to ${MAX_PDF_MB} MB.`;
    if (err.failure.status === 415) return t`${file} is not a PDF. Only PDF files can be added.`;
    if (err.failure.status === 422) return t`${file} could not be read: the PDF is damaged or protected by a password. Nothing was added.`;
    return describeFailure(i18n, err);
  }

  async function add() {
    if (files.length === 0) return setNotice({ tone: 'error', text: t`Add at least one PDF file.` });
    setBusy(true);
    try {
      const { patient } = await researchApi.addPatient(spaceId, label.trim(), files);
      setFiles([]);
      setLabel('');
      await onChanged();
      setNotice({ tone: 'success', text: t`Patient ${patient.label} added.` });
    } catch (err) {
      setNotice({ tone: 'error', text: uploadFailure(err) });
    } finally {
      setBusy(false);
    }
  }

  async function openFile(patient: Patient, file: Patient['files'][number]) {
    try {
      saveFile(await researchApi.patientFile(spaceId, patient.id, file.id), file.file_name);
    } catch (err) {
      setNotice({ tone: 'error', text: describeFailure(i18n, err) });
    }
  }

  async function remove(patient: Patient) {
    if (
      !(await confirm({
        type: 'warning',
        title: t`Delete the patient “${patient.label}”?`,
        message: t`Their PDF files and screening results are deleted. This cannot be undone.`,
        confirmLabel: t`Delete`,
      }))
    )
      return;
    try {
      await researchApi.deletePatient(spaceId, patient.id);
      await onChanged();
    } catch (err) {
      setNotice({ tone: 'error', text: describeFailure(i18n, err) });
    }
  }

  return (
    <>
      <section className="card" aria-labelledby="add-patient-title">
        <h2 id="add-patient-title">
          <Trans>Add a patient</Trans>
        </h2>
        <TextField
          label={t`Patient reference (optional)`}
          hint={t`A pseudonymous code, not the patient's name. Without one, the first file's name is used.`}
          value={label}
          maxLength={200}
          onChange={(e) => setLabel(e.target.value)}
        />
        <FileDropZone
          prompt={<Trans>Drop the patient's PDF records here (up to 10 files), or</Trans>}
          buttonLabel={<Trans>Choose PDF files</Trans>}
          accept=".pdf,application/pdf"
          onFiles={choose}
        />
        {files.length > 0 && (
          <ul className="example-list" aria-label={t`Files to add`}>
            {files.map((f, i) => (
              <li key={objectKey(f)}>
                {f.name}{' '}
                <Button variant="ghost" onClick={() => setFiles(files.filter((_, j) => j !== i))} aria-label={t`Remove ${f.name}`}>
                  <Trans>Remove</Trans>
                </Button>
              </li>
            ))}
          </ul>
        )}
        {notice && (
          <Alert tone={notice.tone} key={notice.text}>
            {notice.text}
          </Alert>
        )}
        <Button onClick={() => void add()} busy={busy}>
          <Trans>Add patient</Trans>
        </Button>
      </section>
      <section className="card" aria-labelledby="patients-title">
        <h2 id="patients-title">
          <Trans>Patients</Trans>
        </h2>
        {patients.length === 0 ? (
          <p className="muted">
            <Trans>No patients yet.</Trans>
          </p>
        ) : (
          <ul className="recent-list">
            {patients.map((p) => (
              <li key={p.id} className="recent-item" data-testid="patient">
                <div>
                  <strong>{p.label}</strong>
                  <ul className="file-list">
                    {p.files.map((f) => (
                      <li key={f.id}>
                        <button type="button" className="link-button" onClick={() => void openFile(p, f)} aria-label={t`Download ${f.file_name}`}>
                          {f.file_name}
                        </button>{' '}
                        · <Plural value={f.pages} one="# page" other="# pages" />
                        <FileTextStatus status={f.text_status} />
                      </li>
                    ))}
                  </ul>
                </div>
                <Button variant="ghost" onClick={() => void remove(p)} aria-label={t`Delete patient ${p.label}`}>
                  <Trans>Delete</Trans>
                </Button>
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}
