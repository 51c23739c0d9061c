import { api } from './instance';
import { call } from './client';

export type PersonalTemplate = { id: string; processor_input_id: string; name: string; template: string; created_at: string; updated_at: string };
export type ProcessorInputView = { id: string; name: string; document_id: string; templates: PersonalTemplate[] };
export type TemplateReport = { session_id: string; consultation_type_id: string; document_key: string; version: number; created_at: string; excerpt: string };

const templatesOf = (inputId: string) => `v1/processor_inputs/${encodeURIComponent(inputId)}/templates`;

export const templatesApi = {
  inputs: () => call(() => api().get('v1/processor_inputs').json<{ processor_inputs: ProcessorInputView[] }>()),
  create: (inputId: string, template: { name: string; template: string }) =>
    call(() => api().post(templatesOf(inputId), { json: { template } }).json<{ template: PersonalTemplate }>()),
  update: (inputId: string, id: string, template: { name: string; template: string }) =>
    call(() =>
      api()
        .put(`${templatesOf(inputId)}/${id}`, { json: { template } })
        .json<{ template: PersonalTemplate }>(),
    ),
  remove: (inputId: string, id: string) =>
    call(() =>
      api()
        .delete(`${templatesOf(inputId)}/${id}`)
        .then(() => undefined),
    ),
  reports: (id: string) => call(() => api().get(`template/${id}/reports`).json<{ reports: TemplateReport[] }>()),
  selectableDocument: (typeId: string, docId: string) =>
    call(() =>
      api()
        .get(`v1/consultation_types/${encodeURIComponent(typeId)}/selectable_documents/${encodeURIComponent(docId)}`)
        .json<{ selectable_document: { id: string; name: string; description: string; user_guide: string } }>(),
    ),
  saveGuide: (docId: string, content: string) =>
    call(() =>
      api()
        .post(`v1/selectable_documents/${encodeURIComponent(docId)}/user_guides`, { json: { content } })
        .json<{ user_guide: { content: string } }>(),
    ),
};
