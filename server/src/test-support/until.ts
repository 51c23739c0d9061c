/** Polls `read` every `everyMs` until `ok` holds, and answers that value; fails after `ms` saying what it last read. */
export async function until<T>(what: string, read: () => Promise<T>, ok: (v: T) => boolean, opts: { ms?: number; everyMs?: number } = {}): Promise<T> {
  const end = Date.now() + (opts.ms ?? 10_000);
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    if (Date.now() > end) throw new Error(`${what}: still ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, opts.everyMs ?? 100));
  }
}
