import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compareVersions, findKnownAdvisories } from './lib/advisories.mjs';

const known = JSON.parse(readFileSync(new URL('../security/known-advisories.json', import.meta.url), 'utf8'));
const lock = (packages: Record<string, { version: string; dev?: boolean; name?: string }>) => ({ packages: { '': { name: 'app' }, ...packages } });

describe('the known-advisories check', () => {
  it('orders versions as releases do', () => {
    expect(compareVersions('6.2.108', '6.2.99')).toBe(1);
    expect(compareVersions('0.18.20', '0.25.0')).toBe(-1);
    expect(compareVersions('6.2.108-beta.1', '6.2.108')).toBe(-1);
    expect(compareVersions('1.0', '1.0.0')).toBe(0);
  });

  it('names what the issue found — pdfjs-dist 5.6, esbuild 0.18 under drizzle-kit, dicer under s3rver — and passes their fixes', () => {
    const before = findKnownAdvisories(
      lock({
        'node_modules/pdfjs-dist': { version: '5.6.205' },
        'node_modules/@esbuild-kit/core-utils/node_modules/esbuild': { version: '0.18.20', dev: true },
        'node_modules/dicer': { version: '0.3.0', dev: true },
      }),
      known,
    );
    expect(before.map((f) => [f.name, f.advisory.id, f.ships])).toEqual([
      ['pdfjs-dist', 'CVE-2026-16633', true],
      ['esbuild', 'GHSA-67mh-4wv8-2f99', false],
      ['dicer', 'GHSA-wm7h-9275-46v2', false],
    ]);
    const after = lock({
      'node_modules/pdfjs-dist': { version: '6.5.438' },
      'node_modules/@esbuild-kit/core-utils/node_modules/esbuild': { version: '0.25.12', dev: true },
      // An alias is judged by the package it installs.
      'node_modules/s3rver/node_modules/busboy': { version: '3.2.6', dev: true, name: '@fastify/busboy' },
    });
    expect(findKnownAdvisories(after, known)).toEqual([]);
  });

  it('finds nothing in this project’s own lock file', () => {
    const own = JSON.parse(readFileSync(new URL('../package-lock.json', import.meta.url), 'utf8'));
    expect(findKnownAdvisories(own, known).map((f) => `${f.name}@${f.version}`)).toEqual([]);
  });
});
