/**
 * The Transcriber port: audio file in, text out. Which engine runs is chosen once from the settings
 * (ai/engines.ts); nothing else in the server knows which one it is.
 */
export type TranscriptionInput = {
  /** A standalone audio file (webm/opus, ogg, wav, mp4…) readable by ffmpeg. */
  filePath: string;
  /**
   * A private folder for the engine's own files (audio converted for it), in DATA_DIR's scratch space and removed
   * after the call: recorded audio is never written to the system's temporary folder.
   */
  workDir: string;
  mimeType: string;
  /** The clinician's language, a hint for engines that handle several. */
  language: string;
  /** Words that help recognition (drug names, the clinician's vocabulary). */
  prompt?: string;
  /**
   * Told the audio's length by an engine that decodes the whole file anyway (the local one), so that the part is
   * not decoded a second time only to be measured.
   */
  onDecoded?: (durationMs: number) => void;
};

export type TranscriberInfo = {
  engine: 'local' | 'openai' | 'none';
  /**
   * Which engine and model, as each part's transcript records it ('pocketsphinx:clinical', 'openai:whisper-1',
   * 'whisper.cpp:ggml-base.bin'); the engine kind where not given.
   */
  id?: string;
  /** Its transcripts are demonstration quality: every value is to be checked against the recording. */
  demoQuality?: boolean;
  /** Languages it transcribes; empty when none. */
  languages: string[];
  /** A plain note for the UI, e.g. the local engine's modest accuracy. */
  note?: string;
  /** Tells voices apart within one recording (its timed segments carry speakers). */
  diarizes?: boolean;
  /** Its timed segments are single words. */
  wordTimes?: boolean;
};

/**
 * A stretch of the transcription with where it lies in the audio (milliseconds; -1 when the engine gave no
 * times); `speaker` when the engine told voices apart.
 */
export type TimedSegment = {
  startMs: number;
  endMs: number;
  text: string;
  speaker?: string;
  /**
   * How sure the engine is of these words, 0 to 1 (a posterior probability, or a mean token probability), when it
   * says: below ai/word-confidence.ts's thresholds the words are marked uncertain in the transcript.
   */
  confidence?: number;
};

export interface Transcriber {
  readonly info: TranscriberInfo;
  transcribe(input: TranscriptionInput): Promise<string>;
  /**
   * The same words with their times (and speakers, where the engine gives them), for a teleconsultation's two
   * channels to be put back in the order they were said. Engines that give no times leave it out.
   */
  transcribeTimed?(input: TranscriptionInput): Promise<TimedSegment[]>;
}

export class TranscriptionUnavailableError extends Error {}
