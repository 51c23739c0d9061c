import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import { Trans, useLingui } from '@lingui/react/macro';
import { useAtomValue } from 'jotai';
import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import { auditEventsApi, type AuditAction, type AuditEventsFilter, type AuditEventView, type AuditResourceType } from '../../../api/audit-events';
import { organizationsApi, type OrgMember } from '../../../api/organizations';
import { authAtom } from '../../../app-state';
import { Alert } from '../../../ui/Alert';
import { Button } from '../../../ui/Button';
import { saveFile } from '../../../ui/save-file';
import { SelectField } from '../../../ui/SelectField';
import { TextField } from '../../../ui/TextField';
import { describeFailure } from '../../i18n/api-error-messages';

const actionLabels: Record<AuditAction, MessageDescriptor> = {
  read: msg`Opened`,
  create: msg`Created`,
  update: msg`Changed`,
  delete: msg`Deleted`,
  export: msg`Exported`,
  execute: msg`Processed`,
};

/** Every kind of record the log names (the type makes a new kind need its label here). */
const resourceLabels: Record<AuditResourceType, MessageDescriptor> = {
  consultation_session: msg`Consultation`,
  recording: msg`Recording`,
  transcript: msg`Transcript`,
  generated_document: msg`Document`,
  consultation_feedback: msg`Consultation feedback`,
  document_feedback: msg`Document feedback`,
  dictation: msg`Dictation`,
  generation: msg`Text generation`,
  assistant: msg`Assistant`,
  document_example: msg`Example document`,
  account: msg`Account`,
  research_space: msg`Research space`,
  research_patient: msg`Research patient`,
  research_patient_file: msg`Patient record (PDF)`,
  screening: msg`Screening`,
  screening_result: msg`Screening result`,
  audit_log: msg`Access log`,
  admin_command: msg`Support command`,
  ai_engine: msg`AI engine`,
  record_system: msg`Record system`,
  organization_settings: msg`Organization settings`,
};

const relatedLabels: Record<string, MessageDescriptor> = {
  audio: msg`Audio part`,
  document: msg`Document`,
  version: msg`Version`,
  space: msg`Space`,
  patient: msg`Patient`,
  trial: msg`Trial`,
  member: msg`Member`,
  example: msg`Example`,
  template: msg`Template`,
};

type Draft = { member: string; resource_type: string; resource_id: string; from: string; to: string };
const emptyDraft: Draft = { member: '', resource_type: '', resource_id: '', from: '', to: '' };

/** Calendar days of the form as instants: from the start of the first day to the start of the day after the last. */
function toFilter(d: Draft): AuditEventsFilter {
  const dayStart = (day: string, plusDays = 0) => {
    const date = new Date(`${day}T00:00:00`);
    date.setDate(date.getDate() + plusDays);
    return date.toISOString();
  };
  return {
    member: d.member || undefined,
    resource_type: (d.resource_type || undefined) as AuditResourceType | undefined,
    resource_id: d.resource_id.trim() || undefined,
    from: d.from ? dayStart(d.from) : undefined,
    to: d.to ? dayStart(d.to, 1) : undefined,
  };
}

/**
 * Settings › access log: for an organisation's administrators, who opened, changed, exported or deleted which
 * patient record, when and from where, with refused attempts. Ids only, never what the records say.
 * Downloadable as FHIR R4 AuditEvent NDJSON.
 */
export function AuditLogSection() {
  const { i18n, t } = useLingui();
  const user = useAtomValue(authAtom)?.user;
  const orgId = user?.organization_id ?? undefined;
  const isAdmin = user?.organization_role === 'admin';
  const captionId = useId();

  const [members, setMembers] = useState<OrgMember[]>([]);
  const [draft, setDraft] = useState<Draft>(emptyDraft);
  const [filter, setFilter] = useState<AuditEventsFilter>({});
  /** The cursors of the pages shown so far: the last one is the page on screen (undefined: the newest). */
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const [page, setPage] = useState<{ events: AuditEventView[]; next: string | null }>();
  const [error, setError] = useState<string>();
  const [downloading, setDownloading] = useState(false);
  const cursor = cursors.at(-1);

  useEffect(() => {
    if (!orgId || !isAdmin) return;
    organizationsApi.get(orgId).then(
      (r) => setMembers(r.organization.members),
      () => setMembers([]),
    );
  }, [orgId, isAdmin]);

  const load = useCallback(async () => {
    if (!orgId || !isAdmin) return;
    setError(undefined);
    setPage(undefined);
    try {
      const r = await auditEventsApi.list(orgId, filter, cursor);
      setPage({ events: r.audit_events, next: r.next_cursor });
    } catch (err) {
      setError(describeFailure(i18n, err));
    }
  }, [orgId, isAdmin, filter, cursor, i18n]);
  useEffect(() => void load(), [load]);

  if (!orgId || !isAdmin) {
    return (
      <section className="card" aria-labelledby="audit-title">
        <h2 id="audit-title">
          <Trans>Access log</Trans>
        </h2>
        <p className="muted">
          <Trans>Only administrators of an organization can see its access log.</Trans>
        </p>
      </section>
    );
  }

  const rangeError = draft.from && draft.to && draft.to < draft.from ? t`The last day must not be before the first.` : undefined;
  function apply(e: FormEvent) {
    e.preventDefault();
    if (rangeError) return;
    setFilter(toFilter(draft));
    setCursors([undefined]);
  }
  function clear() {
    setDraft(emptyDraft);
    setFilter({});
    setCursors([undefined]);
  }
  async function download() {
    setDownloading(true);
    setError(undefined);
    try {
      saveFile(await auditEventsApi.download(orgId!, filter), `access-log-${new Date().toISOString().slice(0, 10)}.ndjson`);
    } catch (err) {
      setError(describeFailure(i18n, err));
    } finally {
      setDownloading(false);
    }
  }

  const set = (key: keyof Draft) => (e: { target: { value: string } }) => setDraft((d) => ({ ...d, [key]: e.target.value }));
  const memberName = (id: string | null) => members.find((m) => m.id === id)?.name;
  const who = (e: AuditEventView) => {
    if (e.actor.kind === 'admin_cli') return t`Support (admin command)`;
    if (e.actor.kind === 'signed_link') return t`Someone with a recording link`;
    if (e.actor.kind === 'anonymous') return t`Not signed in`;
    return e.actor.name ?? memberName(e.actor.user_id) ?? t`Deleted account`;
  };
  const outcome = (e: AuditEventView) => {
    if (e.outcome === 'success') return t`Allowed`;
    if (e.outcome === 'partial') return t`Partly done`;
    // The request may have been carried out: the connection closed before its answer was complete.
    if (e.outcome === 'client_disconnected') return e.status_code !== null ? t`Connection closed early (${e.status_code})` : t`Connection closed early`;
    return e.status_code !== null && e.status_code < 500 ? t`Refused (${e.status_code})` : t`Failed`;
  };
  const outcomeStatus = (e: AuditEventView) => (e.outcome === 'success' ? 'accepted' : e.outcome === 'failure' ? 'rejected' : undefined);

  return (
    <section className="card" aria-labelledby="audit-title">
      <h2 id="audit-title">
        <Trans>Access log</Trans>
      </h2>
      <p className="muted">
        <Trans>
          Who opened, changed, exported or deleted which patient record in your organization, when and from where, refused attempts included. The log keeps
          record ids only, never what the records say, and cannot be changed.
        </Trans>
      </p>
      <form onSubmit={apply} aria-label={t`Filter the access log`}>
        <div className="form-grid">
          <SelectField
            label={<Trans>Member</Trans>}
            value={draft.member}
            onChange={set('member')}
            options={[{ value: '', label: t`All members` }, ...members.map((m) => ({ value: m.id, label: m.name }))]}
          />
          <SelectField
            label={<Trans>Kind of record</Trans>}
            value={draft.resource_type}
            onChange={set('resource_type')}
            options={[{ value: '', label: t`All kinds` }, ...Object.entries(resourceLabels).map(([value, label]) => ({ value, label: i18n._(label) }))]}
          />
          <TextField
            label={<Trans>Record id</Trans>}
            value={draft.resource_id}
            onChange={set('resource_id')}
            hint={<Trans>A consultation's id also finds its recording, transcript and documents.</Trans>}
            autoComplete="off"
            spellCheck={false}
            maxLength={100}
          />
          <TextField label={<Trans>First day</Trans>} type="date" value={draft.from} onChange={set('from')} />
          <TextField label={<Trans>Last day</Trans>} type="date" value={draft.to} onChange={set('to')} error={rangeError} />
        </div>
        <div className="form-actions">
          <Button type="submit" disabled={Boolean(rangeError)}>
            <Trans>Show</Trans>
          </Button>
          <Button variant="ghost" onClick={clear}>
            <Trans>Clear filters</Trans>
          </Button>
          <Button variant="secondary" busy={downloading} onClick={() => void download()}>
            <Trans>Download (FHIR NDJSON)</Trans>
          </Button>
        </div>
      </form>
      {error && <Alert tone="error">{error}</Alert>}
      {!page && !error && (
        <p role="status">
          <Trans>Loading…</Trans>
        </p>
      )}
      {page && page.events.length === 0 && (
        <p className="muted" role="status">
          <Trans>No access recorded for these filters.</Trans>
        </p>
      )}
      {page && page.events.length > 0 && (
        // Scrolls sideways on narrow screens: focusable so it can be scrolled with the keyboard, named by its caption.
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus to be scrolled from the keyboard.
        <section className="table-scroll" aria-labelledby={captionId} tabIndex={0}>
          <table className="data-table" data-stack="narrow">
            <caption id={captionId} className="visually-hidden">
              {t`Access log, newest first, page ${cursors.length}`}
            </caption>
            <thead>
              <tr>
                <th scope="col">{t`When`}</th>
                <th scope="col">{t`Who`}</th>
                <th scope="col">{t`Action`}</th>
                <th scope="col">{t`Record`}</th>
                <th scope="col">{t`Outcome`}</th>
                <th scope="col">{t`Origin`}</th>
              </tr>
            </thead>
            <tbody>
              {page.events.map((e) => (
                <tr key={e.id} data-testid="audit-event">
                  <td data-label={t`When`}>{i18n.date(e.occurred_at, { dateStyle: 'medium', timeStyle: 'medium' })}</td>
                  <td data-label={t`Who`}>{who(e)}</td>
                  <td data-label={t`Action`}>{i18n._(actionLabels[e.action])}</td>
                  <td data-label={t`Record`}>
                    {i18n._(resourceLabels[e.resource_type])}
                    {e.resource_id && (
                      <>
                        {' '}
                        <code>{e.resource_id}</code>
                      </>
                    )}
                    {Object.entries(e.related_ids).map(([name, id]) => (
                      <div key={name} className="muted">
                        {relatedLabels[name] ? i18n._(relatedLabels[name]) : name}: <code>{id}</code>
                      </div>
                    ))}
                  </td>
                  <td data-label={t`Outcome`}>
                    <span className="badge" data-status={outcomeStatus(e)}>
                      {outcome(e)}
                    </span>
                  </td>
                  <td data-label={t`Origin`}>
                    {e.client_address ?? '—'}
                    {e.user_agent && <div className="muted">{e.user_agent}</div>}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
      <nav className="form-actions" aria-label={t`Pages of the access log`}>
        <Button variant="secondary" disabled={cursors.length === 1} onClick={() => setCursors((c) => c.slice(0, -1))}>
          <Trans>Newer</Trans>
        </Button>
        <Button variant="secondary" disabled={!page?.next} onClick={() => page?.next && setCursors((c) => [...c, page.next!])}>
          <Trans>Older</Trans>
        </Button>
      </nav>
    </section>
  );
}
