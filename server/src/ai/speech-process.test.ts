import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { localEngineAvailable, timedWords } from './local-transcriber.js';
import { createDecoderPool, decoderProcessAvailable } from './speech-process.js';

const DATA = '/usr/share/pocketsphinx/test/data';
const MODEL = '/usr/share/pocketsphinx/model/en-us';
const ARGS = ['-logfn', '/dev/null', '-hmm', `${MODEL}/en-us`, '-lm', `${MODEL}/en-us.lm.bin`, '-dict', `${MODEL}/cmudict-en-us.dict`];
const dir = mkdtempSync(path.join(tmpdir(), 'cn-decoder-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// npm test installs python3-pocketsphinx and pocketsphinx-testdata; a bare dev machine may have neither.
describe.skipIf(!localEngineAvailable() || !decoderProcessAvailable() || !existsSync(`${DATA}/goforward.raw`))('long-lived speech processes', () => {
  const goforward = path.join(dir, 'goforward.wav');
  execFileSync('ffmpeg', ['-nostdin', '-loglevel', 'error', '-y', '-f', 's16le', '-ar', '16000', '-ac', '1', '-i', `${DATA}/goforward.raw`, goforward]);
  // Three of the LibriVox clips: enough for the state one leaves to show in the next.
  const clips = readFileSync(`${DATA}/librivox/fileids`, 'utf8')
    .trim()
    .split('\n')
    .slice(0, 3)
    .map((id) => `${DATA}/librivox/${id}.wav`);

  it('reads part after part in one process, each as it would be read first: what came before changes nothing', async () => {
    const pool = createDecoderPool(ARGS);
    try {
      const alone: string[] = [];
      for (const clip of clips) {
        const fresh = createDecoderPool(ARGS);
        alone.push((await fresh.decode(clip, false, 60_000)).out);
        fresh.close();
      }
      const inTurn: string[] = [];
      for (const clip of [...clips, ...clips]) inTurn.push((await pool.decode(clip, false, 60_000)).out);
      expect(inTurn).toEqual([...alone, ...alone]);
      expect(alone.join(' ')).toMatch(/\w/);
    } finally {
      pool.close();
    }
  }, 120_000);

  it('gives the words with their times, and the length of what it decoded', async () => {
    const pool = createDecoderPool(ARGS);
    try {
      const { out, decodedMs } = await pool.decode(goforward, true, 30_000);
      const words = timedWords(out);
      expect(words.map((w) => w.text).join(' ')).toBe('go forward ten meters');
      expect(words[0]!.startMs).toBeLessThan(words.at(-1)!.endMs);
      const rawMs = Math.round(readFileSync(`${DATA}/goforward.raw`).length / 32);
      expect(Math.abs(decodedMs - rawMs)).toBeLessThanOrEqual(30);
    } finally {
      pool.close();
    }
  }, 60_000);

  it('stays in step after audio ffmpeg cannot read, and after a part that timed out', async () => {
    const pool = createDecoderPool(ARGS);
    try {
      const bogus = path.join(dir, 'bogus.webm');
      writeFileSync(bogus, 'not audio');
      await expect(pool.decode(bogus, false, 30_000)).rejects.toThrow(/ffmpeg/);
      expect((await pool.decode(goforward, false, 30_000)).out).toBe('go forward ten meters');
      // The timed-out process is stopped; the next part gets a new one.
      await expect(pool.decode(clips[0]!, false, 5)).rejects.toThrow(/timed out/);
      expect((await pool.decode(goforward, false, 30_000)).out).toBe('go forward ten meters');
    } finally {
      pool.close();
    }
  }, 90_000);

  it("stops the part's ffmpeg when the part times out: nothing is left holding the audio", async () => {
    const pool = createDecoderPool(ARGS);
    try {
      // Several minutes of speech: ffmpeg is still streaming, held back by the decoder, when the time runs out.
      const long = path.join(dir, `long-${process.pid}.wav`);
      execFileSync('ffmpeg', ['-nostdin', '-loglevel', 'error', '-y', '-stream_loop', '60', '-i', clips[0]!, long]);
      await expect(pool.decode(long, false, 1500)).rejects.toThrow(/timed out/);
      await new Promise((r) => setTimeout(r, 300));
      const left = spawnSync('pgrep', ['-f', long], { encoding: 'utf8' }).stdout.trim();
      expect(left).toBe('');
    } finally {
      pool.close();
    }
  }, 60_000);

  it('serves parts at the same time from as many processes, each reply to its own part', async () => {
    const pool = createDecoderPool(ARGS);
    try {
      const [a, b, c] = await Promise.all([
        pool.decode(goforward, false, 60_000),
        pool.decode(clips[1]!, false, 60_000),
        pool.decode(goforward, false, 60_000),
      ]);
      expect(a.out).toBe('go forward ten meters');
      expect(c.out).toBe('go forward ten meters');
      expect(b.out).not.toBe('go forward ten meters');
    } finally {
      pool.close();
    }
  }, 90_000);

  it('refuses work once closed', async () => {
    const pool = createDecoderPool(ARGS);
    pool.close();
    await expect(pool.decode(goforward, false, 30_000)).rejects.toThrow(/stopped/);
  });
});
