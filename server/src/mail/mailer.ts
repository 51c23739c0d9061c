/**
 * Sends mail through SMTP when SMTP_URL is set; otherwise writes each message as an .eml file (0600) in
 * DATA_DIR/outbox, which is how a clinic without a mail server (or a developer) gets it. The log names the file,
 * never the link inside it: mailed links carry sign-up, reset and confirmation tokens.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';

export type Mail = { to: string; subject: string; text: string; link?: string };
export type Mailer = { send(mail: Mail): Promise<void> };

export function createMailer(opts: { smtpUrl?: string; from: string; dataDir: string; log: FastifyBaseLogger }): Mailer {
  if (opts.smtpUrl) {
    const transport = nodemailer.createTransport(opts.smtpUrl);
    return {
      async send(mail) {
        await transport.sendMail({ from: opts.from, to: mail.to, subject: mail.subject, text: mail.text });
        opts.log.info({ subject: mail.subject }, 'mail sent');
      },
    };
  }
  const outbox = path.join(opts.dataDir, 'outbox');
  mkdirSync(outbox, { recursive: true });
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(mail) {
      const info = await transport.sendMail({ from: opts.from, to: mail.to, subject: mail.subject, text: mail.text });
      const file = path.join(outbox, `${new Date().toISOString().replace(/[:.]/g, '-')}-${info.messageId.replace(/[^a-zA-Z0-9]/g, '').slice(0, 16)}.eml`);
      writeFileSync(file, info.message as Buffer, { mode: 0o600 });
      opts.log.info({ file: path.basename(file), subject: mail.subject }, `mail written to ${outbox}`);
    },
  };
}
