/**
 * The AI engines saved in the app (settings › AI engines), as rows of the database: read, saved, removed and
 * resealed here, so that the engines (ai/) take them as plain data and never touch the database themselves.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { aiEngineSettings } from '../../db/schema.js';
import { openApiKey, sealApiKey, type EngineKind, type SavedEngine, type SavedEngineSource } from '../../ai/engine-settings.js';
import { storedKeyId } from '../../storage/blob-encryption.js';
import type { KeyRing } from '../../storage/master-keys.js';

export async function readSavedEngines(db: Database): Promise<Partial<Record<EngineKind, SavedEngine>>> {
  const rows = await db.select().from(aiEngineSettings);
  return Object.fromEntries(
    rows.map((r) => [r.kind, { kind: r.kind, baseUrl: r.baseUrl, model: r.model, apiKeySealed: r.apiKeySealed, updatedAt: r.updatedAt }]),
  );
}

/** When the settings last changed (any kind, including a removal, which deletes the row: so the count too). */
export async function savedEnginesStamp(db: Database): Promise<string> {
  const [row] = await db
    .select({ at: sql<string>`coalesce(max(${aiEngineSettings.updatedAt})::text, '')`, n: sql<number>`count(*)::int` })
    .from(aiEngineSettings);
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

/** The saved settings as the engine switch reads them (ai/engine-switch.ts). */
export const savedEngineSource = (db: Database): SavedEngineSource => ({
  stamp: () => savedEnginesStamp(db),
  read: () => readSavedEngines(db),
});
