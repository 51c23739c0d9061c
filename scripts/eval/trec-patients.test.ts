import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseQueries, trecPatients } from './trec-patients.js';

describe('the TREC CT patient loader', () => {
  it('reads one description per line and skips what is not one', () => {
    const patients = parseQueries('{"_id": "trec-20211", "text": "45-year-old man"}\n\nnot json\n{"_id": 3}\n{"_id": "trec-20212", "text": "48 M"}\n');
    expect([...patients]).toEqual([
      ['trec-20211', '45-year-old man'],
      ['trec-20212', '48 M'],
    ]);
  });

  it('says when the cache does not hold the year, and refuses a link to the held-out cohort', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'trec-'));
    expect(trecPatients(root, '2021')).toBeUndefined();
    mkdirSync(path.join(root, 'sigir'));
    writeFileSync(path.join(root, 'sigir', 'queries.jsonl'), '{"_id": "sigir-1", "text": "held out"}');
    mkdirSync(path.join(root, 'trec-ct', 'trec_2022'), { recursive: true });
    symlinkSync(path.join(root, 'sigir', 'queries.jsonl'), path.join(root, 'trec-ct', 'trec_2022', 'queries.jsonl'));
    expect(() => trecPatients(root, '2022')).toThrow(/held out/);
  });
});
