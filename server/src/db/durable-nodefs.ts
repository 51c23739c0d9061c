/**
 * The embedded database's files, synced to disk when PostgreSQL asks.
 *
 * PGlite starts PostgreSQL with `-F` (fsync off), and its Node file layer (Emscripten's NODEFS) has no fsync: a
 * commit reached the operating system's cache but not the disk, so a power cut could lose committed
 * consultations or leave the database unreadable. This layer gives NODEFS an fsync that is Node's, and the start
 * parameters turn PostgreSQL's fsync back on with the WAL flushed by fsync() (its default on Linux, fdatasync(),
 * is a no-op in Emscripten). What it costs is measured in bench/pglite-durability.ts.
 */
import { fsyncSync, mkdirSync } from 'node:fs';
import { PGlite, type postgresMod } from '@electric-sql/pglite';
import { NodeFS } from '@electric-sql/pglite/nodefs';

type PostgresMod = postgresMod.PostgresMod;

/** What the preRun hook reaches of Emscripten's module: PGlite's types do not declare its file systems. */
type NodefsModule = { NODEFS: { stream_ops: { fsync?: (stream: { nfd: number }) => void } } };

/**
 * A failed fsync means the disk may not hold what PostgreSQL was told it holds. PostgreSQL's answer is to stop
 * (PANIC) and recover from its log at the next start; inside PGlite that path spins forever with the event loop
 * blocked, so the server would stop answering without exiting. The process exits instead, loudly, so whatever
 * supervises it starts it again and PostgreSQL recovers.
 */
function stopOnFailedSync(err: unknown): never {
  const code = err instanceof Error && 'code' in err ? String(err.code) : 'unknown';
  console.error(`The embedded database could not sync a file to disk (${code}): stopping now so that it recovers at the next start. Check the disk.`);
  process.exit(70);
}

export class DurableNodeFS extends NodeFS {
  /** fsync calls made: lets a test see that commits reach the disk. */
  syncs = 0;

  constructor(
    dir: string,
    private readonly onSyncFailure: (err: unknown) => void = stopOnFailedSync,
  ) {
    // NodeFS makes only the last folder, readable by others; the parents are made here, the owner's alone.
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    super(dir);
  }

  override async init(pg: PGlite, opts: Partial<PostgresMod>) {
    const { emscriptenOpts } = await super.init(pg, opts);
    const preRun = [
      ...(emscriptenOpts.preRun ?? []),
      (mod: PostgresMod) => {
        const { NODEFS } = mod as unknown as NodefsModule;
        NODEFS.stream_ops.fsync = (stream) => {
          try {
            fsyncSync(stream.nfd);
          } catch (err) {
            this.onSyncFailure(err);
            return;
          }
          this.syncs++;
        };
      },
    ];
    return { emscriptenOpts: { ...emscriptenOpts, preRun } };
  }
}

/** PGlite's own start parameters, with fsync on and the WAL synced by fsync(). */
export const durableStartParams = (): string[] => [...PGlite.defaultStartParams.filter((p) => p !== '-F'), '-c', 'wal_sync_method=fsync'];
