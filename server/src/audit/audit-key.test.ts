import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.js';
import { AUDIT_KEY_FILE, AuditKeyError, auditKeyOf, openAuditKeys, readAuditKeysFromFile } from './audit-key.js';

const dirs: string[] = [];
const dataDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'cn-audit-key-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('the audit key', () => {
  it('is generated once in DATA_DIR/audit-key, readable by the server only, and the same at every start', () => {
    const dir = dataDir();
    const keys = openAuditKeys({ dataDir: dir });
    const file = path.join(dir, AUDIT_KEY_FILE);
    expect(keys.source).toBe('file');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const secret = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
    expect(secret).toHaveLength(32);
    expect(keys.current().id).toBe(auditKeyOf(secret).id);
    expect(keys.current().id).toMatch(/^[0-9a-f]{16}$/);
    // The chain key is derived, never the secret itself.
    expect(keys.current().chainKey.equals(secret)).toBe(false);
    expect(openAuditKeys({ dataDir: dir }).current().id).toBe(keys.current().id);
    expect(openAuditKeys({ dataDir: dataDir() }).current().id).not.toBe(keys.current().id);
  });

  it('comes from AUDIT_KEY when set (at least 32 bytes, hex or base64), and then no file is made', () => {
    const dir = dataDir();
    const secret = randomBytes(32);
    const config = loadConfig({ DATA_DIR: dir, AUDIT_KEY: secret.toString('base64') });
    expect(config.auditKey?.equals(secret)).toBe(true);
    expect(loadConfig({ DATA_DIR: dir, AUDIT_KEY: randomBytes(48).toString('hex') }).auditKey).toHaveLength(48);
    const keys = openAuditKeys(config);
    expect(keys.source).toBe('setting');
    expect(keys.current().id).toBe(auditKeyOf(secret).id);
    expect(existsSync(path.join(dir, AUDIT_KEY_FILE))).toBe(false);
    for (const weak of ['too-short', randomBytes(31).toString('base64'), 'x'.repeat(40)]) {
      expect(() => loadConfig({ DATA_DIR: dir, AUDIT_KEY: weak })).toThrow(ConfigError);
      expect(() => loadConfig({ DATA_DIR: dir, AUDIT_KEY: weak })).toThrow(/AUDIT_KEY must be at least 32 random bytes/);
    }
  });

  it("takes another server's keys for verifying only; a running server sees them without a restart", () => {
    const dir = dataDir();
    const running = openAuditKeys({ dataDir: dir });
    const own = running.current().id;
    const otherDir = dataDir();
    const other = openAuditKeys({ dataDir: otherDir }).current();
    const importer = openAuditKeys({ dataDir: dir });
    expect(importer.importKeys(readAuditKeysFromFile(path.join(otherDir, AUDIT_KEY_FILE)))).toEqual([other.id]);
    expect(importer.importKeys([other])).toEqual([]);
    expect(statSync(path.join(dir, AUDIT_KEY_FILE)).mode & 0o777).toBe(0o600);
    expect(running.find(other.id)?.chainKey.equals(other.chainKey)).toBe(true);
    // New events are still sealed with this server's own key.
    expect(running.current().id).toBe(own);
    expect(running.ids()).toEqual([own, other.id]);
  });

  it('a running server refuses a key file that vanished, and any process one that is damaged', () => {
    const dir = dataDir();
    const keys = openAuditKeys({ dataDir: dir });
    const file = path.join(dir, AUDIT_KEY_FILE);
    rmSync(file);
    expect(() => keys.current()).toThrow(AuditKeyError);
    expect(() => keys.current()).toThrow(/is gone: restore it from your key backup/);
    writeFileSync(file, 'not a key\n', { mode: 0o600 });
    expect(() => openAuditKeys({ dataDir: dir })).toThrow(/holds a line that is not an audit key/);
  });
});
