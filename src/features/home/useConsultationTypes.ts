import { useLingui } from '@lingui/react/macro';
import { useEffect, useState } from 'react';
import { consultationsApi, type ConsultationTypeView } from '../../api/consultations';
import { STORAGE_KEYS } from '../../offline/storage-keys';

/** The last list of consultation types seen in this language, kept on the device. */
export function cachedTypes(locale: string): ConsultationTypeView[] | undefined {
  try {
    const raw = localStorage.getItem(STORAGE_KEYS.consultationTypes(locale));
    const parsed: unknown = raw ? JSON.parse(raw) : undefined;
    return Array.isArray(parsed) ? (parsed as ConsultationTypeView[]) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The consultation types offered to the clinician, in the interface's language (asked again when it changes).
 * The last list is kept on the device, so with no network the types still show; `failed` only when there is
 * neither an answer nor a kept list, `offline` when the kept list is shown because the server could not answer.
 */
export function useConsultationTypes(): { types: ConsultationTypeView[] | undefined; failed: boolean; offline: boolean } {
  const { i18n } = useLingui();
  const locale = i18n.locale;
  const [types, setTypes] = useState<ConsultationTypeView[] | undefined>(() => cachedTypes(locale));
  const [failed, setFailed] = useState(false);
  const [offline, setOffline] = useState(false);
  useEffect(() => {
    let current = true;
    setTypes(cachedTypes(locale));
    consultationsApi.types().then(
      (r) => {
        if (!current) return;
        setTypes(r.consultation_types);
        setFailed(false);
        setOffline(false);
        try {
          localStorage.setItem(STORAGE_KEYS.consultationTypes(locale), JSON.stringify(r.consultation_types));
        } catch {
          // A full storage only costs the offline list.
        }
      },
      () => {
        if (!current) return;
        const kept = cachedTypes(locale);
        setFailed(!kept);
        setOffline(Boolean(kept));
      },
    );
    return () => {
      current = false;
    };
  }, [locale]);
  return { types, failed, offline };
}
