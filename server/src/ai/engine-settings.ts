/**
 * The AI engines an administrator of this server sets in the app (settings › AI engines): an OpenAI-compatible
 * endpoint for speech and one for text. They are stored in the database so every process of the server uses them
 * (modules/ai_engines/saved-engines.ts); the engines themselves only ever see them as plain data, through a
 * `SavedEngineSource`.
 *
 * The API key is sealed with the master key of the blobs (the same envelope, its kind as the associated name, so
 * a sealed key copied onto the other kind's row does not open) and is only ever opened to call the endpoint: it
 * is never answered to a browser, written to the log or the audit log.
 */
import { decryptBlob, encryptBlob } from '../storage/blob-encryption.js';
import type { KeyRing } from '../storage/master-keys.js';

export const ENGINE_KINDS = ['speech', 'text'] as const;
export type EngineKind = (typeof ENGINE_KINDS)[number];

/** What an administrator saved for one kind, the key still sealed. */
export type SavedEngine = { kind: EngineKind; baseUrl: string; model: string; apiKeySealed: string | null; updatedAt: Date };

/** Where the saved settings come from: when they last changed, and what they are. */
export type SavedEngineSource = {
  /** Changes whenever any kind's setting does (a removal too); equal stamps mean nothing to re-read. */
  stamp(): Promise<string>;
  read(): Promise<Partial<Record<EngineKind, SavedEngine>>>;
};

const sealName = (kind: EngineKind) => `settings/ai-engines/${kind}/api-key`;

export const sealApiKey = (keys: KeyRing, kind: EngineKind, apiKey: string): string =>
  encryptBlob(sealName(kind), Buffer.from(apiKey, 'utf8'), keys.current()).toString('base64');

export const openApiKey = (keys: KeyRing, kind: EngineKind, sealed: string): string =>
  decryptBlob(sealName(kind), Buffer.from(sealed, 'base64'), (id) => keys.find(id)).toString('utf8');
