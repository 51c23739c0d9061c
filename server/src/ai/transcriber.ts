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
};

export type TranscriberInfo = {
  engine: 'local' | 'openai' | 'none';
  /** Languages it transcribes; empty when none. */
  languages: string[];
  /** A plain note for the UI, e.g. the local engine's modest accuracy. */
  note?: string;
};

export interface Transcriber {
  readonly info: TranscriberInfo;
  transcribe(input: TranscriptionInput): Promise<string>;
}

export class TranscriptionUnavailableError extends Error {}
