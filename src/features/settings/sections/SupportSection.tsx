import { Trans, useLingui } from '@lingui/react/macro';
import { useState, type FormEvent } from 'react';
import { organizationsApi } from '../../../api/organizations';
import { Alert } from '../../../ui/Alert';
import { Button } from '../../../ui/Button';
import { TextAreaField } from '../../../ui/TextAreaField';
import { TextField } from '../../../ui/TextField';
import { describeFailure } from '../../i18n/api-error-messages';

/** Spec §2 settings › support: a message to the support team, sent with the clinician's details. */
export function SupportSection() {
  const { i18n, t } = useLingui();
  const [subject, setSubject] = useState('');
  const [message, setMessage] = useState('');
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ tone: 'success' | 'error'; text: string }>();
  const subjectError = tried && subject.trim().length < 3 ? t`Write a subject of at least 3 characters.` : undefined;
  const messageError = tried && message.trim().length < 10 ? t`Write a message of at least 10 characters.` : undefined;

  async function send(e: FormEvent) {
    e.preventDefault();
    setTried(true);
    if (subject.trim().length < 3 || message.trim().length < 10) return;
    setBusy(true);
    setResult(undefined);
    try {
      await organizationsApi.support(subject.trim(), message.trim());
      setResult({ tone: 'success', text: t`Your message was sent. Support answers by e-mail.` });
      setSubject('');
      setMessage('');
      setTried(false);
    } catch (err) {
      setResult({ tone: 'error', text: describeFailure(i18n, err) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="card" aria-labelledby="support-title">
      <h2 id="support-title">
        <Trans>Support</Trans>
      </h2>
      <p className="muted">
        <Trans>Questions, problems, more credits or a custom document: write to us. Your name, e-mail and organization are sent with the message.</Trans>
      </p>
      <form onSubmit={send} noValidate>
        {result && <Alert tone={result.tone}>{result.text}</Alert>}
        <TextField label={t`Subject`} value={subject} maxLength={200} onChange={(e) => setSubject(e.target.value)} error={subjectError} />
        <TextAreaField label={t`Message`} rows={6} maxLength={10_000} value={message} onChange={(e) => setMessage(e.target.value)} error={messageError} />
        <Button type="submit" busy={busy}>
          <Trans>Send message</Trans>
        </Button>
      </form>
    </section>
  );
}
