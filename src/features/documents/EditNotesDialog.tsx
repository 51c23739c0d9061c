import type { MessageDescriptor } from '@lingui/core';
import { Trans, useLingui } from '@lingui/react/macro';
import * as Tabs from '@radix-ui/react-tabs';
import { useEffect, useRef, useState } from 'react';
import { documentsApi, type GeneratedDocument } from '../../api/documents';
import { useSessionDraft } from '../../offline/session-drafts';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import { TextAreaField } from '../../ui/TextAreaField';
import { describeFailure } from '../i18n/api-error-messages';
import { MicrophoneError, openMicrophone } from '../recording/microphone';
import { microphoneMessages } from '../recording/recording-messages';
import { documentMessages } from './document-messages';
import { recordVoiceCommand, remainingLabel, type VoiceCommand } from './voice-command';

type Props = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  sessionId: string;
  docKey: string;
  currentText: string;
  onNewVersion: (doc: GeneratedDocument) => void;
};

/** Spec §2 edit-notes modal: a voice command (up to 1:30), a text command or a manual markdown edit; each makes a new version. */
export function EditNotesDialog({ open, onOpenChange, sessionId, docKey, currentText, onNewVersion }: Props) {
  const { t } = useLingui();
  const [mode, setMode] = useState('text');
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      size="wide"
      title={docKey === 'main' ? <Trans>Edit notes</Trans> : <Trans>Edit document</Trans>}
      description={<Trans>Each change makes a new version; earlier versions stay available.</Trans>}
    >
      <Tabs.Root value={mode} onValueChange={setMode}>
        <Tabs.List className="tabs" aria-label={t`How to change the notes`}>
          <Tabs.Trigger value="voice" className="tab">
            <Trans>Voice command</Trans>
          </Tabs.Trigger>
          <Tabs.Trigger value="text" className="tab">
            <Trans>Text command</Trans>
          </Tabs.Trigger>
          <Tabs.Trigger value="markdown" className="tab">
            <Trans>Edit text</Trans>
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="voice" className="tab-panel">
          <VoiceCommandPanel sessionId={sessionId} docKey={docKey} onNewVersion={onNewVersion} />
        </Tabs.Content>
        <Tabs.Content value="text" className="tab-panel">
          <TextCommandPanel sessionId={sessionId} docKey={docKey} onNewVersion={onNewVersion} />
        </Tabs.Content>
        <Tabs.Content value="markdown" className="tab-panel">
          <MarkdownPanel sessionId={sessionId} docKey={docKey} currentText={currentText} onNewVersion={onNewVersion} />
        </Tabs.Content>
      </Tabs.Root>
    </Dialog>
  );
}

type PanelProps = { sessionId: string; docKey: string; onNewVersion: (doc: GeneratedDocument) => void };

/** Sends one change and hands the new version over; a failure is shown with the spec's wording. */
function useChangeSender({ sessionId, docKey, onNewVersion }: PanelProps) {
  const { i18n } = useLingui();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  /** Resolves true once the server made the new version. */
  async function send(change: { text: string } | { markdown: string } | { audio: Blob }, failure: MessageDescriptor): Promise<boolean> {
    setBusy(true);
    setError(undefined);
    try {
      onNewVersion((await documentsApi.change(sessionId, docKey, change)).generated_document);
      return true;
    } catch (err) {
      setError(describeFailure(i18n, err, failure));
      return false;
    } finally {
      setBusy(false);
    }
  }
  return { busy, error, setError, send };
}

function TextCommandPanel(props: PanelProps) {
  const { t } = useLingui();
  const [text, setText, forgetText] = useSessionDraft(`change.${props.sessionId}.${props.docKey}`, () => '');
  const { busy, error, send } = useChangeSender(props);
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        if (text.trim())
          void send({ text: text.trim() }, documentMessages.sendNotesFailed).then((sent) => {
            if (sent) forgetText();
          });
      }}
    >
      {error && <Alert tone="error">{error}</Alert>}
      <TextAreaField
        label={<Trans>Request a change</Trans>}
        rows={4}
        value={text}
        onChange={(e) => setText(e.target.value)}
        placeholder={t`For example: add pain radiating to the left arm to the subjective.`}
      />
      <Button type="submit" busy={busy} disabled={!text.trim()}>
        <Trans>Send change</Trans>
      </Button>
    </form>
  );
}

function MarkdownPanel({ currentText, ...props }: PanelProps & { currentText: string }) {
  const [text, setText] = useState(currentText);
  const { busy, error, send } = useChangeSender(props);
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        void send({ markdown: text }, documentMessages.sendNotesFailed);
      }}
    >
      {error && <Alert tone="error">{error}</Alert>}
      <TextAreaField
        label={<Trans>Document text (markdown)</Trans>}
        hint={<Trans>Headings start with #, list items with -. Saved as written, without AI.</Trans>}
        rows={14}
        className="markdown-editor"
        value={text}
        onChange={(e) => setText(e.target.value)}
      />
      <Button type="submit" busy={busy} disabled={!text.trim() || text === currentText}>
        <Trans>Save as new version</Trans>
      </Button>
    </form>
  );
}

/**
 * A spoken change: recorded, transcribed, and shown to the clinician, who reads (and may correct) it before it
 * changes the document — a speech engine's mistake never reaches the record unseen.
 */
function VoiceCommandPanel(props: PanelProps) {
  const { i18n } = useLingui();
  const [elapsed, setElapsed] = useState<number>();
  const [heard, setHeard] = useState<string>();
  const [transcribing, setTranscribing] = useState(false);
  const { busy, error, setError, send } = useChangeSender(props);
  const command = useRef<{ voice: VoiceCommand; stream: MediaStream }>(undefined);

  useEffect(
    () => () => {
      // Closing the dialog mid-command discards it and frees the microphone.
      command.current?.voice.stop();
      command.current?.stream.getTracks().forEach((track) => track.stop());
    },
    [],
  );

  async function start() {
    setError(undefined);
    let stream: MediaStream;
    try {
      stream = await openMicrophone();
    } catch (err) {
      setError(i18n._(microphoneMessages[err instanceof MicrophoneError ? err.failure : 'start']));
      return;
    }
    const voice = recordVoiceCommand(stream, { onTick: setElapsed });
    command.current = { voice, stream };
    const audio = await voice.result;
    stream.getTracks().forEach((track) => track.stop());
    command.current = undefined;
    setElapsed(undefined);
    setTranscribing(true);
    try {
      const { text } = await documentsApi.transcribeCommand(audio);
      if (text.trim()) setHeard(text.trim());
      else setError(i18n._(documentMessages.commandNotHeard));
    } catch (err) {
      setError(describeFailure(i18n, err, documentMessages.regenerateAudioFailed));
    } finally {
      setTranscribing(false);
    }
  }

  if (heard !== undefined) {
    return (
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (heard.trim()) void send({ text: heard.trim() }, documentMessages.sendNotesFailed);
        }}
      >
        {error && <Alert tone="error">{error}</Alert>}
        <TextAreaField
          label={<Trans>Your command, as it was heard</Trans>}
          hint={<Trans>Check it before it changes the document; correct any word the speech engine got wrong.</Trans>}
          rows={4}
          value={heard}
          onChange={(e) => setHeard(e.target.value)}
        />
        <div className="dialog-actions">
          <Button variant="ghost" onClick={() => setHeard(undefined)} disabled={busy}>
            <Trans>Discard and record again</Trans>
          </Button>
          <Button type="submit" busy={busy} disabled={!heard.trim()}>
            <Trans>Apply this change</Trans>
          </Button>
        </div>
      </form>
    );
  }

  const recording = elapsed !== undefined;
  return (
    <div>
      {error && <Alert tone="error">{error}</Alert>}
      <p className="muted">
        <Trans>Say what to change, for example “add that the patient is allergic to penicillin”. Up to 1:30; recording stops by itself.</Trans>
      </p>
      {recording ? (
        <div className="voice-command" data-state="recording">
          <span className="recording-dot" data-state="recording" aria-hidden="true" />
          <span role="timer" aria-live="off" className="recording-elapsed">
            <Trans>{remainingLabel(elapsed)} left</Trans>
          </span>
          <Button onClick={() => command.current?.voice.stop()}>
            <Trans>Stop and transcribe</Trans>
          </Button>
        </div>
      ) : (
        <Button onClick={() => void start()} busy={transcribing}>
          {transcribing ? <Trans>Transcribing your command…</Trans> : <Trans>Record voice command</Trans>}
        </Button>
      )}
    </div>
  );
}
