/**
 * The PDF font read from the installed dejavu-fonts-ttf package, for the server (the PDF of a FHIR
 * DocumentReference), tests and benchmarks. Each face is read once per process.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { FONT_FILES, type FontFace, type FontSource } from './pdf-fonts.js';

const read = new Map<FontFace, Promise<Uint8Array>>();
const resolve = createRequire(import.meta.url).resolve;

export const nodeFonts: FontSource = (face) => {
  let bytes = read.get(face);
  if (!bytes) {
    bytes = readFile(resolve(`dejavu-fonts-ttf/ttf/${FONT_FILES[face]}`)).then((b) => new Uint8Array(b.buffer, b.byteOffset, b.byteLength));
    // A failed read is not kept: the next PDF tries again.
    bytes.catch(() => read.delete(face));
    read.set(face, bytes);
  }
  return bytes;
};
