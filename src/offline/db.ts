/**
 * The browser's own database (IndexedDB through Dexie), where recorded audio is written before anything else.
 *
 * audioChunks  every recorded part, with its bytes, until the server acknowledged it; then the row is deleted.
 *              Status: recording (still growing, rewritten every half second with all its bytes so far, so a
 *              crash or reload loses at most that half second) → pending → uploading → (deleted)
 *              | failed (refused by the server; kept, never dropped).
 * sessions     a cache of the consultations the user saw, so screens work offline and after a reload;
 *              rows are replaced by what the server says, and cleared at logout.
 *
 * sessionOps   a consultation's start made with no network, and its finish, saved before anything is sent and
 *              retried like a part until the server confirmed them. A start goes before anything of its
 *              consultation; a finish goes only once every part it counts has left the device (the server also
 *              waits for them, but sending it after them keeps the order a clinician would expect).
 *
 * credentials  the session token of a user who ticked "remember me", so the service worker can send waiting
 *              parts in the background (Background Sync) when no tab is open; removed at logout and expiry,
 *              and never written for a session meant to end with the tab.
 *
 * Nothing here leaves the device except through the uploader (offline/uploader.ts).
 */
import Dexie, { type EntityTable } from 'dexie';
import type { AwaitedParts, ConsentView, RecorderView } from '../../contract/consultations';
import type { ChannelLayout } from '../../contract/speakers';
import type { Language } from '../../contract/constants';

export type ChunkStatus = 'recording' | 'pending' | 'uploading' | 'failed';

export type StoredChunk = {
  /** `${sessionId}:${order}`: one row per part, so writing a part twice cannot duplicate it. */
  key: string;
  /** The account that recorded it: only that account uploads it. */
  userId: string;
  sessionId: string;
  order: number;
  /** The bytes as an ArrayBuffer: every browser's IndexedDB stores those reliably (Blobs not everywhere). */
  data: ArrayBuffer;
  mimeType: string;
  durationMs: number;
  /** A teleconsultation's part: the clinician left, the call right (absent: one voice). */
  channelLayout?: ChannelLayout;
  recordedAt: number;
  status: ChunkStatus;
  /** Last write by the recording page; a `recording` part not touched for a while belongs to a page that died. */
  heartbeatAt: number;
  attempts: number;
  nextAttemptAt: number;
  lastError?: string;
};

export type CachedSession = {
  id: string;
  status: string;
  consultation_type_id: string;
  show_transcription: boolean;
  recording_state: string;
  created_at: string;
  finished_at: string | null;
  expires_at: string | null;
  /** Past the retention window with its text kept: shown, copied and exported, never changed. */
  read_only?: boolean;
  audio_deleted_at?: string | null;
  /** Whom it was with, in the clinician's words (not indexed). */
  patient_label?: string | null;
  /** The language spoken in it (null: the clinician's own). */
  language?: Language | null;
  transcription?: string;
  transcription_status?: string;
  /** The speech engines that wrote it (not indexed). */
  transcription_engines?: string[];
  /** The notes generation data and chosen templates (not indexed). */
  user_inputs?: unknown[];
  /** Parts the recorder handed out so far; the next part continues from here, even after a reload. */
  nextOrder?: number;
  /** Time recorded so far (the server's figure, or this device's while it records), for the timer after a reload. */
  recorded_ms?: number;
  /** Which device records it, as the server said (null: none). */
  recorder?: RecorderView;
  /** The parts the finish named, and how many the server has (to say when some never arrived). */
  expected_parts?: number | null;
  parts_stored?: number;
  /** The parts the notes still wait for, the deadline on this device's clock (null: none awaited). */
  awaited?: { missing: NonNullable<AwaitedParts>['missing']; deadline: number } | null;
  /** The patient's consent to recording: the organization's rule and whether (how, when) it was given. */
  consent?: ConsentView;
  cachedAt: number;
};

export type SessionOpStatus = 'pending' | 'sending' | 'failed';

/**
 * A request about a whole consultation that must reach the server even if the network is down now: its start
 * (a consultation begun with no network, under an id this device chose) and its finish.
 */
export type SessionOp = {
  /** `create:${sessionId}` or `finish:${sessionId}`: one of each per consultation. */
  key: string;
  kind: 'create' | 'finish';
  userId: string;
  sessionId: string;
  /** finish: parts recorded on this device (orders 0…parts-1); the server writes the notes once all arrived. */
  parts: number;
  /** create: what the consultation is, as chosen on the device. */
  consultationTypeId?: string;
  mobile?: boolean;
  createdAt: number;
  status: SessionOpStatus;
  attempts: number;
  nextAttemptAt: number;
  lastError?: string;
};

export type UploadCredentials = { id: 'upload'; token: string; userId: string };

export class AppDatabase extends Dexie {
  audioChunks!: EntityTable<StoredChunk, 'key'>;
  sessions!: EntityTable<CachedSession, 'id'>;
  credentials!: EntityTable<UploadCredentials, 'id'>;
  sessionOps!: EntityTable<SessionOp, 'key'>;

  constructor(name = 'consultation-notes') {
    super(name);
    this.version(1).stores({
      audioChunks: 'key, sessionId, [sessionId+order], status, nextAttemptAt',
      sessions: 'id, status, cachedAt',
    });
    this.version(2).stores({ credentials: 'id' });
    this.version(3).stores({ sessionOps: 'key, sessionId, status' });
  }
}

export const chunkKey = (sessionId: string, order: number) => `${sessionId}:${order}`;

let instance: AppDatabase | undefined;
export function appDb(): AppDatabase {
  instance ??= new AppDatabase();
  return instance;
}
