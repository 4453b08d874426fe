import { chmodSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { AppConfig } from '#schemas/common';
import { backupBeforeMigrations, backupSettings, BackupEnvSchema, type BackupSettings } from './config/backupConfig.ts';
import { DEFAULT_MAX_CONNECTIONS_PER_ADDRESS, DEFAULT_TIMEOUTS, type Timeouts } from './config/connectionLimits.ts';
import { absoluteUrl, booleanText } from './config/envValues.ts';
import { keptRandom } from './config/keptSecrets.ts';
import { fcmSettings, PushEnvSchema, pushEnvProblem, type FcmConfig } from './config/pushConfig.ts';
import { S3EnvSchema, s3EnvProblem, s3Settings } from './config/s3Config.ts';
import { ssoSettings, type SsoSettings } from './config/ssoConfig.ts';
import { WORKER_GROUPS, type WorkerGroup } from './jobs/workerGroups.ts';
import type { S3Settings } from './media/objectStore.ts';

/** The environment variables the server reads (architecture §3). */
export const EnvSchema = z.object({
  PORT: z.coerce
    .number({ error: 'must be a port number' })
    .int('must be a port number (0–65535)')
    .min(0, 'must be a port number (0–65535)')
    .max(65535, 'must be a port number (0–65535)')
    .default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .optional(),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\/[^\s]+$/, 'must start with redis:// or rediss://')
    .optional(),
  JWT_SECRET: z.string().min(32, 'must be at least 32 characters long').optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://')
    .optional(),
  MAIL_FROM: z.string().min(3).default('PracticeFolio <no-reply@practicefolio.local>'),
  PUBLIC_URL: absoluteUrl.optional(),
  SHOWCASE_URL: absoluteUrl.optional(),
  HELP_URL: absoluteUrl.optional(),
  FEEDBACK_URL: absoluteUrl.optional(),
  CONTACT_EMAIL: z.email({ error: 'must be an e-mail address' }).optional(),
  RESEARCH_CONTACT_EMAIL: z.email({ error: 'must be an e-mail address' }).optional(),
  ABOUT_VIDEO_ID: z
    .string()
    .regex(/^[A-Za-z0-9_-]{11}$/, 'must be a YouTube video id (the 11 letters, digits, - or _ after watch?v=)')
    .optional(),
  LEARN_MORE_URL: absoluteUrl.optional(),
  IOS_APP_URL: z
    .string()
    .regex(
      /^https:\/\/apps\.apple\.com\/[^\s?#]*\/id[0-9]+(\?[^\s#]*)?$/,
      "must be the app's App Store page (https://apps.apple.com/…/id123456789)",
    )
    .optional(),
  ANDROID_APP_URL: z
    .string()
    .regex(
      /^https:\/\/play\.google\.com\/store\/apps\/details\?id=[A-Za-z0-9_.]+(&[^\s#]*)?$/,
      "must be the app's Google Play page (https://play.google.com/store/apps/details?id=…)",
    )
    .optional(),
  DEMO_DATA: booleanText.optional(),
  UPLOAD_LIMIT_BYTES: z.coerce
    .number({ error: 'must be a number of bytes' })
    .int('must be a whole number of bytes')
    .positive('must be a positive number of bytes')
    .default(2 * 1024 ** 3),
  STORAGE_QUOTA_BYTES: z.coerce
    .number({ error: 'must be a number of bytes' })
    .int('must be a whole number of bytes')
    .positive('must be a positive number of bytes')
    .default(20 * 1024 ** 3),
  FFMPEG_PATH: z.string().min(1).default('ffmpeg'),
  FFPROBE_PATH: z.string().min(1).default('ffprobe'),
  ...S3EnvSchema.shape,
  WORKERS: z
    .string()
    .trim()
    .transform((v, ctx) => {
      if (v === 'all') return [...WORKER_GROUPS];
      if (v === 'none') return [];
      const groups = v.split(',').map((g) => g.trim());
      const unknown = groups.filter((g) => !(WORKER_GROUPS as readonly string[]).includes(g));
      if (unknown.length > 0 || groups.length === 0) {
        ctx.addIssue({
          code: 'custom',
          message: `must be all, none or a comma-separated list of ${WORKER_GROUPS.join(', ')} (unknown: ${unknown.join(', ') || 'an empty name'})`,
        });
        return z.NEVER;
      }
      return [...new Set(groups)] as WorkerGroup[];
    })
    .default([...WORKER_GROUPS]),
  ...BackupEnvSchema.shape,
  DRAIN_SECONDS: z.coerce
    .number({ error: 'must be a number of seconds' })
    .min(0, 'must be 0 or more seconds')
    .max(300, 'must be at most 300 seconds')
    .default(0),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
      error: 'must be one of fatal, error, warn, info, debug, trace, silent',
    })
    .default('info'),
  TRUST_PROXY: booleanText.default(false),
  MAX_CONNECTIONS_PER_ADDRESS: z.coerce
    .number({ error: 'must be a number of connections' })
    .int('must be a whole number of connections')
    .min(0, 'must be 0 (no cap) or more')
    .optional(),
  QUERY_COUNT_HEADER: booleanText.default(false),
  ...PushEnvSchema.shape,
});

/** The server's validated configuration. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | null;
  /**
   * The Redis that counts the request limits shared by every node (`REDIS_URL`); `null`: they are
   * counted in PostgreSQL (decision 039).
   */
  redisUrl: string | null;
  jwtSecret: string;
  smtpUrl: string | null;
  mailFrom: string;
  publicUrl: string;
  showcaseUrl: string | null;
  /** The Help link; `null`: the portal's own Help page. */
  helpUrl: string | null;
  feedbackUrl: string | null;
  /** The support address the public pages and the mobile apps show (`GET /contact`); `null`: none shown. */
  contactEmail: string | null;
  /** The research project's address on the public pages; `null`: none shown. */
  researchEmail: string | null;
  /** The About page's introduction video (a YouTube id); `null`: no video. */
  aboutVideoId: string | null;
  /** The About page's Learn More link (the showcase site unless set); `null`: none. */
  learnMoreUrl: string | null;
  /** The mobile apps' store pages; `null`: that badge is not shown. */
  iosAppUrl: string | null;
  androidAppUrl: string | null;
  demoData: boolean;
  /**
   * Whether the demo accounts (published password) may sign in: only on a server that other
   * machines cannot reach (a loopback `HOST`), or when `DEMO_DATA=true` was set on purpose.
   */
  demoSignIn: boolean;
  uploadLimitBytes: number;
  /** How much a person's uploads may take on disk in all. */
  storageQuotaBytes: number;
  ffmpegPath: string;
  /** ffprobe, which every uploaded video must pass (a server without it accepts no videos). */
  ffprobePath: string;
  /**
   * After SIGTERM, how long the node keeps serving while its readiness answers 503 (so that a load
   * balancer stops sending it requests) before it stops listening and finishes what is under way.
   */
  drainMs: number;
  /**
   * This node's name in the database, kept in `DATA_DIR/secrets/node-id` (so the same after a
   * restart): the uploads it is writing are its own to sweep when it starts again.
   */
  nodeId: string;
  /**
   * Scheduled backups (`BACKUP_DIR`, `BACKUP_SCHEDULE` in UTC, `BACKUP_KEEP` newest kept); `null`:
   * none (a backup is then taken with `npm run admin -- backup`).
   */
  backups: BackupSettings | null;
  /**
   * Where the server backs up before applying migrations that change existing data
   * (`BACKUP_BEFORE_MIGRATIONS`; `BACKUP_DIR` or `DATA_DIR/backups`); `null`: it does not.
   */
  backupBeforeMigrations: { dir: string } | null;
  /** The kinds of background jobs this node runs (`WORKERS`): all by default, none on an API-only node. */
  workers: readonly WorkerGroup[];
  /** Where uploaded files are kept: `DATA_DIR/uploads` (`null`), or an S3-compatible bucket shared by every node. */
  s3: S3Settings | null;
  logLevel: string;
  trustProxy: boolean;
  /** Open connections allowed from one client address; 0: no cap (behind a proxy that caps them). */
  maxConnectionsPerAddress: number;
  /** Diagnostics: answer with `x-query-count`, the number of SQL statements the request ran. */
  queryCountHeader: boolean;
  /** Push to the mobile apps through Firebase Cloud Messaging; absent or `null`: no push is sent. */
  fcm?: FcmConfig | null;
  /** Single sign-on providers (`OIDC_*`) and whether the web sign-in page offers the password form (`PASSWORD_LOGIN`). */
  sso: SsoSettings;
  /** Where the built SPA lives. */
  staticDir: string;
  /** How long a client may take (milliseconds); see `DEFAULT_TIMEOUTS`. */
  timeouts: Timeouts;
}

/** What the SPA is told of the configuration (the links its pages show): in its page and at `GET /config`. */
export function publicAppConfig(config: Config): AppConfig {
  return {
    showcaseUrl: config.showcaseUrl,
    helpUrl: config.helpUrl,
    feedbackUrl: config.feedbackUrl,
    contactEmail: config.contactEmail,
    researchEmail: config.researchEmail,
    aboutVideoId: config.aboutVideoId,
    learnMoreUrl: config.learnMoreUrl,
    iosAppUrl: config.iosAppUrl,
    androidAppUrl: config.androidAppUrl,
  };
}

/** `loadConfig` for a command: an invalid environment ends the process (exit 2) with the message naming every bad variable. */
export function loadConfigOrExit(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
}

/** Whether a bind address is reachable only from this machine. */
export function isLoopback(host: string): boolean {
  const h = host
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h) || h === '::ffff:127.0.0.1';
}

/** Thrown when the environment is invalid; its message names every bad variable. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * Reads and validates the environment. A JWT secret that is not given is generated once
 * and kept in `DATA_DIR/secrets/jwt-secret`, so that sessions survive restarts.
 * @throws ConfigError when a variable is invalid.
 */
export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  staticDir = path.resolve(env['STATIC_DIR'] || 'dist'),
): Config {
  const parsed = EnvSchema.safeParse(
    Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== '')),
  );
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const pushProblem = pushEnvProblem(e);
  if (pushProblem) throw new ConfigError(`Invalid configuration:\n  ${pushProblem}`);
  const s3Problem = s3EnvProblem(e);
  if (s3Problem) throw new ConfigError(`Invalid configuration:\n  ${s3Problem}`);
  const sso = ssoSettings(env);
  if (sso.problems.length > 0) throw new ConfigError(`Invalid configuration:\n  ${sso.problems.join('\n  ')}`);
  const dataDir = path.resolve(e.DATA_DIR);
  // Database, uploads, mail and secrets: for this account only (files inside stay unreachable to
  // other local users whatever their own mode).
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  chmodSync(dataDir, 0o700);
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL ?? null,
    redisUrl: e.REDIS_URL ?? null,
    jwtSecret: e.JWT_SECRET ?? keptRandom(dataDir),
    nodeId: keptRandom(dataDir, 'node-id', 12),
    smtpUrl: e.SMTP_URL ?? null,
    mailFrom: e.MAIL_FROM,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    showcaseUrl: e.SHOWCASE_URL ?? null,
    helpUrl: e.HELP_URL ?? null,
    feedbackUrl: e.FEEDBACK_URL ?? null,
    contactEmail: e.CONTACT_EMAIL ?? null,
    researchEmail: e.RESEARCH_CONTACT_EMAIL ?? null,
    aboutVideoId: e.ABOUT_VIDEO_ID ?? null,
    learnMoreUrl: e.LEARN_MORE_URL ?? e.SHOWCASE_URL ?? null,
    iosAppUrl: e.IOS_APP_URL ?? null,
    androidAppUrl: e.ANDROID_APP_URL ?? null,
    demoData: e.DEMO_DATA ?? (!e.DATABASE_URL && isLoopback(e.HOST)),
    demoSignIn: e.DEMO_DATA ?? isLoopback(e.HOST),
    uploadLimitBytes: e.UPLOAD_LIMIT_BYTES,
    storageQuotaBytes: e.STORAGE_QUOTA_BYTES,
    ffmpegPath: e.FFMPEG_PATH,
    ffprobePath: e.FFPROBE_PATH,
    s3: s3Settings(e),
    drainMs: Math.round(e.DRAIN_SECONDS * 1000),
    workers: e.WORKERS,
    backups: backupSettings(e),
    backupBeforeMigrations: backupBeforeMigrations(e, { dataDir, embedded: !e.DATABASE_URL }),
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY,
    // Behind a proxy every connection comes from the proxy's address: the proxy caps them.
    maxConnectionsPerAddress:
      e.MAX_CONNECTIONS_PER_ADDRESS ?? (e.TRUST_PROXY ? 0 : DEFAULT_MAX_CONNECTIONS_PER_ADDRESS),
    queryCountHeader: e.QUERY_COUNT_HEADER,
    fcm: fcmSettings(e),
    timeouts: DEFAULT_TIMEOUTS,
    sso: sso.settings,
    staticDir,
  };
}
