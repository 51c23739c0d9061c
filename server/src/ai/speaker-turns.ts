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

export type PartTranscript = { text: string; turns: SpeakerTurn[] | null };

const RATE = 16_000;
const FRAME = RATE / 50;

function wavFile(samples: Int16Array): Buffer {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + samples.length * 2, 4);
  header.write('WAVEfmt ', 8, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(RATE, 24);
  header.writeUInt32LE(RATE * 2, 28);
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
/** The call's sound reaches the microphone through the room some tens of milliseconds late. */
const ECHO_FRAMES = 4;

/**
 * The call's voice heard again by the clinician's microphone (a loudspeaker, echo cancellation that leaves a
 * residue) would be transcribed as the clinician's: a 20 ms stretch of the microphone is silenced where the call
 * is speaking within the last 80 ms and the microphone is not clearly louder than a leak of it would be (the
 * clinician talking over the patient stays). Returns where a voice is first heard on each side (ms, -1 if never).
 */
export function withoutEcho(clinician: Int16Array, patient: Int16Array): { clinicianOnsetMs: number; patientOnsetMs: number } {
  const frames = Math.ceil(clinician.length / FRAME);
  const callRms = Array.from({ length: frames }, (_, f) => rmsOf(patient, f));
  let clinicianOnset = -1;
  let patientOnset = -1;
  for (let f = 0; f < frames; f++) {
    const call = Math.max(...callRms.slice(Math.max(0, f - ECHO_FRAMES), f + 1));
    const mic = rmsOf(clinician, f);
    if (call > VOICE_RMS && mic < call * 0.5) clinician.fill(0, f * FRAME, (f + 1) * FRAME);
    else if (clinicianOnset < 0 && mic > VOICE_RMS) clinicianOnset = f * 20;
    if (patientOnset < 0 && callRms[f]! > VOICE_RMS) patientOnset = f * 20;
  }
  return { clinicianOnsetMs: clinicianOnset, patientOnsetMs: patientOnset };
}

type Sides = { left: Int16Array; right: Int16Array; onsets: { clinicianOnsetMs: number; patientOnsetMs: number } };

/** The two channels at 16 kHz, the call's echo taken out of the microphone's; undefined for a one-channel file. */
async function decodeSides(file: string): Promise<Sides | undefined> {
  const chunks: Buffer[] = [];
  await runFfmpeg(['-i', file, '-ar', String(RATE), '-ac', '2', '-f', 's16le', '-c:a', 'pcm_s16le', 'pipe:1'], (d) => chunks.push(d));
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
async function sideApart(transcriber: Transcriber, input: TranscriptionInput, name: 'clinician' | 'patient', samples: Int16Array, onsetMs: number): Promise<(TimedSegment & { speaker: Speaker })[]> {
  if (onsetMs < 0) return [];
  const offsetMs = Math.max(0, onsetMs - LEAD_IN_MS);
  const file = path.join(input.workDir, `${name}.wav`);
  await writeFile(file, wavFile(samples.subarray((offsetMs * RATE) / 1000)), { mode: 0o600 });
  const request = { ...input, filePath: file, mimeType: 'audio/wav' };
  const segments = transcriber.transcribeTimed ? await transcriber.transcribeTimed(request) : [{ startMs: -1, endMs: -1, text: await transcriber.transcribe(request) }];
  return segments
    .filter((s) => s.text.trim())
    .map((s) => ({ ...s, speaker: name, ...(s.startMs < 0 ? { startMs: onsetMs, endMs: onsetMs } : { startMs: s.startMs + offsetMs, endMs: s.endMs + offsetMs }) }));
}

/** Segments of several speakers as turns in time order, a speaker's consecutive segments joined. */
export function turnsInOrder(segments: (TimedSegment & { speaker: Speaker })[], language: Language): SpeakerTurn[] {
  const rank = (s: Speaker) => (s === 'clinician' ? 0 : 1);
  const sorted = [...segments].sort((a, b) => a.startMs - b.startMs || rank(a.speaker) - rank(b.speaker));
  const turns: SpeakerTurn[] = [];
  for (const s of sorted) {
    const last = turns.at(-1);
    if (last?.speaker === s.speaker) last.text = `${last.text} ${s.text.trim()}`;
    else turns.push({ speaker: s.speaker, label: speakerLabel(s.speaker, language), text: s.text.trim() });
  }
  return turns;
}

/** An engine's own speaker names ('A', 'B', 'speaker_0') as this product's: letters and digits only, bounded. */
const voiceOf = (name: string): Speaker => `speaker_${name.toLowerCase().replace(/^speaker[_ ]?/, '').replace(/[^a-z0-9]/g, '').slice(0, 8) || 'x'}`;

export async function transcribePart(transcriber: Transcriber, input: TranscriptionInput & { language: Language; layout: ChannelLayout }): Promise<PartTranscript> {
  const { layout, ...request } = input;
  if (layout === 'clinician_patient') {
    const sides = await decodeSides(input.filePath);
    // A part said to be two channels that has one (a browser that mixed them) is read as one voice.
    if (sides) {
      const heard =
        transcriber.info.wordTimes && transcriber.transcribeTimed
          ? wordsBySide((await transcriber.transcribeTimed(request)).filter((w) => w.text.trim()), sides)
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
      const turns = turnsInOrder(
        segments.map((s) => ({ ...s, speaker: voiceOf(s.speaker ?? 'x') })),
        input.language,
      );
      return { text: renderTurns(turns), turns };
    }
    return { text: segments.map((s) => s.text.trim()).join(' '), turns: null };
  }
  return { text: await transcriber.transcribe(request), turns: null };
}
