import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { isEmail } from '#schemas/rules';
import { ROLE_IDS, type User } from '#schemas/user';
import { systemClock } from './clock.ts';
import { loadConfigOrExit, type Config } from './config.ts';
import { writeBackup } from './backup/backup.ts';
import type { BackupManifest } from './backup/format.ts';
import { restoreBackup, RestoreRefused, verifyBackup, type RestoreTarget } from './backup/restore.ts';
import { openDatabase } from './database.ts';
import { openPostgres, type Db } from './db/client.ts';
import { runningEmbedded, startEmbedded } from './db/embedded.ts';
import { failedJobs, jobCounts, retryFailedJob } from './jobs/jobAdmin.ts';
import { createMailer } from './mail/mailer.ts';
import { locationOf } from './media/mediaLocation.ts';
import { objectStoreOf } from './media/objectStore.ts';
import { resetPasswordMessage, welcomeMessage } from './mail/messages.ts';
import { backupRunRepository } from './repositories/backupRunRepository.ts';
import { passwordCodeRepository } from './repositories/passwordCodeRepository.ts';
import { userRepository } from './repositories/userRepository.ts';
import { RESET_CODE_TTL_SECONDS } from './services/passwordReset.ts';
import type { ServiceContext } from './services/context.ts';
import { createAccount, WELCOME_CODE_TTL_DAYS } from './services/userService.ts';
import { newOneTimeCode, TokenService } from './security/tokens.ts';

const USAGE = `Usage: npm run admin -- <command>

  list                               every account: id, role, blocked, e-mail, username
  create-researcher <e-mail> <name>  a researcher account; prints (and e-mails) its set-password link
  reset-password <e-mail>            prints (and e-mails) a new reset link; earlier links stop working
  block <e-mail>                     blocks the account and ends its sessions (single sign-on too)
  sso check                          reads each single sign-on provider's discovery document or SAML
                                     metadata and says what is wrong (exit 1) or what the portal uses
  unblock <e-mail>                   unblocks the account
  media copy-to-s3                   copies the media files from DATA_DIR/uploads into the bucket of
                                     MEDIA_STORE=s3 and its S3_* settings, each checked by size and
                                     SHA-256; run it again to resume; once all are in, the portal
                                     must start with MEDIA_STORE=s3 (stop it for the last run)
  backups                            the latest scheduled backups (BACKUP_DIR): when, result, size, file
  jobs                               background jobs: how many of each kind wait, run and
                                     failed, then the failed ones (newest first) with their error
  jobs retry <id>                    queues a failed job again
  backup <file>                      writes a backup of the database and the media files into
                                     <file> (0600) while the portal keeps serving: keep it offline,
                                     it holds password hashes and the research pseudonym key
  restore <file>                     checks the whole backup, then restores it into an empty
                                     DATA_DIR (or the empty database of DATABASE_URL and the empty
                                     media store of MEDIA_STORE) and runs this version's migrations;
                                     a damaged or too new backup is refused before anything is written

It works whether the portal is running or not (restore: with the portal stopped).`;

class AdminError extends Error {}

const RESTORE_FILE = 'Give the backup file: restore /path/to/practicefolio.backup';

/**
 * Restores the backup `file` into the target `open` gives (opened once the file is verified):
 * the database and the configuration's media store (`verified`: the file's manifest, when it was
 * checked already). Returns what it prints.
 */
export async function restoreCommand(
  file: string | undefined,
  config: Config,
  open: () => Promise<Db>,
  verified?: BackupManifest,
): Promise<string> {
  if (!file) throw new AdminError(RESTORE_FILE);
  const opened = async (): Promise<RestoreTarget> => ({
    db: await open(),
    objects: await objectStoreOf(config),
    location: locationOf(config.s3),
  });
  try {
    const report = await restoreBackup(path.resolve(file), opened, { verified });
    const { manifest } = report;
    const lines = [
      `Restored the backup of ${manifest.createdAt} (schema version ${manifest.schemaVersion}): ${manifest.tables.length} tables, ${report.rows} rows, ${report.files} media files.`,
    ];
    if (report.migrated.length > 0) lines.push(`Then migrated: ${report.migrated.join(', ')}.`);
    if (manifest.media.missing.length > 0)
      lines.push(
        `${manifest.media.missing.length} files were already missing from the store when the backup was taken: ${manifest.media.missing.join(', ')}`,
      );
    lines.push(
      'Start the portal. Sessions from before the backup end unless the same JWT_SECRET (or DATA_DIR/secrets) is kept.',
    );
    return lines.join('\n');
  } catch (error) {
    if (error instanceof RestoreRefused) throw new AdminError(error.message);
    throw error;
  }
}

async function account(db: Db, email: string): Promise<User> {
  const record = await userRepository.findByEmail(db, email);
  if (!record) throw new AdminError(`No account has the e-mail address ${email}.`);
  return record.user;
}

/** Runs one admin command; returns what it prints. */
export async function runAdmin(args: readonly string[], config: Config, db: Db): Promise<string> {
  const warn = (data: unknown, message?: string) => process.stderr.write(`${message ?? String(data)}\n`);
  const log = {
    info: () => undefined,
    debug: () => undefined,
    trace: () => undefined,
    warn,
    error: warn,
    fatal: warn,
    child: () => log,
    level: 'warn',
  } as unknown as FastifyBaseLogger;
  const ctx: ServiceContext = {
    db,
    config,
    tokens: new TokenService(config.jwtSecret),
    clock: systemClock,
    mailer: createMailer({
      smtpUrl: config.smtpUrl,
      from: config.mailFrom,
      outboxDir: path.join(config.dataDir, 'outbox'),
      log,
    }),
    log,
  };
  const [command, ...rest] = args;
  switch (command) {
    case 'list': {
      const users = await userRepository.list(db);
      return users
        .map(
          (u) =>
            `${String(u.id).padStart(5)}  ${u.role.name.padEnd(10)} ${u.blocked ? 'blocked' : '       '}  ${u.email}  ${u.username}`,
        )
        .join('\n');
    }
    case 'create-researcher': {
      const [email, ...name] = rest;
      const username = name.join(' ').trim();
      if (!email || !isEmail(email) || !username)
        throw new AdminError('Give an e-mail address and a name: create-researcher ada@school.example "Ada Lovelace"');
      const created = await db.transaction((tx) =>
        createAccount(ctx, tx, { email: email.toLowerCase(), username, roleId: ROLE_IDS.researcher }),
      );
      await ctx.mailer.send(welcomeMessage(created.user, created.link, WELCOME_CODE_TTL_DAYS));
      return `Created researcher ${created.user.email} (id ${created.user.id}). Set-password link (valid ${WELCOME_CODE_TTL_DAYS} days, also e-mailed):\n${created.link}`;
    }
    case 'reset-password': {
      const user = await account(db, rest[0] ?? '');
      const { code, hash } = newOneTimeCode();
      await db.transaction(async (tx) => {
        await passwordCodeRepository.voidAllFor(tx, user.id);
        await passwordCodeRepository.create(tx, {
          userId: user.id,
          hash,
          purpose: 'reset',
          ttlSeconds: RESET_CODE_TTL_SECONDS,
        });
      });
      const link = `${config.publicUrl}/reset-password/${code}`;
      await ctx.mailer.send(resetPasswordMessage(user, link));
      return `Reset link for ${user.email} (valid one hour, also e-mailed):\n${link}`;
    }
    case 'sso': {
      if (rest[0] !== 'check') throw new AdminError(USAGE);
      const { checkSso } = await import('./services/ssoCheck.ts');
      const { ok, report } = await checkSso(config, systemClock);
      if (!ok) throw new AdminError(report);
      return report;
    }
    case 'block':
    case 'unblock': {
      const user = await account(db, rest[0] ?? '');
      await userRepository.setBlocked(db, user.id, command === 'block');
      return `${user.email} is ${command === 'block' ? 'blocked; its sessions have ended' : 'unblocked'}.`;
    }
    case 'media': {
      if (rest[0] !== 'copy-to-s3') throw new AdminError(USAGE);
      if (!config.s3)
        throw new AdminError(
          'Set MEDIA_STORE=s3, S3_BUCKET and the bucket’s other S3_* settings to copy the media there.',
        );
      const { copyMediaToS3 } = await import('./media/copyToS3.ts');
      const report = await copyMediaToS3(db, config.dataDir, config.s3, (line) => process.stdout.write(`${line}\n`));
      const lines = [
        `${report.copied} files copied and verified, ${report.present} already in the bucket "${config.s3.bucket}".`,
      ];
      if (report.missing.length > 0)
        lines.push(
          `${report.missing.length} files named by the media were not in DATA_DIR/uploads (lost before this copy): ${report.missing.join(', ')}`,
        );
      lines.push(
        'The media are now in the bucket: start the portal with MEDIA_STORE=s3 and the same S3_* settings. The files in DATA_DIR/uploads were left in place; delete them once it runs.',
      );
      return lines.join('\n');
    }
    case 'backups': {
      const runs = await backupRunRepository.latest(db, 20);
      const where = config.backups
        ? `Scheduled backups: ${config.backups.schedule} (UTC) into ${config.backups.dir}, the newest ${config.backups.keep} kept.`
        : 'No scheduled backups: BACKUP_DIR is not set.';
      if (runs.length === 0) return `${where}\nNo scheduled backup has run yet.`;
      const lines = runs.map((r) => {
        const result = r.ok === null ? 'running' : r.ok ? `written, ${r.size} bytes` : `FAILED: ${r.error}`;
        return `${r.startedAt.toISOString()}  ${result}  ${r.file ?? ''}`;
      });
      return [where, ...lines].join('\n');
    }
    case 'jobs': {
      if (rest[0] === 'retry') {
        const id = rest[1] ?? '';
        if (!db.settings) throw new AdminError('Background jobs need PostgreSQL.');
        if (!(await retryFailedJob(db, id, undefined, db.settings())))
          throw new AdminError(`No failed job has the id ${id || '(none given)'}: see npm run admin -- jobs.`);
        return `Job ${id} is queued again.`;
      }
      if (rest.length > 0) throw new AdminError(USAGE);
      const counts = await jobCounts(db);
      const failed = await failedJobs(db, 50);
      const lines = [
        'kind                     waiting  running  failed',
        ...counts.map(
          (c) =>
            `${c.kind.padEnd(24)} ${String(c.waiting).padStart(7)}  ${String(c.active).padStart(7)}  ${String(c.failed).padStart(6)}`,
        ),
      ];
      lines.push(
        '',
        failed.length === 0 ? 'No failed jobs.' : 'Failed jobs (retry one with: npm run admin -- jobs retry <id>):',
      );
      for (const job of failed)
        lines.push(
          `${job.id}  ${job.kind}  ${job.failedAt}  ${job.attempts} attempts  ${JSON.stringify(job.data)}\n    ${job.error}`,
        );
      return lines.join('\n');
    }
    case 'backup': {
      const file = rest[0];
      if (!file || rest.length > 1)
        throw new AdminError('Give the file to write: backup /path/to/practicefolio.backup');
      const report = await writeBackup(db, await objectStoreOf(config), path.resolve(file));
      const { manifest } = report;
      const rows = manifest.tables.reduce((sum, t) => sum + t.rows, 0);
      const lines = [
        `Backup written to ${report.file} (${report.size} bytes, 0600): the snapshot of ${manifest.createdAt}, schema version ${manifest.schemaVersion}, ${manifest.tables.length} tables, ${rows} rows, ${manifest.media.files} media files.`,
      ];
      if (manifest.media.missing.length > 0)
        lines.push(
          `${manifest.media.missing.length} files named by the media were not in the store (lost before this backup): ${manifest.media.missing.join(', ')}`,
        );
      lines.push('It holds password hashes and the research pseudonym key: keep it offline, readable only by you.');
      return lines.join('\n');
    }
    case 'restore':
      return restoreCommand(rest[0], config, async () => db);
    default:
      throw new AdminError(USAGE);
  }
}

/** The database a restore goes into: that of DATABASE_URL, or the embedded one (created in an empty DATA_DIR). */
async function restoreTarget(config: Config): Promise<Db> {
  if (config.databaseUrl) return openPostgres(config.databaseUrl);
  const root = path.join(config.dataDir, 'db');
  if (runningEmbedded(root))
    throw new AdminError('The portal is running on this DATA_DIR: stop it, then restore into an empty DATA_DIR.');
  const server = await startEmbedded(root);
  return openPostgres(server.connection, { onClose: () => server.stop() });
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args[0] === 'restore') {
    let db: Db | null = null;
    try {
      // Checked before the configuration is read (which may write DATA_DIR/secrets): a refused file changes nothing.
      if (!args[1]) throw new AdminError(RESTORE_FILE);
      const verified = await verifyBackup(path.resolve(args[1]));
      const config = loadConfigOrExit();
      const out = await restoreCommand(
        args[1],
        config,
        async () => {
          db = await restoreTarget(config);
          return db;
        },
        verified,
      );
      process.stdout.write(`${out}\n`);
    } catch (error) {
      process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 1;
    } finally {
      await (db as Db | null)?.close();
    }
    return;
  }
  const config = loadConfigOrExit();
  if (args.length === 0 || args[0] === 'help' || args[0] === '--help') {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  // With the portal running, its embedded server is used as it is; otherwise it is started for this command.
  const running = config.databaseUrl ? null : runningEmbedded(path.join(config.dataDir, 'db'));
  const db = running
    ? openPostgres(running, { max: 1 })
    : await openDatabase({ ...config, demoData: false }, { info: () => undefined });
  try {
    process.stdout.write(`${await runAdmin(args, config, db)}\n`);
  } catch (error) {
    process.stderr.write(`${error instanceof AdminError || error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  } finally {
    await db.close();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) await main();
