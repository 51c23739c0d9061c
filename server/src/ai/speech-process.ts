/**
 * Long-lived pocketsphinx processes for the local engine (server/speech/decoder-process.py): each loads the models
 * once and is then fed part after part, instead of a pocketsphinx_continuous started, and its models loaded, for
 * every part. One process serves one part at a time; the pool keeps one per part being transcribed at once (about
 * TRANSCRIPTION_WORKERS), started on first need. ffmpeg still decodes each part (webm/opus to 16 kHz PCM): it
 * starts in milliseconds and streams into the decoder, with backpressure, so a long file is never held in memory.
 */
import { spawn, spawnSync, type ChildProcessByStdio } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { Socket } from 'node:net';
import path from 'node:path';
import { SERVER_ROOT } from '../paths.js';

const PYTHON = '/usr/bin/python3';
const SCRIPT = path.join(SERVER_ROOT, 'speech/decoder-process.py');
/** Decoded once by each new process before its first part (see the script's header): an English sentence from espeak-ng. */
const WARM_UP_CLIP = path.join(SERVER_ROOT, 'assets/engine-test-clip.wav');
/** 16 kHz, 16-bit, mono. */
const PCM_BYTES_PER_MS = 32;
/** More idle processes than this are stopped rather than kept (each holds the models, about 115 MB). */
const MAX_IDLE = 8;
const START_TIMEOUT_MS = 30_000;

/** Debian's python3-pocketsphinx (npm start installs it): without it the engine starts pocketsphinx per part. */
export function decoderProcessAvailable(): boolean {
  return existsSync(PYTHON) && existsSync(SCRIPT) && spawnSync(PYTHON, ['-c', 'import pocketsphinx'], { stdio: 'ignore', timeout: 10_000 }).status === 0;
}

export type DecodeResult = { out: string; decodedMs: number };
export type DecoderPool = { decode(filePath: string, timed: boolean, timeoutMs: number): Promise<DecodeResult>; close(): void };

type Reply = { ready?: boolean; out?: string; error?: string };
/** Piped standard streams are sockets, which can be unreferenced. */
type Child = ChildProcessByStdio<Socket, Socket, Socket>;

/** One process: replies come one JSON line per job, in order. */
class DecoderProcess {
  private readonly child: Child;
  private buffered = '';
  private stderr = '';
  private waiting: { resolve: (r: Reply) => void; reject: (e: Error) => void } | undefined;
  /** Stops the job's ffmpeg: it holds the decrypted part open, and would wait for ever on a decoder that is gone. */
  private cancelJob: (() => void) | undefined;
  dead = false;
  /** The last job ended with both its reply and ffmpeg's end: only then is the process known to be in step. */
  clean = true;

  constructor(sphinxArgs: string[]) {
    // Its own process group, so that a timeout stops the fork decoding as well as the process.
    this.child = spawn(PYTHON, [SCRIPT, ...sphinxArgs], { stdio: ['pipe', 'pipe', 'pipe'], detached: true }) as Child;
    this.child.stdout.setEncoding('utf8');
    this.child.stdout.on('data', (d: string) => this.received(d));
    this.child.stderr.on('data', (d: Buffer) => (this.stderr = (this.stderr + d.toString()).slice(-2000)));
    // An EPIPE on a process that died is reported by 'close' below, with its message.
    this.child.stdin.on('error', () => undefined);
    this.child.on('error', (e) => this.died(e.message));
    this.child.on('close', (code, signal) => this.died(`exited (${signal ?? code})`));
  }

  private received(data: string) {
    this.buffered += data;
    for (let nl = this.buffered.indexOf('\n'); nl >= 0; nl = this.buffered.indexOf('\n')) {
      const line = this.buffered.slice(0, nl);
      this.buffered = this.buffered.slice(nl + 1);
      const waiting = this.waiting;
      this.waiting = undefined;
      let reply: Reply;
      try {
        reply = JSON.parse(line) as Reply;
      } catch {
        this.kill();
        waiting?.reject(new Error('the speech process wrote something that is not a reply'));
        continue;
      }
      waiting?.resolve(reply);
    }
  }

  private died(why: string) {
    this.dead = true;
    this.cancelJob?.();
    const waiting = this.waiting;
    this.waiting = undefined;
    // Its own log is about the decoder (never the audio's words): the last lines say why it stopped.
    waiting?.reject(new Error(`the speech process ${why}: ${this.stderr.trim().split('\n').slice(-3).join(' ').slice(0, 300)}`));
  }

  nextReply(): Promise<Reply> {
    if (this.dead) return Promise.reject(new Error('the speech process has stopped'));
    return new Promise((resolve, reject) => (this.waiting = { resolve, reject }));
  }

  /** While idle it must not keep the server's event loop alive (a stopping server does not wait for it). */
  hold(busy: boolean) {
    for (const handle of [this.child, this.child.stdin, this.child.stdout, this.child.stderr]) {
      if (busy) handle.ref();
      else handle.unref();
    }
  }

  kill() {
    this.cancelJob?.();
    if (this.dead) return;
    this.dead = true;
    try {
      process.kill(-this.child.pid!, 'SIGKILL');
    } catch {
      this.child.kill('SIGKILL');
    }
  }

  /**
   * Streams the file's audio, decoded by ffmpeg, into the process as one job, and waits for its reply. It settles
   * at once when the process answers with an error or stops; otherwise when both the reply and ffmpeg's end came.
   */
  run(job: 'decode' | 'decode-timed' | 'warm-up', filePath: string): Promise<DecodeResult> {
    this.clean = false;
    // Started before the job line is written: if it cannot start at all, the process has been told nothing.
    const ff = spawn('ffmpeg', ['-nostdin', '-loglevel', 'error', '-i', filePath, '-ar', '16000', '-ac', '1', '-f', 's16le', '-'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.cancelJob = () => {
      ff.stdout.destroy();
      ff.kill('SIGKILL');
    };
    const reply = this.nextReply();
    const stdin = this.child.stdin;
    stdin.write(`${job}\n`);
    let bytes = 0;
    let ffError = '';
    ff.stderr.on('data', (d: Buffer) => (ffError = (ffError + d.toString()).slice(-1000)));
    ff.stdout.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      const header = Buffer.alloc(4);
      header.writeUInt32LE(chunk.length);
      stdin.write(header);
      if (!stdin.write(chunk)) {
        ff.stdout.pause();
        stdin.once('drain', () => ff.stdout.resume());
      }
    });
    const ffDone = new Promise<number | null>((resolve) => {
      ff.on('error', (e) => {
        ffError = e.message;
        resolve(-1);
      });
      ff.on('close', resolve);
    });
    // The end frame is sent whatever ffmpeg did, so that the process finishes the job and stays in step.
    void ffDone.then(() => {
      if (!this.dead) stdin.write(Buffer.alloc(4));
    });
    return new Promise<DecodeResult>((resolve, reject) => {
      let ffCode: number | null | undefined;
      let out: string | undefined;
      const settle = () => {
        if (ffCode === undefined || out === undefined) return;
        this.cancelJob = undefined;
        this.clean = true;
        if (ffCode !== 0) reject(new Error(`ffmpeg or pocketsphinx failed (${ffCode}): ${ffError.trim().slice(0, 300)}`));
        else resolve({ out, decodedMs: Math.round(bytes / PCM_BYTES_PER_MS) });
      };
      reply.then((r) => {
        if (r.error !== undefined || r.out === undefined) {
          this.kill();
          reject(new Error(`the speech process failed: ${r.error ?? 'no reply'}`));
        } else {
          out = r.out;
          settle();
        }
      }, reject);
      void ffDone.then((code) => {
        ffCode = code;
        settle();
      });
    });
  }
}

function withTimeout<T>(work: Promise<T>, ms: number, onTimeout: () => void): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      onTimeout();
      reject(new Error('local transcription timed out'));
    }, ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

export function createDecoderPool(sphinxArgs: string[]): DecoderPool {
  const idle: DecoderProcess[] = [];
  let closed = false;
  // One start at a time: several at once on a few cores (each loads the models) would each take longer than the limit.
  let starting: Promise<unknown> = Promise.resolve();
  const start = (): Promise<DecoderProcess> => {
    const next = starting.then(startOne, startOne);
    starting = next.catch(() => undefined);
    return next;
  };

  async function startOne(): Promise<DecoderProcess> {
    const proc = new DecoderProcess(sphinxArgs);
    try {
      await withTimeout(
        (async () => {
          const ready = await proc.nextReply();
          if (!ready.ready) throw new Error('the speech process did not start');
          await proc.run('warm-up', WARM_UP_CLIP);
        })(),
        START_TIMEOUT_MS,
        () => proc.kill(),
      );
    } catch (e) {
      proc.kill();
      throw e;
    }
    return proc;
  }

  return {
    async decode(filePath, timed, timeoutMs) {
      if (closed) throw new Error('the speech engine has stopped');
      let proc: DecoderProcess | undefined;
      while (!proc) {
        const candidate = idle.pop();
        if (!candidate) proc = await start();
        else if (!candidate.dead) proc = candidate;
      }
      proc.hold(true);
      const job = proc;
      try {
        return await withTimeout(job.run(timed ? 'decode-timed' : 'decode', filePath), timeoutMs, () => job.kill());
      } finally {
        if (closed || job.dead || !job.clean || idle.length >= MAX_IDLE) job.kill();
        else {
          job.hold(false);
          idle.push(job);
        }
      }
    },
    close() {
      closed = true;
      for (const proc of idle.splice(0)) proc.kill();
    },
  };
}
