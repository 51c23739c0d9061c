/**
 * The PDF font read from contract/fonts, for the server (the PDF of a FHIR DocumentReference), tests and
 * benchmarks. Each face is read once per process.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FONT_FILES, type FontFace, type FontSource } from './pdf-fonts.js';

/** contract/fonts beside this file's source, whether it runs from contract/ (tsx) or compiled into .build/contract/. */
function fontsFolder(): string {
  for (let dir = path.dirname(fileURLToPath(import.meta.url)); ; dir = path.dirname(dir)) {
    for (const candidate of [path.join(dir, 'fonts'), path.join(dir, 'contract', 'fonts')]) {
      if (existsSync(path.join(candidate, FONT_FILES.normal))) return candidate;
    }
    if (path.dirname(dir) === dir) throw new Error('the PDF fonts (contract/fonts) were not found above the code');
  }
}

const read = new Map<FontFace, Promise<Uint8Array>>();
let folder: string | undefined;

export const nodeFonts: FontSource = (face) => {
  let bytes = read.get(face);
  if (!bytes) {
    bytes = readFile(path.join((folder ??= fontsFolder()), FONT_FILES[face])).then((b) => new Uint8Array(b.buffer, b.byteOffset, b.byteLength));
    // A failed read is not kept: the next PDF tries again.
    bytes.catch(() => read.delete(face));
    read.set(face, bytes);
  }
  return bytes;
};
