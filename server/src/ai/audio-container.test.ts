import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkAudio, type AudioFormat } from './audio-container.js';

let dir: string;
const files = new Map<string, { format: AudioFormat; data: Buffer }>();

/** Each container the browsers record (WebM and Ogg Opus, fragmented MP4) or users upload (MP3, M4A, WAV, AAC). */
const MADE: Array<{ name: string; format: AudioFormat; args: string[]; pipe?: boolean }> = [
  { name: 'opus.webm', format: 'webm', args: ['-c:a', 'libopus', '-f', 'webm'] },
  // Written to a pipe the muxer cannot seek back in: segment and clusters of unknown size, as MediaRecorder writes.
  { name: 'live.webm', format: 'webm', args: ['-c:a', 'libopus', '-f', 'webm', '-live', '1'], pipe: true },
  { name: 'opus.ogg', format: 'ogg', args: ['-c:a', 'libopus', '-f', 'ogg'] },
  { name: 'vorbis.ogg', format: 'ogg', args: ['-c:a', 'libvorbis', '-f', 'ogg'] },
  { name: 'tone.wav', format: 'wav', args: ['-c:a', 'pcm_s16le', '-f', 'wav'] },
  { name: 'tone.m4a', format: 'm4a', args: ['-c:a', 'aac', '-f', 'mp4'] },
  // Safari records fragmented MP4.
  { name: 'frag.mp4', format: 'm4a', args: ['-c:a', 'aac', '-movflags', 'frag_keyframe+empty_moov', '-f', 'mp4'], pipe: true },
  { name: 'tone.mp3', format: 'mp3', args: ['-c:a', 'libmp3lame', '-f', 'mp3'] },
  { name: 'tone.aac', format: 'aac', args: ['-c:a', 'aac', '-f', 'adts'] },
];

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'cn-containers-'));
  for (const m of MADE) {
    const input = ['-nostdin', '-loglevel', 'error', '-f', 'lavfi', '-i', 'sine=f=330:d=2'];
    const file = path.join(dir, m.name);
    const data = m.pipe
      ? execFileSync('ffmpeg', [...input, ...m.args, 'pipe:1'], { maxBuffer: 10e6 })
      : (execFileSync('ffmpeg', [...input, ...m.args, '-y', file]), readFileSync(file));
    files.set(m.name, { format: m.format, data });
  }
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('checkAudio', () => {
  it('accepts every container as made by an encoder', () => {
    for (const [name, { format, data }] of files) expect(checkAudio(data), name).toEqual({ ok: true, format });
  });

  it('accepts a part cut short by a crash (the last element truncated)', () => {
    for (const [name, { format, data }] of files) {
      // An MP4 written in one go keeps its index (moov) at the end: cut short, no decoder can read it.
      if (name === 'tone.m4a') {
        expect(checkAudio(data.subarray(0, data.length / 2)).ok).toBe(false);
        continue;
      }
      for (const share of [0.6, 0.93]) {
        const cut = data.subarray(0, Math.floor(data.length * share));
        expect(checkAudio(cut), `${name} at ${share}`).toEqual({ ok: true, format });
      }
    }
  });

  it('refuses a valid beginning followed by something that is not audio', () => {
    const junk = Buffer.from('%PDF-1.7 this is a document pretending to be a recording '.repeat(40));
    for (const [name, { data }] of files) {
      // The start of a real file (its headers and a little audio), then other bytes.
      const forged = Buffer.concat([data.subarray(0, Math.min(data.length, 600)), junk, data.subarray(600)]);
      expect(checkAudio(forged).ok, name).toBe(false);
    }
  });

  it('refuses first bytes alone, random bytes and other files', () => {
    expect(checkAudio(Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), Buffer.alloc(100, 0x41)])).ok).toBe(false);
    expect(checkAudio(Buffer.from('OggS\0\x02' + 'x'.repeat(200), 'latin1')).ok).toBe(false);
    expect(checkAudio(Buffer.from('RIFF\x24\0\0\0WAVEjunkjunkjunkjunk', 'latin1')).ok).toBe(false);
    expect(checkAudio(Buffer.from('\0\0\0\x18ftypisom' + '\0'.repeat(40), 'latin1')).ok).toBe(false);
    expect(checkAudio(Buffer.from('ID3\x04\0\0\0\0\0\x05hello' + 'x'.repeat(100), 'latin1')).ok).toBe(false);
    expect(checkAudio(Buffer.from('not audio at all, just text'.repeat(10))).ok).toBe(false);
    // Garbage with a valid-looking WebM header: thousands of random bodies, none accepted, none throwing.
    const header = files.get('opus.webm')!.data.subarray(0, 40);
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) & 0xff;
    for (let i = 0; i < 2000; i++) {
      const body = Buffer.from(Array.from({ length: 64 + (i % 200) }, random));
      expect(() => checkAudio(Buffer.concat([header, body]))).not.toThrow();
    }
  });

  it("walks clusters of unknown size, as Chrome's MediaRecorder writes them", () => {
    const data = Buffer.from(files.get('live.webm')!.data);
    let clusters = 0;
    for (let i = data.indexOf('1f43b675', 0, 'hex'); i >= 0; i = data.indexOf('1f43b675', i + 4, 'hex')) {
      const length = Math.clz32(data[i + 4]!) - 23;
      // The same number of bytes, all ones after the length marker: "size unknown".
      for (let b = 0; b < length; b++) data[i + 4 + b] = b === 0 ? 0xff >> (length - 1) : 0xff;
      clusters++;
    }
    expect(clusters).toBeGreaterThan(0);
    expect(checkAudio(data)).toEqual({ ok: true, format: 'webm' });
    // Cut at every byte of its last blocks, inside a block's id or size too, as a recorder's slice may end.
    for (let n = data.length - 300; n < data.length; n++) expect(checkAudio(data.subarray(0, n)), `cut at ${n}`).toEqual({ ok: true, format: 'webm' });
    const forged = Buffer.concat([
      data.subarray(0, data.length - 500),
      Buffer.from('<html>not a recording</html>'.repeat(30)),
      data.subarray(data.length - 500),
    ]);
    expect(checkAudio(forged).ok).toBe(false);
  });

  it('refuses crafted containers: bytes after a sized segment, oversized fields, a movie without sound', () => {
    /** An EBML element with an 8-byte size. */
    const el = (id: number[], data: Buffer) => {
      const size = Buffer.alloc(8);
      size[0] = 0x01;
      size.writeUIntBE(data.length, 2, 6);
      return Buffer.concat([Buffer.from(id), size, data]);
    };
    const header = el([0x1a, 0x45, 0xdf, 0xa3], el([0x42, 0x82], Buffer.from('webm')));
    const tracks = el([0x16, 0x54, 0xae, 0x6b], el([0xae], el([0x83], Buffer.from([2]))));
    const junk = Buffer.from('not audio '.repeat(5000));
    expect(checkAudio(Buffer.concat([header, el([0x18, 0x53, 0x80, 0x67], tracks)])).ok).toBe(true);
    expect(checkAudio(Buffer.concat([header, el([0x18, 0x53, 0x80, 0x67], tracks), junk])).ok).toBe(false);
    const unknownSegment = Buffer.from([0x18, 0x53, 0x80, 0x67, 0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]);
    const wideTrackType = el([0x16, 0x54, 0xae, 0x6b], el([0xae], el([0x83], Buffer.alloc(8))));
    expect(checkAudio(Buffer.concat([header, unknownSegment, tracks, wideTrackType, junk])).ok).toBe(false);

    const box = (type: string, data: Buffer) => {
      const h = Buffer.alloc(8);
      h.writeUInt32BE(8 + data.length);
      h.write(type, 4, 'latin1');
      return Buffer.concat([h, data]);
    };
    const ftyp = box('ftyp', Buffer.from('isom\0\0\0\0'));
    expect(checkAudio(Buffer.concat([ftyp, box('moov', Buffer.alloc(0)), box('free', junk)])).ok).toBe(false);
    expect(checkAudio(Buffer.concat([ftyp, Buffer.from([0x40, 0, 0, 0]), Buffer.from('moov'), junk])).ok).toBe(false);
    const hdlr = (kind: string) => box('hdlr', Buffer.concat([Buffer.alloc(8), Buffer.from(kind), Buffer.alloc(13)]));
    const movie = (kind: string) => box('moov', box('trak', box('mdia', hdlr(kind))));
    expect(checkAudio(Buffer.concat([ftyp, movie('vide'), box('mdat', junk)])).ok).toBe(false);
    expect(checkAudio(Buffer.concat([ftyp, movie('soun'), box('mdat', junk)])).ok).toBe(true);
  });

  it('detects a flipped byte in an Ogg page (its checksum)', () => {
    const data = Buffer.from(files.get('opus.ogg')!.data);
    const middle = Math.floor(data.length / 2);
    data[middle] = data[middle]! ^ 0x5a;
    expect(checkAudio(data).ok).toBe(false);
  });
});
