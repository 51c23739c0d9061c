import { useEffect, useState } from 'react';
import { consultationsApi, type ConsultationTypeView } from '../../api/consultations';

/** The consultation types offered to the clinician; `failed` when they could not be loaded. */
export function useConsultationTypes(): { types: ConsultationTypeView[] | undefined; failed: boolean } {
  const [types, setTypes] = useState<ConsultationTypeView[]>();
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    consultationsApi.types().then(
      (r) => setTypes(r.consultation_types),
      () => setFailed(true),
    );
  }, []);
  return { types, failed };
}
