import { api } from './instance';
import { call } from './client';

export type RequestSection = { title: string; description: string; change_request: string };
export type CustomDocumentRequest = {
  id: string;
  title: string;
  base_document: string | null;
  sections: RequestSection[];
  other_comments: string;
  /** submitted: waiting for support's approval, which blocks a new request and the editing of drafts. */
  status: 'draft' | 'submitted' | 'approved';
  created_at: string;
  submitted_at: string | null;
  approved_at: string | null;
  examples: { id: string; file_name: string; mime_type: string; size_bytes: number }[];
};
export type RequestDraft = Pick<CustomDocumentRequest, 'title' | 'base_document' | 'sections' | 'other_comments'>;

const base = 'v1/custom_document_requests';
type One = { custom_document_request: CustomDocumentRequest };

export const customDocumentsApi = {
  list: () => call(() => api().get(base).json<{ custom_document_requests: CustomDocumentRequest[] }>()),
  create: (draft: RequestDraft) =>
    call(() =>
      api()
        .post(base, { json: { custom_document_request: draft } })
        .json<One>(),
    ),
  update: (id: string, draft: RequestDraft) =>
    call(() =>
      api()
        .put(`${base}/${id}`, { json: { custom_document_request: draft } })
        .json<One>(),
    ),
  remove: (id: string) =>
    call(() =>
      api()
        .delete(`${base}/${id}`)
        .then(() => undefined),
    ),
  addExample: (id: string, file: File) => {
    const form = new FormData();
    form.append('file', file, file.name);
    return call(() => api().post(`${base}/${id}/examples`, { body: form }).json<One>());
  },
  removeExample: (id: string, exampleId: string) =>
    call(() =>
      api()
        .delete(`${base}/${id}/examples/${exampleId}`)
        .then(() => undefined),
    ),
  submit: (id: string) => call(() => api().post(`${base}/${id}/submit`).json<One>()),
};
