import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { createMailer } from './mailer.js';
import { mailTemplates } from './templates.js';

describe('outbox mailer', () => {
  it('writes each mail as an .eml file in DATA_DIR/outbox', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'cn-mail-'));
    try {
      const mailer = createMailer({ from: 'Notes <no-reply@clinic.test>', dataDir, log: pino({ level: 'silent' }) });
      const link = 'https://notes.clinic.test/reset_password/abc';
      await mailer.send({ to: 'ana@clinic.test', link, ...mailTemplates.resetPassword.es('Ana', link, 60) });
      const files = readdirSync(path.join(dataDir, 'outbox'));
      expect(files).toHaveLength(1);
      const eml = readFileSync(path.join(dataDir, 'outbox', files[0]!), 'utf8');
      expect(eml).toContain('To: ana@clinic.test');
      expect(eml).toMatch(/^Subject: =\?UTF-8\?/m);
      expect(eml).toContain(link);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('has every mail in every language', () => {
    for (const lang of ['pt', 'en', 'de', 'es'] as const) {
      expect(mailTemplates.confirmEmail[lang]('A', 'L').text).toContain('L');
      expect(mailTemplates.resetPassword[lang]('A', 'L', 60).text).toContain('60');
      expect(mailTemplates.invitation[lang]('Org', 'L', 7).subject).toContain('Org');
    }
  });
});
