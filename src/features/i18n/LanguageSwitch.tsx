import { useLingui } from '@lingui/react/macro';
import { useId } from 'react';
import { LANGUAGES, type Language } from '../../../contract/constants';
import { activateLocale } from './activate';

/** Each language named in itself, so a user lost in a foreign interface still finds their own. */
export const LANGUAGE_NAMES: Record<Language, string> = { pt: 'Português', en: 'English', de: 'Deutsch', es: 'Español' };

export function LanguageSwitch({ onChanged }: { onChanged?: (locale: Language) => void }) {
  const { i18n, t } = useLingui();
  const id = useId();
  return (
    <span>
      <label htmlFor={id} className="visually-hidden">
        {t`Language`}
      </label>
      <select
        id={id}
        className="language-select"
        value={i18n.locale}
        onChange={async (e) => {
          const locale = e.target.value as Language;
          await activateLocale(locale, { remember: true });
          onChanged?.(locale);
        }}
      >
        {LANGUAGES.map((l) => (
          <option key={l} value={l} lang={l}>
            {LANGUAGE_NAMES[l]}
          </option>
        ))}
      </select>
    </span>
  );
}
