/**
 * Text that engines hand back (speech and text models, PDF readers, OCR) is stored in PostgreSQL, which holds no
 * NUL character: one stray NUL in a model's answer or a PDF's text layer would fail the insert and lose the work.
 * They are dropped on the way in; nothing a person reads is lost with them.
 */
import type { TextGenerator } from './text-generator.js';
import type { Transcriber } from './transcriber.js';

/** A lone surrogate (half of a character) is taken by a text column but refused by a jsonb one (speaker turns). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
export const storableText = (text: string): string => (text.includes('\u0000') ? text.replaceAll('\u0000', '') : text).replace(LONE_SURROGATE, '\uFFFD');

async function* storableStream(parts: AsyncIterable<string>): AsyncIterable<string> {
  for await (const part of parts) yield storableText(part);
}

export function withStorableOutput(generator: TextGenerator): TextGenerator {
  const converse = generator.converse?.bind(generator);
  return {
    info: generator.info,
    write: (request) => storableStream(generator.write(request)),
    ...(converse ? { converse: (conversation: Parameters<typeof converse>[0]) => storableStream(converse(conversation)) } : {}),
  };
}

export function withStorableTranscripts(transcriber: Transcriber): Transcriber {
  const timed = transcriber.transcribeTimed?.bind(transcriber);
  return {
    info: transcriber.info,
    transcribe: async (input) => storableText(await transcriber.transcribe(input)),
    ...(timed ? { transcribeTimed: async (input) => (await timed(input)).map((s) => ({ ...s, text: storableText(s.text) })) } : {}),
  };
}
