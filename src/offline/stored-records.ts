/**
 * Small records of entries by id kept in localStorage (see storage-keys.ts): read whatever state the storage is in
 * (missing, corrupt, blocked: an empty record), and written keeping only the most recently touched entries when a
 * bound is given. A storage that refuses the write (full, blocked) only forgets: callers keep nothing vital here.
 */
export type StoredRecord<T> = Record<string, T>;

export function readStoredRecord<T>(key: string): StoredRecord<T> {
  try {
    const raw = localStorage.getItem(key);
    const parsed: unknown = raw ? JSON.parse(raw) : {};
    return parsed && typeof parsed === 'object' ? (parsed as StoredRecord<T>) : {};
  } catch {
    return {};
  }
}

/** `keep`: at most this many entries, the newest by `touchedAt`. False when the storage refused it. */
export function writeStoredRecord<T>(key: string, record: StoredRecord<T>, keep?: { count: number; touchedAt: (entry: T) => number }): boolean {
  const kept = keep
    ? Object.fromEntries(
        Object.entries(record)
          .sort(([, a], [, b]) => keep.touchedAt(b) - keep.touchedAt(a))
          .slice(0, keep.count),
      )
    : record;
  try {
    localStorage.setItem(key, JSON.stringify(kept));
    return true;
  } catch {
    return false;
  }
}
