import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { organizationsApi, type RecordSystemAuth, type RecordSystemView } from '../../api/organizations';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { Checkbox } from '../../ui/Checkbox';
import { confirm } from '../../ui/confirm';
import { SelectField } from '../../ui/SelectField';
import { TextField } from '../../ui/TextField';
import { describeFailure, fieldCodes } from '../i18n/api-error-messages';
import { forgetRecordSystem } from '../documents/record-system';

const saveFailed = msg`Error updating data`;

/**
 * Settings › organisation, for admins: the record system (FHIR R4 server) "Send to record" posts documents to, and
 * how this server signs in to it. A saved token is never shown again; left empty, it is kept.
 */
export function RecordSystemCard({ orgId, onChange }: { orgId: string; onChange: () => void }) {
  const { i18n, t } = useLingui();
  const [saved, setSaved] = useState<RecordSystemView | null>();
  const [baseUrl, setBaseUrl] = useState('');
  const [auth, setAuth] = useState<RecordSystemAuth>('backend_services');
  const [token, setToken] = useState('');
  const [clientId, setClientId] = useState('');
  const [scope, setScope] = useState('');
  const [launchClientId, setLaunchClientId] = useState('');
  const [requireSignOff, setRequireSignOff] = useState(false);
  const [error, setError] = useState<string>();
  const [fields, setFields] = useState<Record<string, string>>({});
  const [notice, setNotice] = useState<string>();
  const [saving, setSaving] = useState(false);

  // Only state setters inside: the same function for the component's life, so the load below runs once per organization.
  const show = useCallback((view: RecordSystemView | null) => {
    setSaved(view);
    setBaseUrl(view?.base_url ?? '');
    setAuth(view?.auth ?? 'backend_services');
    setClientId(view?.client_id ?? '');
    setScope(view?.scope ?? '');
    setLaunchClientId(view?.launch_client_id ?? '');
    setRequireSignOff(view?.require_sign_off ?? false);
    setToken('');
  }, []);
  useEffect(() => {
    organizationsApi.recordSystem(orgId).then(
      (r) => show(r.fhir_endpoint),
      (err: unknown) => setError(describeFailure(i18n, err)),
    );
  }, [orgId, i18n, show]);

  const fieldMessage = (code: string | undefined) =>
    code === undefined
      ? undefined
      : code === 'required'
        ? t`Required`
        : code === 'address_not_allowed'
          ? t`This server only connects to https addresses on public networks.`
          : t`Enter a valid https address.`;

  async function save(e: FormEvent) {
    e.preventDefault();
    setError(undefined);
    setNotice(undefined);
    setFields({});
    setSaving(true);
    try {
      const { fhir_endpoint } = await organizationsApi.saveRecordSystem(orgId, {
        base_url: baseUrl.trim(),
        auth,
        ...(auth === 'bearer' && token.trim() ? { token: token.trim() } : {}),
        ...(auth === 'backend_services' ? { client_id: clientId.trim(), ...(scope.trim() ? { scope: scope.trim() } : {}) } : {}),
        ...(launchClientId.trim() ? { launch_client_id: launchClientId.trim() } : {}),
        require_sign_off: requireSignOff,
      });
      show(fhir_endpoint);
      setNotice(t`Record system saved.`);
      forgetRecordSystem(orgId);
      onChange();
    } catch (err) {
      setFields(fieldCodes(err));
      setError(describeFailure(i18n, err, saveFailed));
    } finally {
      setSaving(false);
    }
  }

  async function remove() {
    const ok = await confirm({
      type: 'warning',
      title: t`Remove the record system?`,
      message: t`Documents can no longer be sent to the record until one is set again.`,
      confirmLabel: t`Remove`,
    });
    if (!ok) return;
    try {
      await organizationsApi.removeRecordSystem(orgId);
      show(null);
      setNotice(t`Record system removed.`);
      forgetRecordSystem(orgId);
      onChange();
    } catch (err) {
      setError(describeFailure(i18n, err));
    }
  }

  return (
    <section className="card" aria-labelledby="org-record-system">
      <h2 id="org-record-system">
        <Trans>Record system (FHIR)</Trans>
      </h2>
      <p className="muted">
        <Trans>Members send a consultation's finished documents to this FHIR R4 server with "Send to record".</Trans>
      </p>
      {saved === undefined ? (
        // Not read (offline, an error): no empty form that an admin could save over the one the server keeps.
        !error && (
          <p role="status">
            <Trans>Loading…</Trans>
          </p>
        )
      ) : (
        <form onSubmit={(e) => void save(e)}>
          <TextField
            label={<Trans>FHIR base address</Trans>}
            type="url"
            required
            value={baseUrl}
            onChange={(e) => setBaseUrl(e.target.value)}
            placeholder="https://ehr.example.org/fhir"
            error={fieldMessage(fields.base_url)}
          />
          <SelectField
            label={<Trans>Sign-in</Trans>}
            value={auth}
            onChange={(e) => setAuth(e.target.value as RecordSystemAuth)}
            options={[
              // Short: a select shows its value on one line, and a phone has about 30 characters for it.
              { value: 'backend_services', label: t`SMART Backend Services` },
              { value: 'bearer', label: t`Access token` },
              { value: 'none', label: t`None` },
            ]}
          />
          {auth === 'bearer' && (
            <TextField
              label={<Trans>Access token</Trans>}
              type="password"
              autoComplete="off"
              value={token}
              onChange={(e) => setToken(e.target.value)}
              hint={saved?.has_token ? <Trans>A token is saved. Leave this empty to keep it.</Trans> : undefined}
              error={fieldMessage(fields.token)}
            />
          )}
          {auth === 'backend_services' && (
            <>
              <p className="muted">
                <Trans>This server signs in with a key it made for your organization; the record system registers the key's public address.</Trans>
              </p>
              <TextField
                label={<Trans>Client id given by the record system</Trans>}
                value={clientId}
                onChange={(e) => setClientId(e.target.value)}
                error={fieldMessage(fields.client_id)}
              />
              <TextField
                label={<Trans>Scopes</Trans>}
                value={scope}
                onChange={(e) => setScope(e.target.value)}
                placeholder="system/DocumentReference.c system/Bundle.c"
              />
              {saved?.jwks_url && (
                <p>
                  <Trans>Register this public key address in the record system:</Trans> <code className="key-address">{saved.jwks_url}</code>
                </p>
              )}
            </>
          )}
          <TextField
            label={<Trans>Client id for launches from the record system (optional)</Trans>}
            value={launchClientId}
            onChange={(e) => setLaunchClientId(e.target.value)}
            hint={<Trans>With it, the record system opens a consultation for the patient on screen (SMART App Launch), and the clinician is signed in.</Trans>}
          />
          {saved?.launch_client_id && (
            <>
              <p>
                <Trans>Register these addresses in the record system:</Trans>
              </p>
              <ul className="plain-list">
                <li>
                  <Trans>Launch address</Trans>: <code className="key-address">{saved.launch_url}</code>
                </li>
                <li>
                  <Trans>Return address</Trans>: <code className="key-address">{saved.redirect_url}</code>
                </li>
              </ul>
            </>
          )}
          <Checkbox
            label={<Trans>Send documents to the record only once their clinician has signed them</Trans>}
            checked={requireSignOff}
            onChange={(e) => setRequireSignOff(e.target.checked)}
          />
          <div className="row-actions">
            <Button type="submit" busy={saving}>
              <Trans>Save</Trans>
            </Button>
            {saved && (
              <Button type="button" variant="ghost" onClick={() => void remove()}>
                <Trans>Remove</Trans>
              </Button>
            )}
          </div>
        </form>
      )}
      {error && <Alert tone="error">{error}</Alert>}
      <p role="status" className="muted">
        {notice}
      </p>
    </section>
  );
}
