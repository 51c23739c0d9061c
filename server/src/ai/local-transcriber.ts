/**
 * The local engine, the embedded default: ffmpeg turns any audio into 16 kHz mono PCM, streamed into Debian's
 * pocketsphinx_continuous. English only, modest accuracy (about 30 % word errors on read speech with the
 * generic model), entirely on this machine.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createDecoderPool, decoderProcessAvailable } from './speech-process.js';
import type { TimedSegment, Transcriber, TranscriptionInput } from './transcriber.js';
import { markedText } from './word-confidence.js';

const MODEL_DIR = '/usr/share/pocketsphinx/model/en-us';

export function localEngineAvailable(): boolean {
  const has = (cmd: string) => spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
  return has('ffmpeg') && has('pocketsphinx_continuous') && existsSync(`${MODEL_DIR}/en-us`);
}

export type LocalTranscriberOptions = {
  /** A language model and dictionary to use instead of the generic ones (e.g. the clinical model). */
  languageModel?: string;
  /** The model's name, as transcripts record it ('clinical'). */
  modelName?: string;
  dictionary?: string;
  timeoutMs?: number;
  /**
   * `long-lived` (the default where Debian's python3-pocketsphinx is installed): processes that keep the models
   * loaded and are fed part after part (ai/speech-process.ts). `per-part`: a pocketsphinx_continuous for each part.
   */
  processes?: 'long-lived' | 'per-part';
};

export function createLocalTranscriber(opts: LocalTranscriberOptions = {}): Transcriber {
  const modelArgs = ['-logfn', '/dev/null', '-hmm', `${MODEL_DIR}/en-us`];
  modelArgs.push('-lm', opts.languageModel ?? `${MODEL_DIR}/en-us.lm.bin`);
  modelArgs.push('-dict', opts.dictionary ?? `${MODEL_DIR}/cmudict-en-us.dict`);
  const timeoutMs = opts.timeoutMs ?? 120_000;
  const longLived = (opts.processes ?? 'long-lived') === 'long-lived' && decoderProcessAvailable();
  const pool = longLived ? createDecoderPool(modelArgs) : undefined;
  const sphinxArgs = ['-infile', '/dev/stdin', ...modelArgs];
  const run = async (input: TranscriptionInput, timed: boolean): Promise<string> => {
    if (!pool) return runPipeline(input, timed ? [...sphinxArgs, '-time', 'yes'] : sphinxArgs, timeoutMs);
    const { out, decodedMs } = await pool.decode(input.filePath, timed, timeoutMs);
    input.onDecoded?.(decodedMs);
    return out;
  };
  return {
    info: {
      engine: 'local',
      id: `pocketsphinx:${opts.modelName ?? (opts.languageModel ? 'custom' : 'generic')}`,
      demoQuality: true,
      wordTimes: true,
      languages: ['en'],
      note: opts.languageModel
        ? 'Local speech engine with a clinical language model: English only, modest accuracy.'
        : 'Local speech engine: English only, modest accuracy.',
    },
    // Decoded with word times too: each word's confidence decides whether it is written as uncertain.
    transcribe: async (input: TranscriptionInput) => markedUtterances(await run(input, true)),
    transcribeTimed: async (input: TranscriptionInput) => timedWords(await run(input, true)),
  };
}

/**
 * One line per utterance (pocketsphinx separates them at pauses), its uncertain words marked: the lines are kept,
 * since this engine writes no punctuation and the notes are cut into sentences where the speaker paused.
 */
export function markedUtterances(out: string): string {
  const lines: TimedSegment[][] = [];
  for (const raw of out.split('\n')) {
    const line = raw.trim();
    if (!line) continue;
    // The utterance's text comes first, then its words with their times.
    if (!WORD_TIME.test(line)) lines.push([]);
    else lines.at(-1)?.push(...timedWords(line));
  }
  return lines.map(markedText).filter(Boolean).join('\n');
}

/** `word start end confidence`, the lines `-time yes` adds after each utterance's text (times in seconds). */
const WORD_TIME = /^(\S+) (\d+(?:\.\d+)?) (\d+(?:\.\d+)?) (-?\d+(?:\.\d+)?(?:e-?\d+)?)$/;

/**
 * Each spoken word with its times and the decoder's posterior probability of it, from `-time yes` output
 * (alternative pronunciations' marks taken off).
 */
export function timedWords(out: string): TimedSegment[] {
  const words: TimedSegment[] = [];
  for (const raw of out.split('\n')) {
    const word = WORD_TIME.exec(raw.trim());
    // Silence, sentence marks and noises bound the utterances but are not speech.
    if (!word || /^(?:<s>|<\/s>|<sil>|\[.*\]|\+\+.*\+\+)$/.test(word[1]!)) continue;
    const confidence = Math.min(1, Math.max(0, Number(word[4])));
    words.push({ startMs: Math.round(Number(word[2]) * 1000), endMs: Math.round(Number(word[3]) * 1000), text: word[1]!.replace(/\(\d+\)$/, ''), confidence });
  }
  return words;
}

/**
 * pocketsphinx reads `-infile /dev/stdin`, which must be a real pipe: Node's child stdio are socket pairs that
 * /dev/stdin cannot be opened on, so the two programs are joined by bash. The file path and arguments travel
 * as positional parameters, never inside the script text.
 */
const PIPELINE =
  'set -o pipefail; f="$1"; shift; ffmpeg -nostdin -loglevel error -progress pipe:2 -i "$f" -ar 16000 -ac 1 -f s16le - | pocketsphinx_continuous "$@"';

/** ffmpeg's `-progress` lines (key=value on stderr): the last `out_time_us` is the length of all it decoded. */
const PROGRESS_LINE = /^[a-z_0-9]+=.*$/gm;
const decodedMs = (stderr: string): number | undefined => {
  const times = [...stderr.matchAll(/^out_time_us=(\d+)$/gm)];
  return times.length ? Math.round(Number(times.at(-1)![1]) / 1000) : undefined;
};

function runPipeline(input: TranscriptionInput, sphinxArgs: string[], timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', PIPELINE, 'transcribe', input.filePath, ...sphinxArgs], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error('local transcription timed out'));
    }, timeoutMs);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code !== 0) return reject(new Error(`ffmpeg or pocketsphinx failed (${code}): ${err.replace(PROGRESS_LINE, '').trim().slice(0, 300)}`));
      const ms = decodedMs(err);
      if (ms !== undefined) input.onDecoded?.(ms);
      resolve(out);
    });
  });
}
