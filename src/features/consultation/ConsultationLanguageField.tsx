import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from '@tanstack/react-router';
import { useAtomValue } from 'jotai';
import { useEffect, useState } from 'react';
import { isLanguage, LANGUAGES, type Language } from '../../../contract/constants';
import { consultationsApi } from '../../api/consultations';
import { authAtom } from '../../app-state';
import { Alert } from '../../ui/Alert';
import { SelectField } from '../../ui/SelectField';
import { describeFailure } from '../i18n/api-error-messages';
import { LANGUAGE_NAMES } from '../i18n/LanguageSwitch';

/** A consultation's language: its own, else (begun before it was kept) its clinician's. */
export const effectiveLanguage = (language: string | null | undefined, clinician: string | undefined): Language =>
  isLanguage(language) ? language : isLanguage(clinician) ? clinician : 'pt';

/**
 * The language spoken in the consultation (the clinician's own unless changed here), and, before anything is
 * recorded, whether this server's speech engine can transcribe it: an English-only engine never writes a
 * Portuguese consultation as English words that were never said. The recording is kept either way.
 */
export function ConsultationLanguageField({
  sessionId,
  language,
  speechLanguages,
  readOnly,
  onChanged,
}: {
  sessionId: string;
  language: Language | null | undefined;
  speechLanguages: string[] | undefined;
  readOnly: boolean;
  /** Called once the server has the new language: the consultation is read again (parts kept may now be transcribed). */
  onChanged: () => void;
}) {
  const { i18n, t } = useLingui();
  const user = useAtomValue(authAtom)?.user;
  const own = effectiveLanguage(null, user?.language);
  const [current, setCurrent] = useState<Language>(language ?? own);
  const [error, setError] = useState<string>();
  const [saving, setSaving] = useState(false);
  // Changed elsewhere (another device): shown here once the consultation is read again.
  useEffect(() => {
    if (language) setCurrent(language);
  }, [language]);
  const shown = current;
  const cannot = speechLanguages !== undefined && !speechLanguages.includes(shown);
  const name = LANGUAGE_NAMES[shown];

  async function change(next: Language) {
    setCurrent(next);
    setSaving(true);
    setError(undefined);
    try {
      const { consultation_session } = await consultationsApi.setLanguage(sessionId, next);
      if (consultation_session.language) setCurrent(consultation_session.language);
      onChanged();
    } catch (err) {
      setError(describeFailure(i18n, err));
    } finally {
      setSaving(false);
    }
  }

  return (
    <div className="consultation-language">
      {!readOnly && (
        <SelectField
          label={t`Language spoken in this consultation`}
          value={shown}
          aria-busy={saving || undefined}
          error={error}
          options={LANGUAGES.map((l) => ({ value: l, label: LANGUAGE_NAMES[l] }))}
          onChange={(e) => isLanguage(e.target.value) && void change(e.target.value)}
        />
      )}
      {cannot && (
        <Alert tone="warning">
          {speechLanguages.length ? (
            <Trans>
              The speech engine on this server does not transcribe {name}: it would write words that were never said. You can record; the audio is kept and
              transcribed once a speech engine for this language is connected.
            </Trans>
          ) : (
            <Trans>No speech engine is available on this server. You can record; the audio is kept and transcribed once a speech engine is connected.</Trans>
          )}{' '}
          {user?.server_admin ? (
            <Link to="/settings/{-$section}" params={{ section: 'ai-engines' }}>
              <Trans>Connect one in Settings › AI engines.</Trans>
            </Link>
          ) : (
            <Trans>Ask the administrator of this server to connect one (Settings › AI engines).</Trans>
          )}
        </Alert>
      )}
    </div>
  );
}
