import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer } from './mailer.ts';
import { resetPasswordMessage, welcomeMessage } from './messages.ts';

interface LogEntry {
  level: 'info' | 'warn' | 'error';
  data: Record<string, unknown>;
  msg: string;
}

/** A logger that keeps what it is given. */
function captureLog(): { log: FastifyBaseLogger; entries: LogEntry[] } {
  const entries: LogEntry[] = [];
  const at = (level: LogEntry['level']) => (data: Record<string, unknown>, msg: string) =>
    entries.push({ level, data, msg });
  const log = {
    level: 'info',
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    fatal: at('error'),
    debug: () => undefined,
    trace: () => undefined,
    silent: () => undefined,
    child: () => log,
  };
  return { log: log as unknown as FastifyBaseLogger, entries };
}

const tmp = mkdtempSync(path.join(os.tmpdir(), 'pf-mail-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const FROM = 'PracticeFolio <no-reply@portal.test>';
const LINK = 'http://portal.test/reset-password/Secret-Code_123';

describe('createMailer without SMTP_URL (file outbox)', () => {
  it('writes one .eml file per message into the outbox (this account only) and logs its subject, never its links', async () => {
    const outboxDir = path.join(tmp, 'outbox-1', 'nested');
    const { log, entries } = captureLog();
    const mailer = createMailer({ smtpUrl: null, from: FROM, outboxDir, log });
    await mailer.send(resetPasswordMessage({ email: 'ada@example.org', username: 'Ada' }, LINK));
    await mailer.send(
      welcomeMessage(
        { email: 'bob@example.org', username: 'Bob <b>' },
        'http://portal.test/reset-password/Welcome-Code',
        7,
      ),
    );

    const files = readdirSync(outboxDir).sort();
    expect(files).toHaveLength(2);
    for (const file of files) expect(file).toMatch(/^\d{4}-\d{2}-\d{2}T[\d-]+Z-[0-9a-f]{8}\.eml$/);
    const emails = files.map((f) => readFileSync(path.join(outboxDir, f), 'utf8'));
    const reset = emails.find((e) => e.includes('To: ada@example.org'))!;
    expect(reset).toMatch(/^From: PracticeFolio <no-reply@portal\.test>$/m);
    expect(reset).toMatch(/^Subject: Reset your PracticeFolio password$/m);
    expect(reset).toContain('multipart/alternative');
    expect(reset).toContain(LINK);
    const welcome = emails.find((e) => e.includes('To: bob@example.org'))!;
    expect(welcome).toMatch(/^Subject: Your PracticeFolio account$/m);
    expect(welcome).toContain('Bob &lt;b&gt;');
    expect(welcome).not.toContain('Bob <b>,</p>');

    expect(entries).toEqual([
      {
        level: 'info',
        data: { outbox: expect.stringMatching(/\.eml$/), subject: 'Reset your PracticeFolio password' },
        msg: 'e-mail written to the outbox',
      },
      {
        level: 'info',
        data: { outbox: expect.stringMatching(/\.eml$/), subject: 'Your PracticeFolio account' },
        msg: 'e-mail written to the outbox',
      },
    ]);
    expect(JSON.stringify(entries)).not.toContain('reset-password');
    expect(statSync(outboxDir).mode & 0o777).toBe(0o700);
    for (const file of files) expect(statSync(path.join(outboxDir, file)).mode & 0o777).toBe(0o600);
    expect(files).toContain(entries[0]!.data['outbox']);
  });

  it('fails when the outbox cannot be written', async () => {
    const file = path.join(tmp, 'a-file');
    writeFileSync(file, 'not a folder');
    const mailer = createMailer({
      smtpUrl: null,
      from: FROM,
      outboxDir: path.join(file, 'outbox'),
      log: captureLog().log,
    });
    await expect(mailer.send(resetPasswordMessage({ email: 'a@example.org', username: 'A' }, LINK))).rejects.toThrow(
      /ENOTDIR|EEXIST/,
    );
  });
});

describe('createMailer with SMTP_URL', () => {
  interface Received {
    from: string;
    to: string[];
    data: string;
  }
  const received: Received[] = [];
  let rejectRecipients = false;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(_address, _session, callback) {
      if (rejectRecipients) callback(new Error('Mailbox unavailable'));
      else callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          data: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  let port = 0;
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('delivers the message to the SMTP server and logs only its subject', async () => {
    const { log, entries } = captureLog();
    const mailer = createMailer({
      smtpUrl: `smtp://127.0.0.1:${port}`,
      from: FROM,
      outboxDir: path.join(tmp, 'unused'),
      log,
    });
    await mailer.send(resetPasswordMessage({ email: 'ada@example.org', username: 'Ada' }, LINK));
    expect(received).toHaveLength(1);
    expect(received[0]!.from).toBe('no-reply@portal.test');
    expect(received[0]!.to).toEqual(['ada@example.org']);
    expect(received[0]!.data).toMatch(/^Subject: Reset your PracticeFolio password\r?$/m);
    expect(received[0]!.data).toContain(LINK);
    expect(entries).toEqual([
      { level: 'info', data: { subject: 'Reset your PracticeFolio password' }, msg: 'e-mail sent' },
    ]);
    expect(JSON.stringify(entries)).not.toContain('Secret-Code');
    expect(() => readdirSync(path.join(tmp, 'unused'))).toThrow(/ENOENT/);
  });

  it('fails when the server refuses the message', async () => {
    rejectRecipients = true;
    try {
      const mailer = createMailer({
        smtpUrl: `smtp://127.0.0.1:${port}`,
        from: FROM,
        outboxDir: tmp,
        log: captureLog().log,
      });
      await expect(
        mailer.send(resetPasswordMessage({ email: 'ada@example.org', username: 'Ada' }, LINK)),
      ).rejects.toThrow(/Mailbox unavailable/);
    } finally {
      rejectRecipients = false;
    }
  });

  it('fails when nothing listens', async () => {
    const closed = new SMTPServer({ authOptional: true, disabledCommands: ['STARTTLS', 'AUTH'], logger: false });
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const freePort = (closed.server.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const mailer = createMailer({
      smtpUrl: `smtp://127.0.0.1:${freePort}`,
      from: FROM,
      outboxDir: tmp,
      log: captureLog().log,
    });
    await expect(
      mailer.send(resetPasswordMessage({ email: 'ada@example.org', username: 'Ada' }, LINK)),
    ).rejects.toThrow(/ECONNREFUSED/);
  });
});
