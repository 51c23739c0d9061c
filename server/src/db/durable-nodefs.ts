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
type NodefsModule = {
  NODEFS: {
    stream_ops: { fsync?: (stream: { nfd: number }) => void };
    tryFSOperation<T>(run: () => T): T;
  };
};

export class DurableNodeFS extends NodeFS {
  /** fsync calls made: lets a test see that commits reach the disk. */
  syncs = 0;

  constructor(dir: string) {
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
        // A failing fsync becomes the errno PostgreSQL expects, and PostgreSQL stops rather than carry on unsynced.
        NODEFS.stream_ops.fsync = (stream) => {
          NODEFS.tryFSOperation(() => fsyncSync(stream.nfd));
          this.syncs++;
        };
      },
    ];
    return { emscriptenOpts: { ...emscriptenOpts, preRun } };
  }
}

/** PGlite's own start parameters, with fsync on and the WAL synced by fsync(). */
export const durableStartParams = (): string[] => [...PGlite.defaultStartParams.filter((p) => p !== '-F'), '-c', 'wal_sync_method=fsync'];
