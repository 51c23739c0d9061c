/**
 * Spec §7: the page receives a window message with event `register_consultation`. A clinic's system (opening or
 * embedding this app) sends it when a consultation starts on its side; this app starts one (or returns to the one
 * in progress) and answers `consultation_registered` with the id, to that origin only. Messages from any origin
 * not configured in INTEGRATION_ORIGINS, or of another shape, are ignored.
 */
export type RegisterRequest = { consultationTypeId?: string; externalId?: string };

export function parseRegisterMessage(event: { origin: string; data: unknown }, allowedOrigins: readonly string[]): RegisterRequest | undefined {
  if (!allowedOrigins.includes(event.origin)) return undefined;
  const data = event.data as { event?: unknown; consultation_type_id?: unknown; external_id?: unknown } | null;
  if (!data || typeof data !== 'object' || data.event !== 'register_consultation') return undefined;
  const typeId = typeof data.consultation_type_id === 'string' && /^[a-z0-9_]{1,100}$/.test(data.consultation_type_id) ? data.consultation_type_id : undefined;
  const externalId = typeof data.external_id === 'string' ? data.external_id.slice(0, 200) : undefined;
  return { consultationTypeId: typeId, externalId };
}

export const DEFAULT_TYPE = 'general_consultation';
