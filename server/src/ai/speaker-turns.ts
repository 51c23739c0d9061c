/**
 * A recorded part's words with who said them. A teleconsultation part holds the clinician's microphone on the left
 * channel and the call on the right: each channel is transcribed alone and the two are put back in the order they
 * were said, so every word is labelled with no model. A one-channel part is labelled only when the engine tells
 * voices apart (and hears more than one); otherwise it is plain text, as before.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { renderTurns, speakerLabel, type ChannelLayout, type Speaker, type SpeakerTurn } from '../../../contract/speakers.js';
import type { Language } from '../../../contract/constants.js';
import { runFfmpeg } from './ffmpeg.js';
import type { TimedSegment, Transcriber, TranscriptionInput } from './transcriber.js';
import { markedSegmentText, markedText } from './word-confidence.js';
import { joinUncertain } from '../../../contract/uncertain-words.js';

export type PartTranscript = { text: string; turns: SpeakerTurn[] | null };

const RATE = 16_000;
const FRAME = RATE / 50;

/** 16-bit mono PCM samples as a WAV file (16 kHz unless told). */
export function wavFile(samples: Int16Array, rate = RATE): Buffer {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + samples.length * 2, 4);
  header.write('WAVEfmt ', 8, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(samples.length * 2, 40);
  return Buffer.concat([header, Buffer.from(samples.buffer, samples.byteOffset, samples.length * 2)]);
}

const rmsOf = (samples: Int16Array, frame: number) => {
  let sum = 0;
  const end = Math.min(samples.length, (frame + 1) * FRAME);
  for (let i = frame * FRAME; i < end; i++) sum += samples[i]! ** 2;
  return Math.sqrt(sum / FRAME);
};

/** About -34 dBFS over 20 ms: a voice, above a quiet line's hiss. */
const VOICE_RMS = 650;
/** The call's sound reaches the microphone through the room up to this late (output buffers, distance). */
const ECHO_MAX_SAMPLES = (RATE * 80) / 1000;
const LAG_STEP = 8;
/** A microphone stretch this alike to the call (normalised correlation at its best delay) is the call's echo. */
const ECHO_LIKENESS = 0.5;

/** How alike a 20 ms stretch of the microphone is to the call at its most alike delay (0…1). */
function likenessToCall(mic: Int16Array, call: Int16Array, frame: number): number {
  const from = frame * FRAME;
  const to = Math.min(mic.length, from + FRAME);
  let micEnergy = 0;
  for (let i = from; i < to; i++) micEnergy += mic[i]! ** 2;
  if (micEnergy === 0) return 0;
  let best = 0;
  for (let lag = 0; lag <= ECHO_MAX_SAMPLES && from - lag >= 0; lag += LAG_STEP) {
    let cross = 0;
    let callEnergy = 0;
    for (let i = from; i < to; i++) {
      const c = call[i - lag]!;
      cross += mic[i]! * c;
      callEnergy += c * c;
    }
    if (callEnergy > 0) best = Math.max(best, cross / Math.sqrt(micEnergy * callEnergy));
  }
  return best;
}

/**
 * The call's voice heard again by the clinician's microphone (a loudspeaker, echo cancellation that leaves a
 * residue) would be transcribed as the clinician's: a 20 ms stretch of the microphone that is a delayed copy of
 * the call (alike to it at some delay up to 80 ms) is silenced. Loudness alone does not decide: the clinician
 * talking over the patient, however softly, is not alike to the call and stays. Returns where a voice is first
 * heard on each side (ms, -1 if never).
 */
export function withoutEcho(clinician: Int16Array, patient: Int16Array): { clinicianOnsetMs: number; patientOnsetMs: number } {
  const frames = Math.ceil(clinician.length / FRAME);
  let clinicianOnset = -1;
  let patientOnset = -1;
  const callHeard = (f: number) => {
    for (let g = Math.max(0, f - Math.ceil(ECHO_MAX_SAMPLES / FRAME)); g <= f; g++) if (rmsOf(patient, g) > VOICE_RMS / 4) return true;
    return false;
  };
  for (let f = 0; f < frames; f++) {
    const mic = rmsOf(clinician, f);
    if (mic > 0 && callHeard(f) && likenessToCall(clinician, patient, f) >= ECHO_LIKENESS) clinician.fill(0, f * FRAME, (f + 1) * FRAME);
    else if (clinicianOnset < 0 && mic > VOICE_RMS) clinicianOnset = f * 20;
    if (patientOnset < 0 && rmsOf(patient, f) > VOICE_RMS) patientOnset = f * 20;
  }
  return { clinicianOnsetMs: clinicianOnset, patientOnsetMs: patientOnset };
}

type Sides = { left: Int16Array; right: Int16Array; onsets: { clinicianOnsetMs: number; patientOnsetMs: number } };

/**
 * A part is 5 to 10 s (the recorder's cut); one longer than this is not a browser's and is read as one voice (its
 * decoding stops here, so a long file cannot fill the memory: 60 s of two channels is under 4 MB).
 */
export const MAX_TWO_CHANNEL_SECONDS = 60;

/**
 * The two channels at 16 kHz, the call's echo taken out of the microphone's; undefined for a one-channel file or
 * one longer than MAX_TWO_CHANNEL_SECONDS.
 */
async function decodeSides(file: string): Promise<Sides | undefined> {
  const chunks: Buffer[] = [];
  const limit = (MAX_TWO_CHANNEL_SECONDS + 1) * RATE * 4;
  let size = 0;
  await runFfmpeg(
    ['-i', file, '-t', String(MAX_TWO_CHANNEL_SECONDS + 1), '-ar', String(RATE), '-ac', '2', '-f', 's16le', '-c:a', 'pcm_s16le', 'pipe:1'],
    (d) => {
      if (size < limit) chunks.push(d);
      size += d.length;
    },
  );
  if (size > MAX_TWO_CHANNEL_SECONDS * RATE * 4) return undefined;
  const all = Buffer.concat(chunks);
  const frames = Math.floor(all.length / 4);
  const left = new Int16Array(frames);
  const right = new Int16Array(frames);
  let same = true;
  for (let i = 0; i < frames; i++) {
    left[i] = all.readInt16LE(i * 4);
    right[i] = all.readInt16LE(i * 4 + 2);
    if (left[i] !== right[i]) same = false;
  }
  // A one-channel file comes out the same on both sides: one voice, not two.
  if (same) return undefined;
  return { left, right, onsets: withoutEcho(left, right) };
}

/**
 * With an engine that times each word, the part is transcribed once, as heard in the room (both sides mixed:
 * the engine understands a conversation better than two halves of it, full of silences), and each word goes to
 * the side whose channel carries its sound.
 */
function wordsBySide(words: TimedSegment[], sides: Sides): (TimedSegment & { speaker: Speaker })[] {
  const energy = (samples: Int16Array, from: number, to: number) => {
    let sum = 0;
    for (let i = Math.max(0, from); i < Math.min(samples.length, to); i++) sum += samples[i]! ** 2;
    return sum;
  };
  return words.map((w) => {
    const from = Math.floor((w.startMs * RATE) / 1000);
    const to = Math.ceil((Math.max(w.endMs, w.startMs + 20) * RATE) / 1000);
    return { ...w, speaker: energy(sides.left, from, to) >= energy(sides.right, from, to) ? 'clinician' : 'patient' };
  });
}

const LEAD_IN_MS = 200;

/**
 * Otherwise each side is transcribed alone, from a little before its first voice: the engine adapts to the sound
 * it hears first, and seconds of the other side's turn in silence made it mishear the opening words. Its times
 * are moved back by what was cut; an engine that gives no times has its words where the voice starts.
 */
async function sideApart(
  transcriber: Transcriber,
  input: TranscriptionInput,
  name: 'clinician' | 'patient',
  samples: Int16Array,
  onsetMs: number,
): Promise<(TimedSegment & { speaker: Speaker })[]> {
  if (onsetMs < 0) return [];
  const offsetMs = Math.max(0, onsetMs - LEAD_IN_MS);
  const file = path.join(input.workDir, `${name}.wav`);
  await writeFile(file, wavFile(samples.subarray((offsetMs * RATE) / 1000)), { mode: 0o600 });
  const request = { ...input, filePath: file, mimeType: 'audio/wav' };
  const segments = transcriber.transcribeTimed
    ? await transcriber.transcribeTimed(request)
    : [{ startMs: -1, endMs: -1, text: await transcriber.transcribe(request) }];
  return segments
    .filter((s) => s.text.trim())
    .map((s) => ({
      ...s,
      speaker: name,
      ...(s.startMs < 0 ? { startMs: onsetMs, endMs: onsetMs } : { startMs: s.startMs + offsetMs, endMs: s.endMs + offsetMs }),
    }));
}

/** Segments of several speakers as turns in time order, a speaker's consecutive segments joined. */
export function turnsInOrder(segments: (TimedSegment & { speaker: Speaker })[], language: Language): SpeakerTurn[] {
  const rank = (s: Speaker) => (s === 'clinician' ? 0 : 1);
  const sorted = [...segments].sort((a, b) => a.startMs - b.startMs || rank(a.speaker) - rank(b.speaker));
  const turns: SpeakerTurn[] = [];
  for (const s of sorted) {
    // The engine's uncertain words are written marked (word-confidence.ts).
    const text = markedSegmentText(s);
    if (!text) continue;
    const last = turns.at(-1);
    if (last?.speaker === s.speaker) last.text = joinUncertain(`${last.text} ${text}`);
    else turns.push({ speaker: s.speaker, label: speakerLabel(s.speaker, language), text });
  }
  return turns;
}

/** An engine's own speaker names ('A', 'SPEAKER_00', 'spk1') as letters in the order they first speak. */
function voicesOf(segments: TimedSegment[]): (TimedSegment & { speaker: Speaker })[] {
  const letters = new Map<string, Speaker>();
  return segments.map((s) => {
    const name = s.speaker ?? '';
    if (!letters.has(name)) letters.set(name, `speaker_${String.fromCharCode(97 + Math.min(letters.size, 25))}`);
    return { ...s, speaker: letters.get(name)! };
  });
}

export async function transcribePart(
  transcriber: Transcriber,
  input: TranscriptionInput & { language: Language; layout: ChannelLayout },
): Promise<PartTranscript> {
  const { layout, ...request } = input;
  if (layout === 'clinician_patient') {
    const sides = await decodeSides(input.filePath);
    // A part said to be two channels that has one (a browser that mixed them) is read as one voice.
    if (sides) {
      const heard =
        transcriber.info.wordTimes && transcriber.transcribeTimed
          ? wordsBySide(
              (await transcriber.transcribeTimed(request)).filter((w) => w.text.trim()),
              sides,
            )
          : [
              ...(await sideApart(transcriber, request, 'clinician', sides.left, sides.onsets.clinicianOnsetMs)),
              ...(await sideApart(transcriber, request, 'patient', sides.right, sides.onsets.patientOnsetMs)),
            ];
      if (!heard.length) return { text: '', turns: null };
      const turns = turnsInOrder(heard, input.language);
      return { text: renderTurns(turns), turns };
    }
  }
  if (transcriber.info.diarizes && transcriber.transcribeTimed) {
    const segments = (await transcriber.transcribeTimed(request)).filter((s) => s.text.trim());
    const voices = new Set(segments.map((s) => s.speaker).filter(Boolean));
    if (voices.size > 1) {
      const turns = turnsInOrder(voicesOf(segments), input.language);
      return { text: renderTurns(turns), turns };
    }
    return { text: markedText(segments), turns: null };
  }
  return { text: await transcriber.transcribe(request), turns: null };
}
