/**
 * Checks that uploaded bytes really are audio in a container we can decode, by walking the container's whole
 * structure (not just its first bytes) before a part is acknowledged: a file that starts like WebM and goes on
 * with anything else is refused, so the client keeps it and the clinician is told, instead of the server
 * saying "stored" for something no engine can read.
 *
 * One allowance: the last element may be cut short by the end of the data. A part saved by a page that crashed
 * mid-recording ends wherever the recorder's last slice ended, and decoders play such a file to its last
 * complete frame; refusing it would lose the clinician's last words.
 */

export type AudioFormat = 'webm' | 'ogg' | 'wav' | 'm4a' | 'mp3' | 'aac';

export type AudioCheck = { ok: true; format: AudioFormat } | { ok: false; reason: string };

class Invalid extends Error {}
/** The data ended inside an element's id or size: a cut-short file, not a malformed one. */
class EndOfData extends Error {}
const fail = (reason: string): never => {
  throw new Invalid(reason);
};

/** The container the bytes claim to be, from their first bytes only. */
export function sniffAudio(buf: Buffer): AudioFormat | undefined {
  if (buf.length < 12) return undefined;
  if (buf.readUInt32BE(0) === 0x1a45dfa3) return 'webm';
  if (buf.toString('latin1', 0, 4) === 'OggS') return 'ogg';
  if (buf.toString('latin1', 0, 4) === 'RIFF' && buf.toString('latin1', 8, 12) === 'WAVE') return 'wav';
  if (buf.toString('latin1', 4, 8) === 'ftyp') return 'm4a';
  if (buf.toString('latin1', 0, 3) === 'ID3') return 'mp3';
  if (buf[0] === 0xff && (buf[1]! & 0xf6) === 0xf0) return 'aac';
  if (buf[0] === 0xff && (buf[1]! & 0xe0) === 0xe0) return 'mp3';
  return undefined;
}

/** Sniffs the container and walks its structure; `ok: false` says what is wrong, for the log of a refused upload. */
export function checkAudio(buf: Buffer): AudioCheck {
  const format = sniffAudio(buf);
  if (!format) return { ok: false, reason: 'unknown container' };
  try {
    CHECKS[format](buf);
    return { ok: true, format };
  } catch (err) {
    if (err instanceof Invalid) return { ok: false, reason: `${format}: ${err.message}` };
    // Reading past the end outside the one place a cut is allowed: a header cut in the middle, or a field of a
    // length no reader takes (an 8-byte track type).
    if (err instanceof RangeError || err instanceof EndOfData) return { ok: false, reason: `${format}: header cut short or oversized` };
    throw err;
  }
}

const CHECKS: Record<AudioFormat, (buf: Buffer) => void> = {
  webm: checkWebm,
  ogg: checkOgg,
  wav: checkWav,
  m4a: checkMp4,
  mp3: checkMpegAudio,
  aac: checkAdts,
};

// ---------------------------------------------------------------------------------------------------- WebM --

/** EBML variable-length integer at `pos`: its length in bytes and value (marker bit removed unless `keepMarker`). */
function readVint(buf: Buffer, pos: number, keepMarker: boolean): { length: number; value: number; unknown: boolean } {
  const first = buf[pos];
  if (first === undefined) throw new EndOfData();
  if (first === 0) fail('invalid element header');
  const length = Math.clz32(first) - 23;
  if (pos + length > buf.length) throw new EndOfData();
  let value = keepMarker ? first : first & (0xff >> length);
  let allOnes = value === 0xff >> length;
  for (let i = 1; i < length; i++) {
    const b = buf[pos + i]!;
    value = value * 256 + b;
    if (b !== 0xff) allOnes = false;
  }
  return { length, value, unknown: !keepMarker && allOnes };
}

const EBML = { header: 0x1a45dfa3, docType: 0x4282, segment: 0x18538067 } as const;
const SEGMENT_CHILDREN = new Set([0x114d9b74, 0x1549a966, 0x1654ae6b, 0x1f43b675, 0x1c53bb6b, 0x1254c367, 0x1043a770, 0x1941a469, 0xec, 0xbf]);
const TRACKS = 0x1654ae6b;
const CLUSTER = 0x1f43b675;
const CLUSTER_CHILDREN = new Set([0xe7, 0xa3, 0xa0, 0xa7, 0xab, 0xec, 0xbf, 0x5854]);
const TRACK_ENTRY = 0xae;
const TRACK_TYPE = 0x83;
const AUDIO_SETTINGS = 0xe1;

type Element = { id: number; start: number; dataStart: number; end: number; unknownSize: boolean };

function readElement(buf: Buffer, pos: number, parentEnd: number): Element {
  const id = readVint(buf, pos, true);
  if (id.length > 4) fail('invalid element id');
  const size = readVint(buf, pos + id.length, false);
  const dataStart = pos + id.length + size.length;
  const end = size.unknown ? parentEnd : dataStart + size.value;
  // Only the end of the file may cut an element short, never the end of its parent.
  if (!size.unknown && end > parentEnd && parentEnd < buf.length) fail('element overruns its parent');
  return { id: id.value, start: pos, dataStart, end, unknownSize: size.unknown };
}

function* children(buf: Buffer, from: number, to: number): Generator<Element> {
  let pos = from;
  const limit = Math.min(to, buf.length);
  while (pos < limit) {
    const el = readElement(buf, pos, to);
    yield el;
    if (el.end <= pos) fail('element of no length');
    pos = el.end;
  }
}

function checkWebm(buf: Buffer): void {
  const header = readElement(buf, 0, buf.length);
  if (header.id !== EBML.header || header.unknownSize || header.end > buf.length) fail('no complete EBML header');
  let docType = '';
  for (const el of children(buf, header.dataStart, header.end)) {
    if (el.id === EBML.docType) docType = buf.toString('latin1', el.dataStart, el.end).replace(/\0+$/, '');
  }
  if (docType !== 'webm' && docType !== 'matroska') fail(`document type "${docType}"`);
  const segment = readElement(buf, header.end, buf.length);
  if (segment.id !== EBML.segment) fail('no segment after the header');

  let audioTrack = false;
  let pos = segment.dataStart;
  const segmentEnd = Math.min(segment.end, buf.length);
  try {
    while (pos < segmentEnd) {
      const el = readElement(buf, pos, segment.end);
      if (!SEGMENT_CHILDREN.has(el.id)) fail(`unexpected element 0x${el.id.toString(16)} in the segment`);
      if (el.id === TRACKS) audioTrack = hasAudioTrack(buf, el);
      if (el.id === CLUSTER) {
        if (!audioTrack) fail('audio data before an audio track');
        pos = walkCluster(buf, el, segment.end);
      } else {
        if (el.unknownSize) fail('element of unknown size');
        pos = el.end;
      }
    }
  } catch (err) {
    // The data ended inside an element's id or size: MediaRecorder's slices may end there (a part saved by a page
    // that then died ends with a block's id and no size). Everything before it was checked.
    if (!(err instanceof EndOfData)) throw err;
  }
  if (!audioTrack) fail('no audio track');
  // A segment of known size is the whole file: anything after it is not this recording.
  if (!segment.unknownSize && segment.end < buf.length) fail('data after the segment');
}

function hasAudioTrack(buf: Buffer, tracks: Element): boolean {
  for (const entry of children(buf, tracks.dataStart, tracks.end)) {
    if (entry.id !== TRACK_ENTRY) continue;
    for (const field of children(buf, entry.dataStart, entry.end)) {
      if (field.id === AUDIO_SETTINGS) return true;
      if (field.id === TRACK_TYPE && field.end <= buf.length) {
        const length = field.end - field.dataStart;
        if (length < 1 || length > 6) fail('invalid track type');
        if (buf.readUIntBE(field.dataStart, length) === 2) return true;
      }
    }
  }
  return false;
}

/** A cluster's blocks; MediaRecorder writes clusters of unknown size, which end where the next segment child starts. */
function walkCluster(buf: Buffer, cluster: Element, segmentEnd: number): number {
  let pos = cluster.dataStart;
  const end = Math.min(cluster.end, buf.length);
  while (pos < end) {
    const el = readElement(buf, pos, cluster.unknownSize ? segmentEnd : cluster.end);
    if (cluster.unknownSize && SEGMENT_CHILDREN.has(el.id)) return pos;
    if (!CLUSTER_CHILDREN.has(el.id)) fail(`unexpected element 0x${el.id.toString(16)} in a cluster`);
    if (el.unknownSize) fail('block of unknown size');
    pos = el.end;
  }
  return Math.max(pos, end);
}

// ----------------------------------------------------------------------------------------------------- Ogg --

const OGG_CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let r = i << 24;
    for (let j = 0; j < 8; j++) r = r & 0x80000000 ? (r << 1) ^ 0x04c11db7 : r << 1;
    table[i] = r >>> 0;
  }
  return table;
})();

function oggCrc(page: Buffer): number {
  let crc = 0;
  for (let i = 0; i < page.length; i++) {
    // The checksum field itself (bytes 22–25) counts as zero.
    const byte = i >= 22 && i < 26 ? 0 : page[i]!;
    crc = ((crc << 8) ^ OGG_CRC_TABLE[((crc >>> 24) ^ byte) & 0xff]!) >>> 0;
  }
  return crc;
}

const OGG_CODECS = ['OpusHead', '\x01vorbis', '\x7fFLAC', 'Speex   '];

function checkOgg(buf: Buffer): void {
  let pos = 0;
  let pages = 0;
  while (pos < buf.length) {
    if (pos + 27 > buf.length) {
      if (pages > 0) return;
      fail('first page cut short');
    }
    if (buf.toString('latin1', pos, pos + 4) !== 'OggS' || buf[pos + 4] !== 0) fail('not an Ogg page');
    const segments = buf[pos + 26]!;
    if (pos + 27 + segments > buf.length) {
      if (pages === 0) fail('first page cut short');
      return;
    }
    let body = 0;
    for (let i = 0; i < segments; i++) body += buf[pos + 27 + i]!;
    const end = pos + 27 + segments + body;
    if (end > buf.length) {
      if (pages > 0) return;
      fail('first page cut short');
    }
    const page = buf.subarray(pos, end);
    if (oggCrc(page) !== page.readUInt32LE(22)) fail(`page ${pages} checksum`);
    if (pages === 0) {
      if (!(buf[pos + 5]! & 0x02)) fail('first page does not begin a stream');
      const start = pos + 27 + segments;
      if (!OGG_CODECS.some((c) => buf.toString('latin1', start, start + c.length) === c)) fail('not an audio codec');
    }
    pages++;
    pos = end;
  }
}

// ----------------------------------------------------------------------------------------------------- WAV --

const WAV_FORMATS = new Set([1, 3, 6, 7, 0x11, 0xfffe]);

function checkWav(buf: Buffer): void {
  let pos = 12;
  let fmt = false;
  let data = false;
  while (pos + 8 <= buf.length) {
    const id = buf.toString('latin1', pos, pos + 4);
    if (!/^[\x20-\x7e]{4}$/.test(id)) fail('invalid chunk id');
    const size = buf.readUInt32LE(pos + 4);
    const start = pos + 8;
    if (id === 'fmt ') {
      if (size < 16 || start + 16 > buf.length) fail('format chunk too short');
      const format = buf.readUInt16LE(start);
      const channels = buf.readUInt16LE(start + 2);
      const rate = buf.readUInt32LE(start + 4);
      if (!WAV_FORMATS.has(format)) fail(`audio format ${format}`);
      if (channels < 1 || channels > 16 || rate < 1000 || rate > 384_000) fail('channels or sample rate');
      fmt = true;
    } else if (id === 'data') {
      if (!fmt) fail('data before format');
      data = true;
      // Recorders that stream WAV may leave the size unset or larger than what was written: the rest is samples.
      if (start + size >= buf.length || size === 0xffffffff) return;
    }
    pos = start + size + (size % 2);
  }
  if (!fmt || !data) fail('no format or no data chunk');
}

// ---------------------------------------------------------------------------------------------- MP4 / M4A --

/** The boxes an ISO media file may hold at its top level (ISO/IEC 14496-12); anything else there is not a movie. */
const MP4_TOP_LEVEL = new Set(['ftyp', 'styp', 'moov', 'moof', 'mdat', 'free', 'skip', 'wide', 'uuid', 'sidx', 'ssix', 'mfra', 'meta', 'pdin', 'prft', 'emsg']);

function checkMp4(buf: Buffer): void {
  let pos = 0;
  let index = 0;
  let movie = false;
  while (pos < buf.length) {
    if (pos + 8 > buf.length) {
      if (movie) return;
      fail('box header cut short');
    }
    const box = readBox(buf, pos, buf.length);
    if (!MP4_TOP_LEVEL.has(box.type)) fail(`unexpected box "${box.type.replace(/[^\x20-\x7e]/g, '?')}"`);
    if (index === 0 && box.type !== 'ftyp') fail('no file type box first');
    if (box.type === 'moov') {
      // The movie box is the index every decoder needs: it must be whole and describe a sound track.
      if (box.end > buf.length) fail('movie box cut short');
      if (!hasSoundTrack(buf, box)) fail('no sound track');
      movie = true;
    } else if (box.type === 'moof' && !movie) {
      fail('fragment before the movie box');
    }
    pos = box.end;
    index++;
  }
  if (!movie) fail('no movie box');
}

type Box = { type: string; dataStart: number; end: number };

function readBox(buf: Buffer, pos: number, parentEnd: number): Box {
  if (pos + 8 > buf.length) fail('box header cut short');
  let size = buf.readUInt32BE(pos);
  const type = buf.toString('latin1', pos + 4, pos + 8);
  let header = 8;
  if (size === 1) {
    if (pos + 16 > buf.length) fail('box header cut short');
    size = Number(buf.readBigUInt64BE(pos + 8));
    header = 16;
    if (size < 16) fail('box too small');
  } else if (size === 0) {
    size = parentEnd - pos;
  } else if (size < 8) {
    fail('box too small');
  }
  return { type, dataStart: pos + header, end: pos + size };
}

/** moov › trak › mdia › hdlr with handler type "soun". */
function hasSoundTrack(buf: Buffer, moov: Box): boolean {
  const childrenOf = (parent: Box): Box[] => {
    const out: Box[] = [];
    for (let pos = parent.dataStart; pos < parent.end; ) {
      const child = readBox(buf, pos, parent.end);
      if (child.end > parent.end) fail(`box "${child.type.replace(/[^\x20-\x7e]/g, '?')}" overruns its parent`);
      out.push(child);
      pos = child.end;
    }
    return out;
  };
  for (const trak of childrenOf(moov).filter((b) => b.type === 'trak')) {
    for (const mdia of childrenOf(trak).filter((b) => b.type === 'mdia')) {
      // A handler box: version and flags (4), pre-defined (4), then the handler type.
      const hdlr = childrenOf(mdia).find((b) => b.type === 'hdlr');
      if (hdlr && hdlr.dataStart + 12 <= hdlr.end && buf.toString('latin1', hdlr.dataStart + 8, hdlr.dataStart + 12) === 'soun') return true;
    }
  }
  return false;
}

// ---------------------------------------------------------------------------------------- MP3 and ADTS AAC --

const MPEG_BITRATES: Record<string, number[]> = {
  // kbit/s by [version 1 | 2/2.5][layer 1 | 2 | 3], index 1–14
  '1-1': [32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],
  '1-2': [32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],
  '1-3': [32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  '2-1': [32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],
  '2-2': [8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
  '2-3': [8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
};
const MPEG_RATES: Record<number, number[]> = { 3: [44100, 48000, 32000], 2: [22050, 24000, 16000], 0: [11025, 12000, 8000] };

/** Length in bytes of the MPEG audio frame whose header is at `pos`, or undefined when it is not one. */
function mpegFrameLength(buf: Buffer, pos: number): number | undefined {
  if (pos + 4 > buf.length || buf[pos] !== 0xff || (buf[pos + 1]! & 0xe0) !== 0xe0) return undefined;
  const version = (buf[pos + 1]! >> 3) & 3;
  const layerBits = (buf[pos + 1]! >> 1) & 3;
  const bitrateIndex = buf[pos + 2]! >> 4;
  const rateIndex = (buf[pos + 2]! >> 2) & 3;
  const padding = (buf[pos + 2]! >> 1) & 1;
  if (version === 1 || layerBits === 0 || bitrateIndex === 0 || bitrateIndex === 15 || rateIndex === 3) return undefined;
  const layer = 4 - layerBits;
  const kbps = MPEG_BITRATES[`${version === 3 ? 1 : 2}-${layer}`]![bitrateIndex - 1]! * 1000;
  const rate = MPEG_RATES[version]![rateIndex]!;
  if (layer === 1) return (Math.floor((12 * kbps) / rate) + padding) * 4;
  const perFrame = layer === 3 && version !== 3 ? 72 : 144;
  return Math.floor((perFrame * kbps) / rate) + padding;
}

function checkMpegAudio(buf: Buffer): void {
  let pos = 0;
  if (buf.toString('latin1', 0, 3) === 'ID3') {
    // ID3v2: a 10-byte header whose size is four 7-bit bytes.
    if ((buf[6]! | buf[7]! | buf[8]! | buf[9]!) & 0x80) fail('invalid ID3 tag size');
    pos = 10 + ((buf[6]! << 21) | (buf[7]! << 14) | (buf[8]! << 7) | buf[9]!) + (buf[5]! & 0x10 ? 10 : 0);
  }
  let frames = 0;
  while (pos < buf.length) {
    const length = mpegFrameLength(buf, pos);
    if (length === undefined) {
      // What may follow the last frame: an ID3v1 or APE tag; anything else after the frames is not audio.
      const rest = buf.toString('latin1', pos, pos + 8);
      if (frames > 0 && (rest.startsWith('TAG') || rest === 'APETAGEX' || rest.startsWith('LYRICS'))) return;
      if (frames > 0 && pos + 4 > buf.length) return;
      fail(frames ? `frame ${frames} is not an MPEG audio frame` : 'no MPEG audio frame');
    }
    frames++;
    pos += length!;
  }
}

function checkAdts(buf: Buffer): void {
  let pos = 0;
  let frames = 0;
  while (pos < buf.length) {
    if (pos + 7 > buf.length) {
      if (frames > 0) return;
      fail('frame header cut short');
    }
    if (buf[pos] !== 0xff || (buf[pos + 1]! & 0xf6) !== 0xf0) fail(frames ? `frame ${frames} is not an AAC frame` : 'no AAC frame');
    if (((buf[pos + 2]! >> 2) & 0xf) > 12) fail('sample rate');
    const length = ((buf[pos + 3]! & 3) << 11) | (buf[pos + 4]! << 3) | (buf[pos + 5]! >> 5);
    if (length < 7) fail('frame too short');
    frames++;
    pos += length;
  }
}
