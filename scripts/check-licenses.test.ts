import { describe, expect, it } from 'vitest';
import { licenceAllowed, refusedLicences } from './lib/licences.mjs';

describe('licences the product may ship', () => {
  it('reads SPDX expressions: OR needs one allowed side, AND needs all', () => {
    expect(licenceAllowed('MIT')).toBe(true);
    expect(licenceAllowed('(MPL-2.0 OR Apache-2.0)')).toBe(true);
    expect(licenceAllowed('(MIT AND Zlib)')).toBe(true);
    expect(licenceAllowed('MIT AND GPL-3.0-only')).toBe(false);
    expect(licenceAllowed('GPL-2.0 OR MIT')).toBe(true);
    expect(licenceAllowed('AGPL-3.0')).toBe(false);
    expect(licenceAllowed('MIT OR SEE LICENSE IN FEEL-FREE.md')).toBe(true);
    expect(licenceAllowed('SEE LICENSE IN LICENSE.txt')).toBe(false);
    expect(licenceAllowed('UNLICENSED')).toBe(false);
    expect(licenceAllowed(undefined)).toBe(false);
    expect(licenceAllowed('(MIT')).toBe(false);
  });

  it('looks only at what ships: a dev tool may be under another licence', () => {
    const lock = {
      packages: {
        '': { license: 'Apache-2.0' },
        'node_modules/a': { version: '1.0.0', license: 'MIT' },
        'node_modules/b': { version: '2.0.0', license: 'GPL-3.0' },
        'node_modules/c': { version: '3.0.0', license: 'GPL-3.0', dev: true },
        'node_modules/d': { version: '4.0.0' },
      },
    };
    expect(refusedLicences(lock).map((r) => r.where)).toEqual(['node_modules/b', 'node_modules/d']);
  });
});
