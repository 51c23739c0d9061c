import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { isLanguage, LANGUAGES, type Language } from '../../../contract/constants';
import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import { PATIENT_CONSENT } from './patient-consent-wording';

type Props = {
  open: boolean;
  /** 'clinician': the clinician confirms the patient's word; 'patient': the patient answers on the screen. */
  method: 'clinician' | 'patient';
  /** The language the patient reads first (the consultation's), switchable on the screen. */
  patientLanguage: string | null | undefined;
  onAnswer: (agreed: boolean) => void;
};

/** Asked before the first part of a consultation is recorded, when the organization asks for the patient's consent. */
export function ConsentDialog({ open, method, patientLanguage, onAnswer }: Props) {
  const { i18n, t } = useLingui();
  const [language, setLanguage] = useState<Language>(
    isLanguage(patientLanguage ?? '') ? (patientLanguage as Language) : isLanguage(i18n.locale) ? i18n.locale : 'pt',
  );
  const close = (next: boolean) => !next && onAnswer(false);

  if (method === 'clinician') {
    return (
      <Dialog
        open={open}
        onOpenChange={close}
        title={<Trans>Patient consent</Trans>}
        description={<Trans>Tell the patient that this consultation is recorded to write its notes, and ask whether they agree.</Trans>}
      >
        <div className="dialog-actions">
          <Button variant="secondary" onClick={() => onAnswer(false)}>
            <Trans>The patient does not agree</Trans>
          </Button>
          <Button onClick={() => onAnswer(true)}>
            <Trans>The patient agreed</Trans>
          </Button>
        </div>
      </Dialog>
    );
  }
  const words = PATIENT_CONSENT[language];
  return (
    <Dialog open={open} onOpenChange={close} title={<span lang={language}>{words.title}</span>}>
      <fieldset className="consent-languages">
        <legend className="visually-hidden">{t`Language of the text for the patient`}</legend>
        {LANGUAGES.map((l) => (
          <Button key={l} variant={l === language ? 'primary' : 'secondary'} aria-pressed={l === language} lang={l} onClick={() => setLanguage(l)}>
            {PATIENT_CONSENT[l].language}
          </Button>
        ))}
      </fieldset>
      <p lang={language} className="consent-text">
        {words.body}
      </p>
      <div className="dialog-actions" lang={language}>
        <Button variant="secondary" onClick={() => onAnswer(false)}>
          {words.decline}
        </Button>
        <Button onClick={() => onAnswer(true)}>{words.agree}</Button>
      </div>
    </Dialog>
  );
}
