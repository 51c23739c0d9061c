import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createFileOnceSync,
  jsonKeyFileText,
  keyFileSignature,
  readJsonKeyFile,
  readKeyFileText,
  removeInterruptedWritesSync,
  replaceFileSync,
} from './key-file.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'key-file-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const schema = z.object({ format: z.literal(1), key: z.string() });
const invalid = () => new Error('not a valid test file');

describe('key files', () => {
  it('reads a missing file as none, and throws other failures to read', () => {
    expect(readKeyFileText(path.join(dir, 'absent'))).toBeUndefined();
    expect(readJsonKeyFile(path.join(dir, 'absent'), schema, invalid)).toBeUndefined();
    // A folder where the file should be is not "no file": it is thrown, not taken for a first start.
    expect(() => readKeyFileText(dir)).toThrow();
  });

  it("checks a JSON file against its schema, failing with the caller's error", () => {
    const file = path.join(dir, 'state.json');
    writeFileSync(file, '{ not json');
    expect(() => readJsonKeyFile(file, schema, invalid)).toThrow('not a valid test file');
    writeFileSync(file, JSON.stringify({ format: 2, key: 'k' }));
    expect(() => readJsonKeyFile(file, schema, invalid)).toThrow('not a valid test file');
    writeFileSync(file, jsonKeyFileText({ format: 1, key: 'k' }));
    expect(readJsonKeyFile(file, schema, invalid)).toEqual({ format: 1, key: 'k' });
  });

  it('creates a file once: whoever comes second keeps the first one, and no temporary file stays', () => {
    const file = path.join(dir, 'keys');
    expect(createFileOnceSync(file, 'first\n')).toBe(true);
    expect(createFileOnceSync(file, 'second\n')).toBe(false);
    expect(readFileSync(file, 'utf8')).toBe('first\n');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['keys']);
  });

  it('replaces a file whole, and its signature tells that it changed', () => {
    const file = path.join(dir, 'keys');
    expect(keyFileSignature(file)).toBe('none');
    createFileOnceSync(file, 'one\n');
    const before = keyFileSignature(file);
    replaceFileSync(file, 'two\n');
    expect(readFileSync(file, 'utf8')).toBe('two\n');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(keyFileSignature(file)).not.toBe(before);
    expect(readdirSync(dir)).toEqual(['keys']);
  });

  it('removes the temporary files a dead process left, not those a live one may be writing', () => {
    const file = path.join(dir, 'keys');
    const old = `${file}.1111.tmp`;
    const fresh = `${file}.2222.tmp`;
    const other = path.join(dir, 'other.3333.tmp');
    for (const f of [old, fresh, other]) writeFileSync(f, 'secret');
    const longAgo = new Date(Date.now() - 5 * 60_000);
    utimesSync(old, longAgo, longAgo);
    utimesSync(other, longAgo, longAgo);
    removeInterruptedWritesSync(file);
    expect(readdirSync(dir).sort()).toEqual(['keys.2222.tmp', 'other.3333.tmp']);
  });
});
