/**
 * The AI engines an administrator of this server sets in the app (settings › AI engines): an OpenAI-compatible
 * endpoint for speech and one for text, stored in the database so every process of the server uses them.
 *
 * The API key is sealed with the master key of the blobs (the same envelope, its kind as the associated name, so
 * a sealed key copied onto the other kind's row does not open) and is only ever opened to call the endpoint: it
 * is never answered to a browser, written to the log or the audit log.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { aiEngineSettings } from '../db/schema.js';
import { decryptBlob, encryptBlob, storedKeyId } from '../storage/blob-encryption.js';
import type { KeyRing } from '../storage/master-keys.js';

export const ENGINE_KINDS = ['speech', 'text'] as const;
export type EngineKind = (typeof ENGINE_KINDS)[number];

/** What an administrator saved for one kind, the key still sealed. */
export type SavedEngine = { kind: EngineKind; baseUrl: string; model: string; apiKeySealed: string | null; updatedAt: Date };

const sealName = (kind: EngineKind) => `settings/ai-engines/${kind}/api-key`;

export const sealApiKey = (keys: KeyRing, kind: EngineKind, apiKey: string): string =>
  encryptBlob(sealName(kind), Buffer.from(apiKey, 'utf8'), keys.current()).toString('base64');

export const openApiKey = (keys: KeyRing, kind: EngineKind, sealed: string): string =>
  decryptBlob(sealName(kind), Buffer.from(sealed, 'base64'), (id) => keys.find(id)).toString('utf8');

export async function readSavedEngines(db: Database): Promise<Partial<Record<EngineKind, SavedEngine>>> {
  const rows = await db.select().from(aiEngineSettings);
  return Object.fromEntries(rows.map((r) => [r.kind, { kind: r.kind, baseUrl: r.baseUrl, model: r.model, apiKeySealed: r.apiKeySealed, updatedAt: r.updatedAt }]));
}

/** When the settings last changed (any kind, including a removal, which deletes the row: so the count too). */
export async function savedEnginesStamp(db: Database): Promise<string> {
  const [row] = await db.select({ at: sql<string>`coalesce(max(${aiEngineSettings.updatedAt})::text, '')`, n: sql<number>`count(*)::int` }).from(aiEngineSettings);
  return `${row?.at ?? ''}/${row?.n ?? 0}`;
}

export async function saveEngine(db: Database, row: { kind: EngineKind; baseUrl: string; model: string; apiKeySealed: string | null; updatedBy: string }) {
  // The database's clock: every process compares these stamps, whatever its own clock says.
  const values = { ...row, updatedAt: sql`clock_timestamp()` };
  await db.insert(aiEngineSettings).values(values).onConflictDoUpdate({ target: aiEngineSettings.kind, set: values });
}

export async function removeEngine(db: Database, kind: EngineKind) {
  await db.delete(aiEngineSettings).where(eq(aiEngineSettings.kind, kind));
}

/** Rewraps every sealed key under the current master key (rotate-key); answers how many changed. */
export async function resealApiKeys(db: Database, keys: KeyRing): Promise<number> {
  let changed = 0;
  for (const row of await db.select().from(aiEngineSettings)) {
    if (!row.apiKeySealed) continue;
    if (storedKeyId(Buffer.from(row.apiKeySealed, 'base64')) === keys.current().id) continue;
    const resealed = sealApiKey(keys, row.kind, openApiKey(keys, row.kind, row.apiKeySealed));
    // Only if the row still holds the key just read: a save in between (another address) must not get it back.
    const done = await db
      .update(aiEngineSettings)
      .set({ apiKeySealed: resealed })
      .where(and(eq(aiEngineSettings.kind, row.kind), eq(aiEngineSettings.apiKeySealed, row.apiKeySealed), eq(aiEngineSettings.baseUrl, row.baseUrl)))
      .returning({ kind: aiEngineSettings.kind });
    if (done.length) changed++;
  }
  return changed;
}
