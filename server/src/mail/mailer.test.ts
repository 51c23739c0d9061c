import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { Writable } from 'node:stream';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { createMailer } from './mailer.js';
import { mailTemplates } from './templates.js';

describe('outbox mailer', () => {
  it('writes each mail as an .eml file in DATA_DIR/outbox, and logs the file, not the link', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'cn-mail-'));
    const lines: string[] = [];
    const log = pino({ level: 'info' }, new Writable({ write: (c, _e, cb) => (lines.push(String(c)), cb()) }));
    try {
      const mailer = createMailer({ from: 'Notes <no-reply@clinic.test>', dataDir, log });
      const link = 'https://notes.clinic.test/reset_password/4f9c2e7a1b3d5f6e';
      await mailer.send({ to: 'ana@clinic.test', link, ...mailTemplates.resetPassword.es('Ana', link, 60) });
      const files = readdirSync(path.join(dataDir, 'outbox'));
      expect(files).toHaveLength(1);
      const eml = readFileSync(path.join(dataDir, 'outbox', files[0]!), 'utf8');
      expect(eml).toContain('To: ana@clinic.test');
      expect(eml).toMatch(/^Subject: =\?UTF-8\?/m);
      // Quoted-printable folds long lines with a trailing '='.
      expect(eml.replace(/=\r?\n/g, '')).toContain(link);
      expect(statSync(path.join(dataDir, 'outbox', files[0]!)).mode & 0o077).toBe(0);
      expect(lines.join('')).toContain(files[0]!);
      expect(lines.join('')).not.toContain('4f9c2e7a1b3d');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('has every mail in every language', () => {
    for (const lang of ['pt', 'en', 'de', 'es'] as const) {
      expect(mailTemplates.confirmEmail[lang]('L').text).toContain('L');
      expect(mailTemplates.resetPassword[lang]('A', 'L', 60).text).toContain('60');
      expect(mailTemplates.invitation[lang]('Org', 'L', 7).subject).toContain('Org');
      const exists = mailTemplates.signupAccountExists[lang]('A', 'SIGN-IN', 'RESET').text;
      expect(exists).toContain('SIGN-IN');
      expect(exists).toContain('RESET');
      expect(mailTemplates.signupFinish[lang]('L', 60).text).toContain('60');
      expect(mailTemplates.signupFinish[lang]('FINISH', 60).text).toContain('FINISH');
    }
  });
});
