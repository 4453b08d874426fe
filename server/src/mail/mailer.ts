import { randomBytes } from 'node:crypto';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { createTransport, Transporter } from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';

/** One e-mail. `links` are the addresses in it, logged when mail goes to the file outbox. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  links: string[];
}

/** Sends e-mail. */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/**
 * SMTP when `smtpUrl` is set; otherwise each message becomes one `.eml` file in `outboxDir`
 * and its subject and links are logged (the outbox is the local mailbox).
 */
export function createMailer(options: {
  smtpUrl: string | null;
  from: string;
  outboxDir: string;
  log: FastifyBaseLogger;
}): Mailer {
  // nodemailer is loaded with the first message, not at every start of the server.
  let transporter: Promise<Transporter> | undefined;
  const transportOf = (settings: Parameters<typeof createTransport>[0]) =>
    (transporter ??= import('nodemailer').then((module) => module.default.createTransport(settings)));
  if (options.smtpUrl) {
    const smtpUrl = options.smtpUrl;
    return {
      async send(message) {
        const transport = await transportOf(smtpUrl);
        await transport.sendMail({
          from: options.from,
          to: message.to,
          subject: message.subject,
          text: message.text,
          html: message.html,
        });
        options.log.info({ subject: message.subject }, 'e-mail sent');
      },
    };
  }
  return {
    async send(message) {
      const transport = await transportOf({ streamTransport: true, buffer: true, newline: 'unix' });
      const info = await transport.sendMail({
        from: options.from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
      });
      // The outbox is a local mailbox: readable by this account only. Its links (one-time codes)
      // are never logged; whoever runs the server reads the message in the folder.
      await mkdir(options.outboxDir, { recursive: true, mode: 0o700 });
      await chmod(options.outboxDir, 0o700);
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.eml`;
      await writeFile(path.join(options.outboxDir, name), info.message as Buffer, { mode: 0o600 });
      options.log.info({ outbox: name, subject: message.subject }, 'e-mail written to the outbox');
    },
  };
}
