/**
 * The public patient descriptions of the TREC Clinical Trials 2021 and 2022 topics, as TrialGPT's repository
 * publishes them (github.com/ncbi-nlp/TrialGPT, dataset/trec_2021 and dataset/trec_2022, queries.jsonl), read
 * from EVAL_DATA_DIR/trec-ct. Only those two files are opened; TrialGPT's SIGIR cohort is held out to measure the
 * screener independently, so any path naming it is refused before it is opened, links included.
 */
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';

export type TrecYear = '2021' | '2022';
export const TREC_FILES: Record<TrecYear, string> = { '2021': 'trec-ct/trec_2021/queries.jsonl', '2022': 'trec-ct/trec_2022/queries.jsonl' };

export const HOW_TO_GET_TREC = `The TREC CT patient descriptions are read from EVAL_DATA_DIR/trec-ct: copy dataset/trec_2021/queries.jsonl and
dataset/trec_2022/queries.jsonl of github.com/ncbi-nlp/TrialGPT to EVAL_DATA_DIR/trec-ct/trec_2021/ and trec_2022/.
Its SIGIR cohort is held out: never copy it there.`;

function refuseHeldOut(file: string): void {
  if (/sigir/i.test(file)) throw new Error(`Refusing to read ${file}: the SIGIR cohort is held out`);
}

/** Topic id ('trec-20212') → patient description, or undefined when the file is not in the cache. */
export function trecPatients(root: string, year: TrecYear): Map<string, string> | undefined {
  const file = path.resolve(root, TREC_FILES[year]);
  refuseHeldOut(file);
  if (!existsSync(file)) return undefined;
  refuseHeldOut(realpathSync(file));
  return parseQueries(readFileSync(file, 'utf8'));
}

/** One JSON object per line: `{"_id": "trec-20211", "text": "…"}`; blank and malformed lines are skipped. */
export function parseQueries(jsonl: string): Map<string, string> {
  const patients = new Map<string, string>();
  for (const line of jsonl.split('\n')) {
    if (!line.trim()) continue;
    try {
      const row = JSON.parse(line) as { _id?: unknown; text?: unknown };
      if (typeof row._id === 'string' && typeof row.text === 'string') patients.set(row._id, row.text);
    } catch {
      // A broken line is one patient fewer, not a failed evaluation.
    }
  }
  return patients;
}
