/**
 * Whether this data folder may still hold blobs stored before encryption existed ("legacy" plaintext): a one-off
 * state kept in DATA_DIR/encryption-state.json (mode 0600),
 *
 *   { "format": 1, "legacy_plaintext": "pending" | "none", "decided_at": "…", "completed_at": "…" }
 *
 * A blob without the encryption header is an upgrade leftover only in a folder that held such files before its
 * first start with encryption. Anywhere else it was put there from outside the server (a swapped file, a crafted
 * backup), so it is refused: its bytes are never given out, and rotate-key never turns it into an authenticated
 * blob.
 *
 * The state is decided once, by the first start that finds no state file: "pending" when the store holds
 * unencrypted files and no encrypted one (a folder from before encryption); "none" otherwise: a new folder, or one
 * that already holds encrypted blobs (a server joining a bucket that others already encrypt). The first rotate-key
 * that ends with every blob encrypted sets it to "none" for good. Processes read the file again whenever they
 * meet a plaintext blob, so a running server refuses plaintext as soon as a rotation by the admin CLI finishes.
 */
import path from 'node:path';
import { z } from 'zod';
import { createFileOnceSync, jsonKeyFileText, readJsonKeyFile, removeInterruptedWritesSync, replaceFileSync } from './key-file.js';
import { KeyRingError } from './master-keys.js';

export const ENCRYPTION_STATE_FILE = 'encryption-state.json';

const stateSchema = z.object({
  format: z.literal(1),
  legacy_plaintext: z.enum(['pending', 'none']),
  decided_at: z.string(),
  completed_at: z.string().optional(),
});
type State = z.infer<typeof stateSchema>;

export type PlaintextMigration = {
  readonly file: string;
  /** True while plaintext blobs from before encryption are still accepted (read from the file each time). */
  pending(): boolean;
  /** Plaintext is refused from now on, by every process on this folder; answers whether it was pending. */
  finish(): boolean;
};

function readState(file: string): State | undefined {
  return readJsonKeyFile(file, stateSchema, () => new KeyRingError(`${file} is not a valid encryption state file.`));
}

const stateText = (state: State) => jsonKeyFileText(state);

/**
 * The folder's state; `survey` runs only when there is none yet, and says what the store holds (it may stop at
 * the first encrypted blob).
 */
export async function openPlaintextMigration(dataDir: string, survey: () => Promise<{ legacy: boolean; encrypted: boolean }>): Promise<PlaintextMigration> {
  const file = path.join(dataDir, ENCRYPTION_STATE_FILE);
  removeInterruptedWritesSync(file);
  if (!readState(file)) {
    const found = await survey();
    const state: State = { format: 1, legacy_plaintext: found.legacy && !found.encrypted ? 'pending' : 'none', decided_at: new Date().toISOString() };
    // Two processes starting at once on a new folder saw the same store: the first one's decision stands.
    createFileOnceSync(file, stateText(state));
  }
  return {
    file,
    pending() {
      // A state file removed while running: refuse, the safe side.
      try {
        return readState(file)?.legacy_plaintext === 'pending';
      } catch {
        return false;
      }
    },
    finish() {
      const state = readState(file);
      if (state?.legacy_plaintext !== 'pending') return false;
      replaceFileSync(file, stateText({ ...state, legacy_plaintext: 'none', completed_at: new Date().toISOString() }));
      return true;
    },
  };
}
