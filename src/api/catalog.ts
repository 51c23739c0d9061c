import type { ConsultationTypeView } from '../../contract/consultations';
import { api } from './instance';
import { call } from './client';

export type CatalogView = {
  catalogues: { id: ConsultationTypeView['catalogue']; name: string }[];
  home_catalogue: ConsultationTypeView['catalogue'];
  assistants: ConsultationTypeView[];
  custom_assistants: ConsultationTypeView[];
  pins: string[];
  recommendations: string[];
};

export const catalogApi = {
  get: () => call(() => api().get('v1/assistants_catalog').json<CatalogView>()),
  pin: (typeId: string) =>
    call(() =>
      api()
        .put(`v1/assistants_catalog/pins/${encodeURIComponent(typeId)}`)
        .then(() => undefined),
    ),
  unpin: (typeId: string) =>
    call(() =>
      api()
        .delete(`v1/assistants_catalog/pins/${encodeURIComponent(typeId)}`)
        .then(() => undefined),
    ),
};
