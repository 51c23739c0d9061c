/**
 * Reading scanned records: each page rendered by poppler (pdftoppm) and read by tesseract, in the uploader's
 * language with English beside it (drug and test names). Slow (seconds a page), so it runs as a background job,
 * never inside the upload. Without the two programs, scanned files are kept and said to be unreadable.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Language } from '../../../../contract/constants.js';

const run = promisify(execFile);
const PDFTOPPM = '/usr/bin/pdftoppm';
const TESSERACT = '/usr/bin/tesseract';
/** A scanned archive beyond this is read in part; what was read says so by its length. */
export const MAX_OCR_PAGES = 50;
const PAGE_TIMEOUT_MS = 90_000;
const TESSERACT_LANG: Record<Language, string> = { pt: 'por', en: 'eng', de: 'deu', es: 'spa' };

export const ocrAvailable = () => existsSync(PDFTOPPM) && existsSync(TESSERACT);

/** Fewer letters than this a page means the pages are pictures: the text layer is missing or only a stamp. */
export function looksScanned(text: string, pages: number): boolean {
  return (text.match(/\p{L}/gu)?.length ?? 0) < 20 * Math.max(1, pages);
}

let installed: Promise<Set<string>> | undefined;
/** The language data tesseract has, asked once a process (it changes only when packages are installed). */
function installedLanguages(): Promise<Set<string>> {
  installed ??= run(TESSERACT, ['--list-langs'], { timeout: 10_000 }).then(
    ({ stdout }) =>
      new Set(
        stdout
          .split('\n')
          .slice(1)
          .map((l) => l.trim())
          .filter(Boolean),
      ),
    (err: unknown) => {
      installed = undefined;
      throw err;
    },
  );
  return installed;
}

/**
 * The text of a scanned PDF. The page images are patient records too: they are written into `workDir`, a private
 * folder of DATA_DIR's scratch space (BlobStore.withLocalFile), never the system's temporary folder, and the
 * programs are told to keep any temporary file of their own there as well.
 */
export async function ocrPdf(file: string, workDir: string, language: Language, signal?: AbortSignal): Promise<string> {
  const dir = await mkdtemp(path.join(workDir, 'ocr-'));
  const env = { ...process.env, TMPDIR: dir };
  try {
    // 300 dpi, greyscale: what tesseract reads best; one page at a time keeps memory flat on long records.
    await run(PDFTOPPM, ['-r', '300', '-gray', '-png', '-l', String(MAX_OCR_PAGES), file, path.join(dir, 'page')], {
      timeout: PAGE_TIMEOUT_MS * 4,
      signal,
      env,
    });
    const pages = (await readdir(dir)).filter((f) => f.startsWith('page') && f.endsWith('.png')).sort();
    const available = await installedLanguages();
    const langs = [...new Set([TESSERACT_LANG[language], 'eng'])].filter((l) => available.has(l));
    const texts: string[] = [];
    for (const page of pages) {
      const { stdout } = await run(TESSERACT, [path.join(dir, page), 'stdout', '-l', langs.join('+') || 'eng', '--psm', '3'], {
        timeout: PAGE_TIMEOUT_MS,
        signal,
        maxBuffer: 16 * 1024 * 1024,
        // One thread: tesseract's OpenMP threads spin against each other on a small server (5 s a page → 1 s, bench/README.md).
        env: { ...env, OMP_THREAD_LIMIT: '1' },
      });
      texts.push(stdout.trim());
    }
    return texts
      .join('\n\n')
      .replace(/[ \t]+/g, ' ')
      .replace(/\n{3,}/g, '\n\n')
      .trim();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
