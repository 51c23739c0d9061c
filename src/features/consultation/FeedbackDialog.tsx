import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useState } from 'react';
import { feedbackApi, type ConsultationFeedbackInput } from '../../api/documents';
import { Alert } from '../../ui/Alert';
import { Button } from '../../ui/Button';
import { Checkbox } from '../../ui/Checkbox';
import { Dialog, FormDialogActions } from '../../ui/Dialog';
import { TextAreaField } from '../../ui/TextAreaField';
import { describeFailure } from '../i18n/api-error-messages';

function Scale({
  legend,
  from,
  to,
  value,
  onChange,
  name,
}: {
  legend: React.ReactNode;
  from: number;
  to: number;
  value?: number;
  onChange: (v: number) => void;
  name: string;
}) {
  return (
    <fieldset className="scale">
      <legend>{legend}</legend>
      <div className="scale-options">
        {Array.from({ length: to - from + 1 }, (_, i) => from + i).map((n) => (
          <label key={n} className="scale-option">
            <input type="radio" name={name} value={n} checked={value === n} onChange={() => onChange(n)} />
            <span>{n}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** Spec §3 feedback form: how the consultation went for the clinician, the patient and the notes. */
export function FeedbackDialog({ sessionId, open, onOpenChange }: { sessionId: string; open: boolean; onOpenChange: (open: boolean) => void }) {
  const { i18n, t } = useLingui();
  const [form, setForm] = useState<Partial<ConsultationFeedbackInput>>({ share_anonymously: false });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [sent, setSent] = useState(false);
  // A rating sent before is shown again, filled in, with when it was sent: reopening never looks like it was lost.
  const [sentBefore, setSentBefore] = useState<string>();
  useEffect(() => {
    let live = true;
    feedbackApi.get(sessionId).then(
      ({ feedback }) => {
        if (!live) return;
        const { created_at, ...earlier } = feedback;
        setForm(earlier);
        setSentBefore(created_at);
      },
      // None yet (404), or unreachable: the form starts empty.
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [sessionId]);
  const sentOn = sentBefore ? i18n.date(sentBefore, { dateStyle: 'medium', timeStyle: 'short' }) : undefined;
  const set = (patch: Partial<ConsultationFeedbackInput>) => setForm((f) => ({ ...f, ...patch }));

  async function send() {
    if (form.doctor_satisfaction === undefined) {
      setError(t`Choose how satisfied you are, from 0 to 10.`);
      return;
    }
    setBusy(true);
    setError(undefined);
    try {
      await feedbackApi.send(sessionId, {
        ...form,
        doctor_satisfaction: form.doctor_satisfaction,
        share_anonymously: Boolean(form.share_anonymously),
        comment: form.comment?.trim() || null,
      });
      setSent(true);
    } catch (err) {
      setError(describeFailure(i18n, err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange} size="wide" title={<Trans>Rate this consultation</Trans>}>
      {sent ? (
        <>
          <Alert tone="success">
            <Trans>Thank you. Your feedback was sent.</Trans>
          </Alert>
          <div className="dialog-actions">
            <Button onClick={() => onOpenChange(false)}>
              <Trans>Close</Trans>
            </Button>
          </div>
        </>
      ) : (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void send();
          }}
        >
          {error && <Alert tone="error">{error}</Alert>}
          {sentOn && (
            <Alert tone="info">
              <Trans>Thank you: your feedback was sent on {sentOn}. Sending it again replaces it.</Trans>
            </Alert>
          )}
          <Scale
            name="doctor"
            legend={<Trans>How satisfied are you with this consultation? (0 to 10)</Trans>}
            from={0}
            to={10}
            value={form.doctor_satisfaction}
            onChange={(v) => set({ doctor_satisfaction: v })}
          />
          <Scale
            name="patient"
            legend={<Trans>How satisfied did the patient seem? (0 to 10)</Trans>}
            from={0}
            to={10}
            value={form.patient_satisfaction ?? undefined}
            onChange={(v) => set({ patient_satisfaction: v })}
          />
          <Scale
            name="quality"
            legend={<Trans>Quality of the notes (1 to 5)</Trans>}
            from={1}
            to={5}
            value={form.notes_quality ?? undefined}
            onChange={(v) => set({ notes_quality: v })}
          />
          <fieldset className="scale">
            <legend>
              <Trans>Time spent editing the notes</Trans>
            </legend>
            <div className="scale-options">
              {(
                [
                  ['under_1_min', t`Under 1 min`],
                  ['1_5_min', t`1 to 5 min`],
                  ['5_10_min', t`5 to 10 min`],
                  ['over_10_min', t`Over 10 min`],
                ] as const
              ).map(([value, label]) => (
                <label key={value} className="scale-option scale-option-wide">
                  <input type="radio" name="editing" value={value} checked={form.editing_time === value} onChange={() => set({ editing_time: value })} />
                  <span>{label}</span>
                </label>
              ))}
            </div>
          </fieldset>
          <TextAreaField
            label={<Trans>Comment (optional)</Trans>}
            rows={3}
            maxLength={2000}
            value={form.comment ?? ''}
            onChange={(e) => set({ comment: e.target.value })}
          />
          <Checkbox
            label={<Trans>I agree to share this feedback anonymously to improve the product.</Trans>}
            checked={Boolean(form.share_anonymously)}
            onChange={(e) => set({ share_anonymously: e.target.checked })}
          />
          <FormDialogActions onCancel={() => onOpenChange(false)} submitLabel={<Trans>Send feedback</Trans>} busy={busy} />
        </form>
      )}
    </Dialog>
  );
}
