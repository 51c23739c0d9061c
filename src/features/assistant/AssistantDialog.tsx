import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useRef, useState } from 'react';
import Markdown from 'react-markdown';
import { markdownPlugins } from '../../../contract/markdown-doc';
import { assistantsApi, type AssistantMessage, type AssistantView } from '../../api/assistants';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import { SelectField } from '../../ui/SelectField';
import { TextAreaField } from '../../ui/TextAreaField';
import { describeFailure } from '../i18n/api-error-messages';
import { pollRun } from './poll-run';

/** The assistant chat: choose an assistant, ask, and read the answer when its run completes. One thread per opening. */
export function AssistantDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const { i18n, t } = useLingui();
  const [assistants, setAssistants] = useState<AssistantView[]>();
  const [available, setAvailable] = useState(true);
  const [assistantKey, setAssistantKey] = useState('');
  const [threadKey, setThreadKey] = useState<string>();
  const [messages, setMessages] = useState<AssistantMessage[]>([]);
  const [question, setQuestion] = useState('');
  const [waiting, setWaiting] = useState(false);
  const [error, setError] = useState<string>();
  const abort = useRef(new AbortController());

  useEffect(() => {
    assistantsApi.list().then(
      (r) => {
        setAssistants(r.assistants);
        setAvailable(r.available);
        setAssistantKey((k) => k || r.assistants[0]?.key || '');
      },
      (err) => setError(describeFailure(i18n, err)),
    );
    const controller = abort.current;
    return () => controller.abort();
  }, [i18n]);

  async function ask() {
    const message = question.trim();
    if (!message) return;
    setWaiting(true);
    setError(undefined);
    setMessages((m) => [...m, { role: 'user', content: message, created_at: new Date().toISOString() }]);
    setQuestion('');
    try {
      const keys = await assistantsApi.ask({ message, assistant_key: assistantKey, thread_key: threadKey });
      setThreadKey(keys.thread_key);
      const run = await pollRun(assistantsApi.run, keys, abort.current.signal);
      setMessages(run.messages);
      if (run.status === 'failed')
        setError(
          !available
            ? t`The assistant needs an AI engine, and none is configured on this server.`
            : run.error_code?.startsWith('engine_')
              ? t`The AI engine stopped before finishing its answer, so none is shown. Nothing was charged. Ask again.`
              : t`The assistant could not answer. Try again.`,
        );
    } catch (err) {
      setError(describeFailure(i18n, err));
    } finally {
      setWaiting(false);
    }
  }

  const chosen = assistants?.find((a) => a.key === assistantKey);
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      size="wide"
      title={<Trans>Assistant</Trans>}
      description={<Trans>Answers are suggestions: check them before you use them in care.</Trans>}
    >
      {!available && (
        <Alert tone="info">
          <Trans>AI not configured: the assistant needs an AI engine, and none is configured on this server.</Trans>
        </Alert>
      )}
      {assistants && (
        <SelectField
          label={<Trans>Assistant</Trans>}
          value={assistantKey}
          disabled={messages.length > 0}
          onChange={(e) => setAssistantKey(e.target.value)}
          options={assistants.map((a) => ({ value: a.key, label: a.name }))}
        />
      )}
      {chosen && <p className="muted">{chosen.description}</p>}
      <ol className="chat" aria-label={t`Conversation`} aria-live="polite">
        {messages.map((m, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the conversation only grows at its end (the server's answer repeats it whole, as new objects), so a message's place is its identity.
          <li key={i} className="chat-message" data-role={m.role}>
            <span className="visually-hidden">{m.role === 'user' ? t`You:` : t`Assistant:`}</span>
            {m.role === 'assistant' ? <Markdown remarkPlugins={markdownPlugins}>{m.content}</Markdown> : <p>{m.content}</p>}
          </li>
        ))}
      </ol>
      {waiting && (
        <p role="status" className="muted">
          <Trans>The assistant is writing…</Trans>
        </p>
      )}
      {error && <Alert tone="error">{error}</Alert>}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void ask();
        }}
      >
        <TextAreaField label={<Trans>Your question</Trans>} rows={3} maxLength={20_000} value={question} onChange={(e) => setQuestion(e.target.value)} />
        <Button type="submit" busy={waiting} disabled={!question.trim() || !assistantKey}>
          <Trans>Ask</Trans>
        </Button>
      </form>
    </Dialog>
  );
}
