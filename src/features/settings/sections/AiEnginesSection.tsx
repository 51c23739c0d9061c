import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useState, type FormEvent } from 'react';
import { aiEnginesApi, type AiEngineKind, type AiEngineState, type AiEnginesView, type AiEngineTestResult, type FoundEngine } from '../../../api/ai-engines';
import { ApiFailureError } from '../../../api/client';
import { Alert } from '../../../ui/Alert';
import { Button } from '../../../ui/Button';
import { Checkbox } from '../../../ui/Checkbox';
import { Dialog, FormDialogActions } from '../../../ui/Dialog';
import { TextField } from '../../../ui/TextField';
import { describeFailure, fieldCodes } from '../../i18n/api-error-messages';

const kindTitles: Record<AiEngineKind, MessageDescriptor> = { speech: msg`Speech (transcription)`, text: msg`Text (notes and documents)` };

const engineNames: Record<string, MessageDescriptor> = {
  local: msg`Local engine on this server`,
  none: msg`No speech engine`,
  composer: msg`Assembled without AI (no model)`,
  openai: msg`OpenAI-compatible endpoint`,
};

const testFailures: Record<Extract<AiEngineTestResult, { ok: false }>['error'], MessageDescriptor> = {
  unreachable: msg`Nothing answers at this address. Check the address and that the engine is running.`,
  address_not_allowed: msg`This address leads to a cloud metadata service (a link-local address), where no engine runs. This server does not connect to it.`,
  unauthorized: msg`The engine refused the API key.`,
  not_found: msg`The engine does not know this model or address. Check the model name and that the address ends in /v1.`,
  timeout: msg`The engine took too long to answer (more than 30 seconds).`,
  failed: msg`The engine answered with an error.`,
};

const fieldMessages: Record<string, MessageDescriptor> = {
  invalid_url: msg`Enter an address that starts with http:// or https://, without a user, password, query (?) or #.`,
  link_local_address: msg`This is a link-local address (a cloud metadata service), not an engine.`,
  invalid_model: msg`A model name has letters, digits and . : / @ + - _ only.`,
  invalid_key: msg`An API key has no spaces.`,
  required: msg`Required.`,
  too_long: msg`Too long.`,
};

type Draft = { base_url: string; model: string; api_key: string; remove_key: boolean };
const draftOf = (state: AiEngineState): Draft => ({ base_url: state.saved?.base_url ?? '', model: state.saved?.model ?? '', api_key: '', remove_key: false });

/**
 * Settings › AI engines, for the administrators of this server: which engines transcribe and write for everyone,
 * an OpenAI-compatible endpoint for each (found on this machine or typed in), a test before saving, and a save
 * that asks for the password again. Keys go to the server and never come back.
 */
export function AiEnginesSection() {
  const { i18n } = useLingui();
  const [view, setView] = useState<AiEnginesView>();
  const [error, setError] = useState<string>();
  const [drafts, setDrafts] = useState<Partial<Record<AiEngineKind, Draft>>>({});
  const [found, setFound] = useState<FoundEngine[]>();
  const [searching, setSearching] = useState(false);

  useEffect(() => {
    aiEnginesApi.get().then(
      (v) => {
        setView(v);
        setDrafts({ speech: draftOf(v.speech), text: draftOf(v.text) });
      },
      (err) => setError(describeFailure(i18n, err)),
    );
  }, [i18n]);

  async function search() {
    setSearching(true);
    try {
      setFound((await aiEnginesApi.discover()).found);
    } catch (err) {
      setError(describeFailure(i18n, err));
    } finally {
      setSearching(false);
    }
  }

  const use = (kind: AiEngineKind, engine: FoundEngine, model: string) =>
    setDrafts((d) => ({ ...d, [kind]: { base_url: engine.base_url, model, api_key: '', remove_key: false } }));

  return (
    <section className="card settings-section" aria-labelledby="ai-engines-title">
      <h2 id="ai-engines-title">
        <Trans>AI engines</Trans>
      </h2>
      <p className="muted">
        <Trans>
          The engines that transcribe consultations and write notes and documents for everyone on this server. Any engine that speaks the OpenAI format works: a
          service in the cloud, or Ollama, llama.cpp, vLLM or a Whisper server on your own network. When the server's environment settings name an engine, they
          win over what is set here.
        </Trans>
      </p>
      {error && <Alert tone="error">{error}</Alert>}
      <div className="form-actions">
        <Button variant="secondary" busy={searching} onClick={search}>
          <Trans>Look for engines on this machine</Trans>
        </Button>
      </div>
      {found && (
        <div aria-live="polite">
          {found.length === 0 ? (
            <p className="muted">
              <Trans>No engine found on this machine (Ollama, llama.cpp, vLLM, LM Studio on their usual ports). Type its address below.</Trans>
            </p>
          ) : (
            <ul className="engine-found" aria-label={i18n._(msg`Engines found on this machine`)}>
              {found.map((f) => (
                <li key={f.base_url}>
                  <strong>{f.name}</strong> <code>{f.base_url}</code>
                  <div className="row-actions">
                    {f.speech_models.map((m) => (
                      <Button key={`s-${m}`} variant="secondary" onClick={() => use('speech', f, m)} disabled={view?.speech.locked_by_environment}>
                        <Trans>Use {m} for speech</Trans>
                      </Button>
                    ))}
                    {f.text_models.map((m) => (
                      <Button key={`t-${m}`} variant="secondary" onClick={() => use('text', f, m)} disabled={view?.text.locked_by_environment}>
                        <Trans>Use {m} for text</Trans>
                      </Button>
                    ))}
                  </div>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
      {view &&
        (['speech', 'text'] as const).map((kind) => (
          <EngineForm
            key={kind}
            kind={kind}
            state={view[kind]}
            draft={drafts[kind] ?? draftOf(view[kind])}
            onDraft={(d) => setDrafts((all) => ({ ...all, [kind]: d }))}
            onSaved={(v) => {
              setView(v);
              setDrafts((all) => ({ ...all, [kind]: draftOf(v[kind]) }));
            }}
          />
        ))}
    </section>
  );
}

function ActiveEngine({ state }: { state: AiEngineState }) {
  const { i18n } = useLingui();
  const { active } = state;
  const name = i18n._(engineNames[active.engine] ?? engineNames.openai!);
  return (
    <p data-testid="active-engine">
      <Trans>Running now:</Trans> <strong>{name}</strong>
      {active.model && (
        <>
          {' '}
          — <code>{active.model}</code>
        </>
      )}
      {active.base_url && (
        <>
          {' '}
          <Trans>at</Trans> <code>{active.base_url}</code>
        </>
      )}{' '}
      <span className="badge">
        {active.source === 'environment' ? <Trans>server environment</Trans> : active.source === 'app' ? <Trans>set here</Trans> : <Trans>default</Trans>}
      </span>
    </p>
  );
}

function TestOutcome({ kind, result }: { kind: AiEngineKind; result: AiEngineTestResult }) {
  const { i18n } = useLingui();
  if (!result.ok) {
    const { message, status } = result;
    return (
      <Alert tone="error">
        {i18n._(testFailures[result.error])}{' '}
        {status !== null && (
          <Trans>
            (answer {status}: {message})
          </Trans>
        )}
      </Alert>
    );
  }
  const ms = result.latency_ms;
  if (kind === 'text' && result.answer === '' && ms === 0) {
    return (
      <Alert tone="info">
        <Trans>Documents are assembled without AI: there is no model to test.</Trans>
      </Alert>
    );
  }
  const answer = result.answer;
  const expected = result.expected;
  return (
    <Alert tone="success">
      <Trans>The engine answered in {ms} ms:</Trans> “{answer}”
      {expected && (
        <>
          {' '}
          <Trans>(the clip says: “{expected}”)</Trans>
        </>
      )}
    </Alert>
  );
}

function EngineForm({
  kind,
  state,
  draft,
  onDraft,
  onSaved,
}: {
  kind: AiEngineKind;
  state: AiEngineState;
  draft: Draft;
  onDraft: (d: Draft) => void;
  onSaved: (v: AiEnginesView) => void;
}) {
  const { i18n, t } = useLingui();
  const [testing, setTesting] = useState(false);
  const [result, setResult] = useState<AiEngineTestResult>();
  const [failure, setFailure] = useState<string>();
  const [saved, setSaved] = useState<string>();
  const [confirming, setConfirming] = useState<'save' | 'reset'>();
  const [password, setPassword] = useState('');
  const [passwordError, setPasswordError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const locked = state.locked_by_environment;
  const fieldError = (name: string) => {
    const code = fieldErrors[name];
    return code ? i18n._(fieldMessages[code] ?? fieldMessages.invalid_url!) : undefined;
  };
  /** A refused field is shown under it; anything else above the buttons. */
  const showFailure = (err: unknown) => {
    const fields = fieldCodes(err);
    setFieldErrors(fields);
    if (Object.keys(fields).length === 0) setFailure(describeFailure(i18n, err));
  };
  const title = i18n._(kindTitles[kind]);
  const filled = draft.base_url.trim() !== '' && draft.model.trim() !== '';
  const sameAddress = state.saved?.base_url === draft.base_url.trim().replace(/\/+$/, '');
  const keyToSend = draft.remove_key ? '' : draft.api_key.trim() || undefined;

  const set = (patch: Partial<Draft>) => {
    setSaved(undefined);
    setFieldErrors({});
    onDraft({ ...draft, ...patch });
  };

  async function test() {
    setTesting(true);
    setResult(undefined);
    setFailure(undefined);
    try {
      setResult(await aiEnginesApi.test(kind, filled && !locked ? { base_url: draft.base_url.trim(), model: draft.model.trim(), api_key: keyToSend } : {}));
    } catch (err) {
      showFailure(err);
    } finally {
      setTesting(false);
    }
  }

  function ask(what: 'save' | 'reset') {
    return (e?: FormEvent) => {
      e?.preventDefault();
      setPassword('');
      setPasswordError(undefined);
      setConfirming(what);
    };
  }

  async function confirm(e: FormEvent) {
    e.preventDefault();
    if (!password) {
      setPasswordError(t`Enter your password.`);
      return;
    }
    setBusy(true);
    try {
      const next =
        confirming === 'reset'
          ? await aiEnginesApi.reset(kind, password)
          : await aiEnginesApi.save(kind, { base_url: draft.base_url.trim(), model: draft.model.trim(), api_key: keyToSend, password });
      setConfirming(undefined);
      setSaved(confirming === 'reset' ? t`The default engine runs again.` : t`Saved: new consultations use this engine now.`);
      onSaved(next);
    } catch (err) {
      if (err instanceof ApiFailureError && err.failure.kind === 'http' && err.failure.code === 'invalid_current_password')
        setPasswordError(t`The password is not correct.`);
      else {
        setConfirming(undefined);
        showFailure(err);
      }
    } finally {
      setBusy(false);
    }
  }

  const headingId = `engine-${kind}-title`;
  return (
    <section aria-labelledby={headingId} className="engine-form" data-testid={`engine-${kind}`}>
      <h3 id={headingId}>{title}</h3>
      <ActiveEngine state={state} />
      {state.problem && (
        <Alert tone="warning">
          <Trans>
            The engine saved here cannot be used (its key does not open with this server's master key), so the default runs. Enter the key again and save.
          </Trans>
        </Alert>
      )}
      {locked ? (
        <>
          <Alert tone="info">
            <Trans>Chosen by the server's environment settings, which win: change it there (see the README), or remove them to set it here.</Trans>
          </Alert>
          <div className="form-actions">
            <Button variant="secondary" busy={testing} onClick={test}>
              <Trans>Test the engine running now</Trans>
            </Button>
          </div>
        </>
      ) : (
        <form onSubmit={ask('save')} noValidate>
          <div className="form-grid">
            <TextField
              label={t`Address (base URL)`}
              value={draft.base_url}
              inputMode="url"
              autoComplete="off"
              spellCheck={false}
              maxLength={500}
              placeholder={kind === 'speech' ? 'http://127.0.0.1:8000/v1' : 'http://127.0.0.1:11434/v1'}
              hint={t`The address of an OpenAI-compatible API, usually ending in /v1.`}
              error={fieldError('base_url')}
              // Another address has no saved key to remove.
              onChange={(e) => set({ base_url: e.target.value, remove_key: false })}
            />
            <TextField
              label={t`Model`}
              value={draft.model}
              autoComplete="off"
              spellCheck={false}
              maxLength={200}
              placeholder={kind === 'speech' ? 'whisper-1' : 'llama3.2'}
              error={fieldError('model')}
              onChange={(e) => set({ model: e.target.value })}
            />
            <TextField
              label={t`API key`}
              type="password"
              value={draft.api_key}
              // Not a sign-in: password managers must neither save it nor fill it in.
              autoComplete="off"
              data-1p-ignore
              data-lpignore="true"
              data-bwignore
              maxLength={1000}
              error={fieldError('api_key')}
              disabled={draft.remove_key}
              hint={
                state.saved?.has_key && sameAddress
                  ? t`A key is saved for this address. Leave this empty to keep it.`
                  : t`Leave empty for an engine that needs none (a local server).`
              }
              onChange={(e) => set({ api_key: e.target.value })}
            />
          </div>
          {state.saved?.has_key && sameAddress && (
            <Checkbox label={t`Remove the saved key`} checked={draft.remove_key} onChange={(e) => set({ remove_key: e.target.checked })} />
          )}
          <div className="form-actions">
            <Button variant="secondary" busy={testing} onClick={test}>
              {filled ? <Trans>Test</Trans> : <Trans>Test the engine running now</Trans>}
            </Button>
            <Button type="submit" disabled={!filled}>
              <Trans>Save…</Trans>
            </Button>
            {state.saved && (
              <Button variant="ghost" onClick={() => ask('reset')()}>
                <Trans>Back to the default engine…</Trans>
              </Button>
            )}
          </div>
        </form>
      )}
      <div aria-live="polite">
        {result && <TestOutcome kind={kind} result={result} />}
        {failure && <Alert tone="error">{failure}</Alert>}
        {saved && <Alert tone="success">{saved}</Alert>}
      </div>
      <Dialog
        open={confirming !== undefined}
        onOpenChange={(open) => !open && setConfirming(undefined)}
        title={confirming === 'reset' ? t`Back to the default engine` : t`Change engine: ${title}`}
        description={t`This decides where every clinician's consultations are sent. Enter your password to confirm.`}
      >
        <form onSubmit={confirm} noValidate>
          <TextField
            label={t`Password`}
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            error={passwordError}
            autoFocus
          />
          <FormDialogActions onCancel={() => setConfirming(undefined)} submitLabel={confirming === 'reset' ? t`Go back to the default` : t`Save`} busy={busy} />
        </form>
      </Dialog>
    </section>
  );
}
