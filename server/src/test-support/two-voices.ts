/**
 * A teleconsultation as the browser records it: the clinician's voice on the left channel, the call's (the
 * patient's) on the right, in WebM/Opus parts cut at pauses every 5 s or more. The voices are espeak-ng's, two
 * different ones; `bleed` mixes some of the patient's voice into the clinician's microphone, as a loudspeaker in
 * the room does where echo cancellation leaves a residue.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export type SpokenLine = { speaker: 'clinician' | 'patient'; text: string };

/**
 * What clinicians and patients say, in the clinical language model's words (most lines are from its corpus: the
 * measure is who said each word, and words the engine mishears would only blur it).
 */
export const TELECONSULTATION: SpokenLine[] = [
  { speaker: 'clinician', text: 'good morning how can i help you today' },
  { speaker: 'patient', text: 'i have had a cough for two weeks' },
  { speaker: 'clinician', text: 'are you taking any other medication' },
  { speaker: 'patient', text: 'she takes metformin in the morning' },
  { speaker: 'clinician', text: 'do you have any allergies to medication' },
  { speaker: 'patient', text: 'no known drug allergies' },
  { speaker: 'clinician', text: 'your blood pressure is a little high today' },
  { speaker: 'clinician', text: 'the heart rate is regular' },
  { speaker: 'patient', text: 'i have had chest pain since yesterday' },
  { speaker: 'patient', text: 'her father had a stroke' },
  { speaker: 'clinician', text: 'we will start atorvastatin forty milligrams at night' },
  { speaker: 'clinician', text: 'please come back in two weeks' },
  { speaker: 'patient', text: 'thank you see you soon' },
  { speaker: 'clinician', text: 'call an ambulance if the chest pain comes back' },
];

const RATE = 16_000;
const ECHO_DELAY = RATE * 0.03;
const VOICES = { clinician: ['-v', 'en-us', '-s', '140'], patient: ['-v', 'en-us+m3', '-s', '150', '-p', '35'] };

function speech(dir: string, name: string, line: SpokenLine): Int16Array {
  const wav = path.join(dir, `${name}.wav`);
  const raw = path.join(dir, `${name}.raw`);
  execFileSync('espeak-ng', [...VOICES[line.speaker], '-w', wav, line.text]);
  execFileSync('ffmpeg', ['-nostdin', '-loglevel', 'error', '-y', '-i', wav, '-ar', String(RATE), '-ac', '1', '-f', 's16le', raw]);
  const bytes = readFileSync(raw);
  return new Int16Array(bytes.buffer, bytes.byteOffset, bytes.length / 2);
}

/** The parts' files in order, each with the lines it holds. */
export function twoVoiceParts(
  dir: string,
  lines: SpokenLine[],
  opts: { bleed?: number; pauseMs?: number; minPartMs?: number } = {},
): { file: string; lines: SpokenLine[] }[] {
  const pause = Math.round(((opts.pauseMs ?? 600) / 1000) * RATE);
  const minPart = ((opts.minPartMs ?? 5000) / 1000) * RATE;
  const bleed = opts.bleed ?? 0;
  const groups: { samples: Int16Array; line: SpokenLine }[][] = [[]];
  let length = 0;
  lines.forEach((line, i) => {
    const samples = speech(dir, `line-${i}`, line);
    if (length >= minPart) {
      groups.push([]);
      length = 0;
    }
    groups.at(-1)!.push({ samples, line });
    length += samples.length + pause;
  });
  return groups.map((group, p) => {
    const frames = group.reduce((n, g) => n + g.samples.length + pause, pause);
    const stereo = new Int16Array(frames * 2);
    let at = pause;
    for (const { samples, line } of group) {
      for (let i = 0; i < samples.length; i++) {
        const frame = (at + i) * 2;
        if (line.speaker === 'clinician') stereo[frame] = samples[i]!;
        else {
          stereo[frame + 1] = samples[i]!;
          // The room's echo arrives 30 ms late (buffers and the loudspeaker's distance).
          const echo = frame + ECHO_DELAY * 2;
          if (bleed && echo < stereo.length) stereo[echo] = Math.max(-32768, Math.min(32767, stereo[echo]! + Math.round(samples[i]! * bleed)));
        }
      }
      at += samples.length + pause;
    }
    const raw = path.join(dir, `part-${p}.raw`);
    const webm = path.join(dir, `part-${p}.webm`);
    writeFileSync(raw, Buffer.from(stereo.buffer));
    execFileSync('ffmpeg', [
      '-nostdin',
      '-loglevel',
      'error',
      '-y',
      '-f',
      's16le',
      '-ar',
      String(RATE),
      '-ac',
      '2',
      '-i',
      raw,
      '-c:a',
      'libopus',
      '-b:a',
      '32k',
      webm,
    ]);
    return { file: webm, lines: group.map((g) => g.line) };
  });
}
