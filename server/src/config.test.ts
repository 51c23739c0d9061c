import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('settings from files (container secrets)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'cn-config-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const secretFile = (name: string, content: string) => {
    const file = path.join(dir, name);
    writeFileSync(file, content);
    return file;
  };

  it('reads a setting from the file its _FILE names, without the trailing line break', () => {
    const jwt = 'j'.repeat(40);
    const config = loadConfig({
      DATA_DIR: path.join(dir, 'data'),
      JWT_SECRET_FILE: secretFile('jwt', `${jwt}\n`),
      DATABASE_URL_FILE: secretFile('db', 'postgres://notes:pw@postgres:5432/notes\r\n'),
      ROLE: 'api',
    });
    expect(config.jwtSecret).toBe(jwt);
    expect(config.databaseUrl).toBe('postgres://notes:pw@postgres:5432/notes');
    expect(config.role).toBe('api');
  });

  it('checks a setting read from a file like one given directly', () => {
    expect(() => loadConfig({ DATA_DIR: path.join(dir, 'data'), JWT_SECRET_FILE: secretFile('jwt', 'short\n') })).toThrow(/JWT_SECRET must be at least 32/);
  });

  it('refuses a setting given both ways, and a file it cannot read', () => {
    const file = secretFile('jwt', 'j'.repeat(40));
    expect(() => loadConfig({ DATA_DIR: dir, JWT_SECRET: 'k'.repeat(40), JWT_SECRET_FILE: file })).toThrow(ConfigError);
    expect(() => loadConfig({ DATA_DIR: dir, AUDIT_KEY_FILE: path.join(dir, 'missing') })).toThrow(/AUDIT_KEY_FILE: .*missing cannot be read \(ENOENT\)/);
  });
});
