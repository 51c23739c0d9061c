import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { labelledStretches } from '../../../contract/speakers.js';
import { CLINICAL_MODEL } from './engines.js';
import { createLocalTranscriber, localEngineAvailable, timedWords } from './local-transcriber.js';
import { transcribePart, turnsInOrder, withoutEcho } from './speaker-turns.js';
import type { TimedSegment, Transcriber, TranscriptionInput } from './transcriber.js';
import { speakerAttribution } from './word-error-rate.js';
import { TELECONSULTATION, twoVoiceParts } from '../test-support/two-voices.js';
import type { ChunkRow } from '../modules/consultation_sessions/repository.js';
import { assembleTranscription } from '../modules/consultation_sessions/transcription.js';

const dir = mkdtempSync(path.join(tmpdir(), 'cn-speakers-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const haveEspeak = (() => {
  try {
    execFileSync('espeak-ng', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
const clinicalBuilt = existsSync(CLINICAL_MODEL.languageModel) && existsSync(CLINICAL_MODEL.dictionary);

/** A tone on one side for `ms`, silence on the other. */
const tone = (ms: number, amplitude: number) => Int16Array.from({ length: (ms * 16_000) / 1000 }, (_, i) => Math.round(Math.sin(i / 5) * amplitude));

describe('the call heard again by the microphone', () => {
  it('is silenced on the clinician side, 30 ms late and 12 dB down; the clinician talking over the patient is kept', () => {
    const call = tone(1000, 8000);
    const leak = new Int16Array(call.length);
    leak.set(
      call.subarray(0, call.length - 480).map((s) => s / 4),
      480,
    );
    const onsets = withoutEcho(leak, call);
    expect(Math.max(...leak.map(Math.abs))).toBe(0);
    expect(onsets).toEqual({ clinicianOnsetMs: -1, patientOnsetMs: 0 });

    // Double talk: the clinician 10 dB below the patient, in another voice, is not the call's echo.
    const clinician = Int16Array.from({ length: 16_000 }, (_, i) => Math.round(Math.sin(i / 3.1) * 2500));
    withoutEcho(clinician, tone(1000, 8000));
    expect(Math.min(...Array.from({ length: 50 }, (_, f) => Math.max(...clinician.subarray(f * 320, f * 320 + 320).map(Math.abs))))).toBeGreaterThan(2000);
  });
});

describe('pocketsphinx word times', () => {
  it('reads each word with its times, without silences, noises and pronunciation marks', () => {
    const out =
      'what are the\n<s> 0.000 0.020 0.999600\nwhat 0.030 0.180 0.140208\n<sil> 0.190 0.400 0.3\nare(2) 0.410 0.580 0.137061\n[NOISE] 0.6 0.7 0.1\nthe 1.210 1.340 1.000000\n</s> 1.810 2.110 1.000000\n';
    expect(timedWords(out)).toEqual([
      { startMs: 30, endMs: 180, text: 'what', confidence: 0.140208 },
      { startMs: 410, endMs: 580, text: 'are', confidence: 0.137061 },
      { startMs: 1210, endMs: 1340, text: 'the', confidence: 1 },
    ]);
  });
});

describe('turns', () => {
  it('puts two sides back in the order they were said, a speaker’s consecutive words joined, labels in the clinician’s language', () => {
    const segments = [
      { startMs: 0, endMs: 500, text: 'o que o traz cá', speaker: 'clinician' as const },
      { startMs: 900, endMs: 1500, text: 'dói-me a cabeça', speaker: 'patient' as const },
      { startMs: 1600, endMs: 2000, text: 'há três dias', speaker: 'patient' as const },
      { startMs: 2500, endMs: 3000, text: 'vamos medir a tensão', speaker: 'clinician' as const },
    ];
    expect(turnsInOrder([...segments].reverse(), 'pt')).toEqual([
      { speaker: 'clinician', label: 'Médico', text: 'o que o traz cá' },
      { speaker: 'patient', label: 'Doente', text: 'dói-me a cabeça há três dias' },
      { speaker: 'clinician', label: 'Médico', text: 'vamos medir a tensão' },
    ]);
  });

  it('a speaker going on into the next part keeps one label; failed parts stay marked on their own line', () => {
    const part = (order: number, turns: ChunkRow['speakerTurns'], status = 'done') =>
      ({ order, transcriptionStatus: status, speakerTurns: turns, transcript: turns?.map((t) => `${t.label}: ${t.text}`).join('\n') ?? null }) as ChunkRow;
    const c = (text: string) => ({ speaker: 'clinician' as const, label: 'Clinician', text });
    const p = (text: string) => ({ speaker: 'patient' as const, label: 'Patient', text });
    const plain = (order: number, transcript: string) => ({ order, transcriptionStatus: 'done', speakerTurns: null, transcript }) as ChunkRow;
    const text = assembleTranscription([
      part(0, [c('what brings you in'), p('a cough for')]),
      part(1, [p('two weeks')]),
      part(2, null, 'failed'),
      part(3, [p('and a fever')]),
      plain(4, 'we will start amlodipine'),
    ]).text;
    expect(text).toBe(
      'Clinician: what brings you in\nPatient: a cough for two weeks\n\n[part 3 could not be transcribed]\nPatient: and a fever\n\nwe will start amlodipine',
    );
    // A marker, and a part whose speakers are not known (one voice), are nobody's: not the patient's before them.
    expect(labelledStretches(text).map((s) => [s.role, text.slice(s.start, s.end).trim()])).toEqual([
      ['clinician', 'what brings you in'],
      ['patient', 'a cough for two weeks'],
      [undefined, '[part 3 could not be transcribed]'],
      ['patient', 'and a fever'],
      [undefined, 'we will start amlodipine'],
    ]);
  });

  it('a text that names one speaker only (a dictation opening with "Patient:") is not read as labelled', () => {
    const dictation = 'Patient: 54-year-old man with chest pain.\nBlood pressure 150 over 90. We will start aspirin.';
    expect(labelledStretches(dictation)).toEqual([{ start: 0, end: dictation.length }]);
  });
});

/** An engine that gives no times: says which side it was given by the file's name. */
const untimed: Transcriber = {
  info: { engine: 'openai', languages: ['en'] },
  transcribe: async (input: TranscriptionInput) => (path.basename(input.filePath) === 'patient.wav' ? 'a cough for two weeks' : 'good morning'),
};

describe.skipIf(!haveEspeak)('a teleconsultation part', () => {
  const parts = haveEspeak ? twoVoiceParts(dir, TELECONSULTATION.slice(0, 2), { bleed: 0.25, minPartMs: 60_000 }) : [];

  it('with an engine that gives no times: each side transcribed apart, placed where its voice starts', async () => {
    const heard = await transcribePart(untimed, {
      filePath: parts[0]!.file,
      workDir: dir,
      mimeType: 'audio/webm',
      language: 'en',
      layout: 'clinician_patient',
    });
    expect(heard.text).toBe('Clinician: good morning\nPatient: a cough for two weeks');
  });

  it('a part marked two-channel that has one (the browser mixed them) is read as one voice', async () => {
    const mono = path.join(dir, 'mono.webm');
    execFileSync('ffmpeg', ['-nostdin', '-loglevel', 'error', '-y', '-i', parts[0]!.file, '-ac', '1', '-c:a', 'libopus', mono]);
    const heard = await transcribePart(untimed, { filePath: mono, workDir: dir, mimeType: 'audio/webm', language: 'en', layout: 'clinician_patient' });
    expect(heard).toEqual({ text: 'good morning', turns: null });
  });

  it('a part longer than a recorder makes is read as one voice, its decoding bounded', async () => {
    const long = path.join(dir, 'long.webm');
    execFileSync('ffmpeg', [
      '-nostdin',
      '-loglevel',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'sine=f=300:d=70',
      '-f',
      'lavfi',
      '-i',
      'sine=f=500:d=70',
      '-filter_complex',
      '[0][1]amerge=inputs=2',
      '-c:a',
      'libopus',
      '-b:a',
      '16k',
      long,
    ]);
    const heard = await transcribePart(untimed, { filePath: long, workDir: dir, mimeType: 'audio/webm', language: 'en', layout: 'clinician_patient' });
    expect(heard).toEqual({ text: 'good morning', turns: null });
  });

  it('in the room, an engine that tells voices apart labels them only when it hears two', async () => {
    const diarizing = (speakers: string[]): Transcriber => ({
      info: { engine: 'openai', languages: ['en'], diarizes: true },
      transcribe: async () => 'unused',
      transcribeTimed: async (): Promise<TimedSegment[]> =>
        speakers.map((speaker, i) => ({ startMs: i * 1000, endMs: i * 1000 + 900, text: `words ${i}`, speaker })),
    });
    const two = await transcribePart(diarizing(['SPEAKER_01', 'SPEAKER_00', 'SPEAKER_01']), {
      filePath: parts[0]!.file,
      workDir: dir,
      mimeType: 'audio/webm',
      language: 'de',
      layout: 'mono',
    });
    expect(two.text).toBe('Sprecher/in A: words 0\nSprecher/in B: words 1\nSprecher/in A: words 2');
    expect(labelledStretches(two.text)).toHaveLength(3);
    const one = await transcribePart(diarizing(['A', 'A']), { filePath: parts[0]!.file, workDir: dir, mimeType: 'audio/webm', language: 'de', layout: 'mono' });
    expect(one).toEqual({ text: 'words 0 words 1', turns: null });
  });
});

// npm test installs espeak-ng, ffmpeg and pocketsphinx and builds the clinical model; a bare machine has none.
describe.skipIf(!localEngineAvailable() || !clinicalBuilt || !haveEspeak)('the local engine on a two-voice teleconsultation', () => {
  it('labels at least 98 % of the recognised words with who said them, the patient’s voice leaking into the microphone', async () => {
    const engine = createLocalTranscriber(CLINICAL_MODEL);
    const parts = twoVoiceParts(dir, TELECONSULTATION, { bleed: 0.25 });
    const chunks: ChunkRow[] = [];
    for (const [order, part] of parts.entries()) {
      const heard = await transcribePart(engine, { filePath: part.file, workDir: dir, mimeType: 'audio/webm', language: 'en', layout: 'clinician_patient' });
      chunks.push({ order, transcript: heard.text, speakerTurns: heard.turns, transcriptionStatus: 'done' } as ChunkRow);
    }
    const transcript = assembleTranscription(chunks).text;
    const { matched, rightSpeaker, words } = speakerAttribution(TELECONSULTATION, transcript);
    expect(matched / words).toBeGreaterThan(0.6);
    expect(rightSpeaker / matched).toBeGreaterThanOrEqual(0.98);
    // Both voices are there, taking turns.
    expect(labelledStretches(transcript).filter((s) => s.role === 'patient').length).toBeGreaterThanOrEqual(4);
  }, 120_000);
});
