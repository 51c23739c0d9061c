import type { APIRequestContext, Page } from '@playwright/test';

/** The session token the app stored (remember me or not). */
export async function appToken(page: Page): Promise<string> {
  return page.evaluate(() => localStorage.getItem('token') ?? sessionStorage.getItem('token') ?? '');
}

export type ServerSession = {
  status: string;
  transcription: string;
  transcription_status: string;
  expected_parts: number | null;
  language: string | null;
  transcription_engines: string[];
  audios: { order: number; duration_ms: number | null; transcription_status: string; audio_kept: boolean }[];
};

export async function fetchSession(request: APIRequestContext, page: Page, id: string): Promise<ServerSession> {
  const res = await request.get(`/v1/consultation_sessions/${id}`, { headers: { authorization: `Bearer ${await appToken(page)}` } });
  return ((await res.json()) as { consultation_session: ServerSession }).consultation_session;
}
