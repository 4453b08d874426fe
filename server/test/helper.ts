import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, expect, inject } from 'vitest';
import { ApiErrorSchema } from '#schemas/common';
import { buildApp } from '../src/app.ts';
import { restoreBackup } from '../src/backup/restore.ts';
import { locationOf } from '../src/media/mediaLocation.ts';
import { LocalObjectStore } from '../src/media/objectStore.ts';
import type { Config } from '../src/config.ts';
import { DEFAULT_TIMEOUTS } from '../src/config/connectionLimits.ts';
import { NO_SSO } from '../src/config/ssoConfig.ts';
import { openPostgres, type Db } from '../src/db/client.ts';
import { migrate } from '../src/db/migrate.ts';
import { ensureTemplate } from '../src/db/seed.ts';
import type { MailMessage, Mailer } from '../src/mail/mailer.ts';
import { TestClock } from './clock.ts';
import { MEDIA_TEST_BUCKET } from './mediaBucket.ts';
import type { S3Settings } from '../src/media/objectStore.ts';
import { WORKER_GROUPS } from '../src/jobs/workerGroups.ts';

/** A new database of the run's embedded server (a copy of `template`, or empty), dropped after the file. */
async function embeddedDatabase(template: string | null): Promise<Db> {
  const db = inject('testDatabase');
  if (db.kind !== 'embedded') throw new Error('not an embedded test database');
  const name = `t_${randomBytes(6).toString('hex')}`;
  const admin = openPostgres({ ...db.connection, database: 'postgres' }, { max: 1 });
  await admin.exec(`CREATE DATABASE ${name} TEMPLATE ${template ?? 'template0'}`);
  // Named after the database, so a test can tell its own connections from other test files' ones.
  const opened = openPostgres({ ...db.connection, database: name, application_name: name }, { max: 5 });
  afterAll(async () => {
    await opened.close();
    await admin.exec(`DROP DATABASE ${name} WITH (FORCE)`);
    await admin.close();
  });
  return opened;
}

/** A new empty schema on the server of `TEST_DATABASE_URL`, dropped after the file. */
async function externalSchema(url: string): Promise<Db> {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = openPostgres(url, { max: 1 });
  await admin.exec(`CREATE SCHEMA ${schema}`);
  // Named after the schema: the test files of a run share the database, and a test can tell its own
  // connections (`application_name`) from theirs.
  const db = openPostgres({ connectionString: url, application_name: schema }, { schema, max: 5 });
  afterAll(async () => {
    await db.close();
    // With the job engine's schema next to it (`<schema>_jobs`, made when an app of the file started).
    await admin.exec(`DROP SCHEMA ${schema} CASCADE; DROP SCHEMA IF EXISTS ${schema}_jobs CASCADE`);
    await admin.close();
  });
  return db;
}

/**
 * A fresh, migrated database for one test file: a copy of the run's migrated database on the
 * embedded server, or a new migrated schema on the PostgreSQL server of `TEST_DATABASE_URL`.
 */
export async function createTestDb(): Promise<Db> {
  const backup = inject('restoredBackup');
  if (backup) return restoredDb(backup);
  const target = inject('testDatabase');
  if (target.kind === 'embedded') return embeddedDatabase(target.template);
  const db = await externalSchema(target.url);
  await migrate(db);
  await ensureTemplate(db);
  return db;
}

/**
 * A database restored from the run's backup of the demo data (project `server-restored`), as an
 * operator's `npm run admin -- restore` restores one, then migrated to this version.
 */
async function restoredDb(backup: string): Promise<Db> {
  const db = await createEmptyDb();
  const folder = mkdtempSync(path.join(os.tmpdir(), 'pf-restored-media-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));
  await restoreBackup(backup, { db, objects: new LocalObjectStore(folder), location: locationOf(null) });
  const { rows } = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM users WHERE email LIKE '%@example.org'`,
  );
  if (rows[0]!.n === 0) throw new Error('The restored database lacks the demo accounts of its backup');
  return db;
}

/** A database without any table (for migration tests), on the run's server. */
export async function createEmptyDb(): Promise<Db> {
  const target = inject('testDatabase');
  return target.kind === 'embedded' ? embeddedDatabase(null) : externalSchema(target.url);
}

/** A mailer that keeps messages in memory. */
export class CapturingMailer implements Mailer {
  readonly sent: MailMessage[] = [];
  fail = false;
  private readonly sending: Promise<unknown>[] = [];
  private readonly waiting: { to: string; resolve: (message: MailMessage) => void }[] = [];
  send(message: MailMessage): Promise<void> {
    const sending = this.take(message);
    this.sending.push(sending.catch(() => undefined));
    return sending;
  }
  /** Resolves once every message handed over so far is sent or refused: the queue is drained. */
  async settled(): Promise<void> {
    await Promise.all(this.sending);
  }
  private async take(message: MailMessage): Promise<void> {
    if (this.fail) throw new Error('SMTP unavailable');
    this.sent.push(message);
    for (const waiter of this.waiting.filter((w) => w.to === message.to)) {
      this.waiting.splice(this.waiting.indexOf(waiter), 1);
      waiter.resolve(message);
    }
  }
  /** The last message sent to `email`, once there is one: resolves when it is sent (no waiting on time). */
  sentTo(email: string): Promise<MailMessage> {
    const sent = this.lastTo(email);
    if (sent) return Promise.resolve(sent);
    return new Promise((resolve) => this.waiting.push({ to: email.toLowerCase(), resolve }));
  }
  /** The last message sent to `email`. */
  lastTo(email: string): MailMessage | undefined {
    return [...this.sent].reverse().find((m) => m.to === email.toLowerCase());
  }
}

/**
 * Where the test apps keep their media: `DATA_DIR/uploads`, or with `TEST_MEDIA_STORE=s3` (the
 * `server-s3` test project) the run's S3 server, so the media tests run with both drivers.
 */
function testMediaStore(): S3Settings | null {
  if (process.env['TEST_MEDIA_STORE'] !== 's3') return null;
  const s3 = inject('s3');
  return {
    bucket: MEDIA_TEST_BUCKET,
    // Each test app's files in a folder of their own, so a test sees only its app's files.
    prefix: `app-${randomBytes(6).toString('hex')}/`,
    endpoint: s3.endpoint,
    region: s3.region,
    accessKeyId: s3.accessKeyId,
    secretAccessKey: s3.secretAccessKey,
    forcePathStyle: true,
  };
}

/** The job engine of test apps: quick to notice retries, expiries and lost heartbeats. */
export const TEST_JOBS = { pollSeconds: 0.5, superviseSeconds: 1 };

/** A test configuration; `DATA_DIR` is a temporary folder removed after the file. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'pf-data-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  return {
    port: 0,
    host: '127.0.0.1',
    dataDir,
    databaseUrl: null,
    redisUrl: null,
    jwtSecret: randomBytes(32).toString('hex'),
    nodeId: randomBytes(9).toString('base64url'),
    smtpUrl: null,
    mailFrom: 'PracticeFolio <test@example.org>',
    publicUrl: 'http://portal.test',
    showcaseUrl: null,
    helpUrl: 'https://help.example.org/guide',
    feedbackUrl: null,
    contactEmail: 'support@example.org',
    researchEmail: null,
    aboutVideoId: null,
    learnMoreUrl: null,
    iosAppUrl: null,
    androidAppUrl: null,
    demoData: false,
    s3: testMediaStore(),
    drainMs: 0,
    workers: [...WORKER_GROUPS],
    backups: null,
    backupBeforeMigrations: null,
    uploadLimitBytes: 50 * 1024 * 1024,
    ffmpegPath: 'ffmpeg',
    ffprobePath: 'ffprobe',
    logLevel: 'silent',
    trustProxy: false,
    maxConnectionsPerAddress: 256,
    queryCountHeader: false,
    demoSignIn: true,
    storageQuotaBytes: 20 * 1024 ** 3,
    timeouts: DEFAULT_TIMEOUTS,
    sso: NO_SSO,
    staticDir: path.join(dataDir, 'no-spa'),
    ...overrides,
  };
}

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  mail: CapturingMailer;
  config: Config;
  /** The clock the server reads: `advance` it instead of waiting for time to pass. */
  clock: TestClock;
  /**
   * Resolves once the server has heard of every account or session change committed so far:
   * needed after a test changes `users` or `sessions` with plain SQL, as another process would.
   */
  principalsHeard(): Promise<void>;
  /** `app.inject` under `/api/v1`, as the user of `token` when given. */
  api(options: InjectOptions & { token?: string | null }): Promise<LightMyRequestResponse>;
}

/**
 * Builds the whole server on a fresh database for one test file. Call it (like `createTestDb`,
 * `createEmptyDb` and `testConfig`) at file or `describe` level: clean-up hooks registered
 * inside a test never run.
 */
export async function buildTestApp(overrides: Partial<Config> = {}): Promise<TestApp> {
  const db = await createTestDb();
  const config = testConfig(overrides);
  const mail = new CapturingMailer();
  const clock = new TestClock();
  const app = await buildApp({ config, db, mailer: mail, logger: false, clock, jobs: TEST_JOBS });
  await app.ready();
  afterAll(() => app.close());
  return testAppOf(app, db, mail, config, clock);
}

/** The `TestApp` of a server built (and made ready) by a test itself, with the clock it was given (if any). */
export function testAppOf(
  app: FastifyInstance,
  db: Db,
  mail: CapturingMailer,
  config: Config,
  clock = new TestClock(),
): TestApp {
  return {
    app,
    db,
    mail,
    config,
    clock,
    principalsHeard: () => app.principals.heard(),
    api({ token, url, headers, ...rest }) {
      return app.inject({
        ...rest,
        url: `/api/v1${String(url)}`,
        headers: { ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}) },
      });
    },
  };
}

/** The human message of an error answer, flat or in the nested `message[0].messages[0].message` shape. */
export function errorMessage(res: LightMyRequestResponse): string {
  const body = ApiErrorSchema.parse(res.json());
  return typeof body.message === 'string' ? body.message : (body.message[0]?.messages[0]?.message ?? '');
}

/** What an answer must look like to count as the API error a test expects. */
export interface ApiErrorExpectation {
  /** The human message, exactly or by pattern. */
  message?: string | RegExp;
  /** `true`: nested `message[0].messages[0].message` shape (`/auth/*`); `false`: a plain string. */
  nested?: boolean;
}

/** Everything wrong with `res` as the expected error answer (empty when it is one). */
function apiErrorProblems(res: LightMyRequestResponse, status: number, expected: ApiErrorExpectation): string[] {
  const problems: string[] = [];
  if (res.statusCode !== status) problems.push(`status ${res.statusCode} instead of ${status}`);
  if (!String(res.headers['content-type']).startsWith('application/json'))
    problems.push(`content type ${String(res.headers['content-type'])}`);
  let parsed: ReturnType<typeof ApiErrorSchema.safeParse>;
  try {
    parsed = ApiErrorSchema.safeParse(res.json());
  } catch {
    return [...problems, 'the body is not JSON'];
  }
  if (!parsed.success) return [...problems, `the body is not {statusCode, error, message, code}`];
  const body = parsed.data;
  if (body.statusCode !== status) problems.push(`body.statusCode ${body.statusCode}`);
  if (body.error.length === 0) problems.push('empty body.error');
  if (!/^[a-z0-9_]+$/.test(body.code ?? '')) problems.push(`body.code ${String(body.code)} is not a snake_case code`);
  if (expected.nested !== undefined && (typeof body.message !== 'string') !== expected.nested) {
    problems.push(expected.nested ? 'the message is not nested' : 'the message is nested');
  }
  const text = errorMessage(res);
  // A sentence for people, never Zod's or JavaScript's raw wording.
  if (text.length <= 10 || /Invalid input|expected \w+, received|undefined|\[object|Error:/.test(text))
    problems.push(`unclear message ${JSON.stringify(text)}`);
  if (typeof expected.message === 'string' && text !== expected.message)
    problems.push(`message ${JSON.stringify(text)} instead of ${JSON.stringify(expected.message)}`);
  if (expected.message instanceof RegExp && !expected.message.test(text))
    problems.push(`message ${JSON.stringify(text)} does not match ${String(expected.message)}`);
  return problems;
}

interface ApiMatchers<R = unknown> {
  /**
   * The answer is an API error: this status, the common body `{statusCode, error, message, code}`,
   * a clear message (this one, when given) in the nested shape when `nested`.
   */
  toBeApiError(status: number, message?: string | RegExp, options?: Omit<ApiErrorExpectation, 'message'>): R;
  /** The answer has this status (its body is shown when it does not). */
  toHaveStatus(status: number): R;
  /** The server handled the request: no 5xx, and an error answer (4xx) has the common error body. */
  toBeHandled(): R;
}

declare module 'vitest' {
  // oxlint-disable-next-line typescript/no-explicit-any -- must match vitest's own declaration
  interface Matchers<T = any> extends ApiMatchers<T> {}
}

expect.extend({
  toBeApiError(
    received: LightMyRequestResponse,
    status: number,
    message?: string | RegExp,
    options: Omit<ApiErrorExpectation, 'message'> = {},
  ) {
    const problems = apiErrorProblems(received, status, { ...options, ...(message === undefined ? {} : { message }) });
    return {
      pass: problems.length === 0,
      message: () =>
        problems.length === 0
          ? `expected an answer other than the ${status} API error ${received.body}`
          : `expected the ${status} API error${message === undefined ? '' : ` ${String(message)}`}: ${problems.join('; ')}\nbody: ${received.body.slice(0, 500)}`,
    };
  },
  toBeHandled(received: LightMyRequestResponse) {
    const problems =
      received.statusCode >= 500
        ? [`status ${received.statusCode}`]
        : received.statusCode >= 400
          ? apiErrorProblems(received, received.statusCode, {})
          : [];
    return {
      pass: problems.length === 0,
      message: () =>
        `expected a handled answer: ${problems.join('; ') || 'it was'}\nbody: ${received.body.slice(0, 500)}`,
    };
  },
  toHaveStatus(received: LightMyRequestResponse, status: number) {
    return {
      pass: received.statusCode === status,
      message: () => `expected status ${status}, got ${received.statusCode}: ${received.body.slice(0, 500)}`,
    };
  },
});
