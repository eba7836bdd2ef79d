import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
}

/**
 * Without SMTP_URL every mail is written to DATA_DIR/outbox/ as JSON (text and HTML parts), so a newcomer can
 * verify an account with no mail server. The log names the file but never holds the links or the text: they
 * carry verification and reset tokens, and logs travel further and last longer than the outbox.
 */
export function outboxMailer(dir: string, from: string, log: Pick<FastifyBaseLogger, 'info'>): Mailer {
  let seq = 0;
  return {
    async send(mail) {
      // Written beside the outbox, then renamed in: whoever reads the outbox (a person, the browser journeys)
      // sees each mail whole or not at all, never a file still being written.
      const partial = `${dir}.partial`;
      await mkdir(dir, { recursive: true });
      await mkdir(partial, { recursive: true });
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const name = `${stamp}-${String(++seq).padStart(4, '0')}.json`;
      const file = join(dir, name);
      await writeFile(
        join(partial, name),
        JSON.stringify({ from, ...mail, date: new Date().toISOString() }, null, 2),
      );
      await rename(join(partial, name), file);
      log.info({ to: mail.to, file }, 'mail written to outbox');
    },
  };
}

export function smtpMailer(url: string, from: string): Mailer {
  const transport = nodemailer.createTransport(url);
  return {
    async send(mail) {
      await transport.sendMail({ from, ...mail });
    },
  };
}

/** Keeps mails in memory: tests read them back. */
export function memoryMailer(): Mailer & { sent: Mail[]; last(to?: string): Mail | undefined } {
  const sent: Mail[] = [];
  return {
    sent,
    async send(mail) {
      sent.push(mail);
    },
    last: (to) => [...sent].reverse().find((m) => !to || m.to === to),
  };
}

/** HTML-escapes text placed into mail bodies. */
export const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
