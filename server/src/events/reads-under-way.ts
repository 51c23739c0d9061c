/**
 * Reads under way of an answer kept in memory (a consultation's active status, a token's liveness), per key: a
 * change to that key landing while one runs makes its answer unfit to keep, since it may predate the change.
 */
export function readsUnderWay() {
  const under = new Map<string, Set<{ stale: boolean }>>();
  return {
    /**
     * Runs `read` and answers its value, handing it to `keep` first unless a change to `key` landed meanwhile (at
     * once as the read answers: nothing can change in between).
     */
    async run<T>(key: string, read: () => Promise<T>, keep: (value: T) => void): Promise<T> {
      const mark = { stale: false };
      const marks = under.get(key) ?? new Set();
      marks.add(mark);
      under.set(key, marks);
      try {
        const value = await read();
        if (!mark.stale) keep(value);
        return value;
      } finally {
        marks.delete(mark);
        if (marks.size === 0 && under.get(key) === marks) under.delete(key);
      }
    },
    changed(key: string): void {
      for (const mark of under.get(key) ?? []) mark.stale = true;
    },
    /** Everything may have changed (events were lost while the bus was away). */
    changedAll(): void {
      for (const marks of under.values()) for (const mark of marks) mark.stale = true;
    },
  };
}
