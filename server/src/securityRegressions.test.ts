import { parse } from 'csv-parse/sync';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { connect, type AddressInfo, type Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { FastifyBaseLogger, InjectOptions, LightMyRequestResponse } from 'fastify';
import { SignJWT } from 'jose';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ArtifactMediaResponseSchema } from '#schemas/artifact';
import { AuthResponseSchema } from '#schemas/auth';
import { CommentSchema } from '#schemas/sharedArtifact';
import { MembersResponseSchema, PersonSchema, SharedArtifactSchema } from '#schemas/sharedPortfolio';
import {
  attachMedia,
  attachVideo,
  COMPLETE_RESPONSES,
  countRows,
  createArtifact,
  createComment,
  createLead,
  createPortfolio,
  createReaction,
  createResearcher,
  createSharedArtifact,
  createSharedPortfolio,
  createTeacher,
  createUser,
  removeMember,
  snapshot,
  teamQuestion,
  type TestUser,
  uploadedFiles,
} from '../test/factories.ts';
import { htmlPage, multipart, pdfDocument, pngImage, svgImage } from '../test/files.ts';
import { CROSS_SITE_MESSAGE } from './http/webSession.ts';
import { buildTestApp, CapturingMailer, createTestDb, testAppOf, testConfig, type TestApp } from '../test/helper.ts';
import { buildApp } from './app.ts';
import { ConfigError, DEFAULT_TIMEOUTS, loadConfig } from './config.ts';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, seedDemo } from './db/demo.ts';
import { createMailer, type MailMessage } from './mail/mailer.ts';
import { SESSION_TTL_SECONDS, TokenService } from './security/tokens.ts';

/**
 * The catalogue of the original's security weaknesses (reference-behaviour §12.3, items 1–17,
 * and the unsanitised responses of §12.4): one test per item proves that our server does not
 * have it, or names exactly how far the product protects against it.
 */

const t = await buildTestApp();

const INVALID_LOGIN = 'Identifier or password invalid.';
const INCORRECT_CODE = 'Incorrect code provided.';
const INVALID_TOKEN = 'Invalid token.';
const SESSION_ENDED = 'Your session has ended. Please log in again.';
const BLOCKED_SESSION = 'Your account has been blocked by the administrator.';
const PORTFOLIO_NOT_FOUND = 'Portfolio not found.';
const ARTIFACT_NOT_FOUND = 'Artifact not found.';
const SHARED_ARTIFACT_NOT_FOUND = 'Shared artifact not found.';
const SHARED_NOT_FOUND = 'Shared portfolio not found.';
const FILE_NOT_FOUND = 'File not found.';
const TEMPLATE_FIXED = 'The portfolio template cannot be changed.';
const RESEARCHER_READ_ONLY = 'Researchers can read teacher portfolios but not change them.';
const ONLY_RESEARCHERS_EXPORT = 'Only researchers can export summaries.';
const ONLY_RESEARCHERS_USERS = 'Only researchers can manage users.';
const NO_PERMISSION = 'You do not have permission to access this page.';
const OWNER_ONLY = 'Only the owner of this shared portfolio can do this.';
const NOT_YOURS = 'You can change only your own comments and reactions.';
const HAS_ACTIVITY = 'You cannot delete a shared artifact with comments or reactions.';

let lastAddress = 0;
/** A client address no other request of this file uses (per-address limits stay apart). */
const freshAddress = () => `10.77.${Math.floor(++lastAddress / 250)}.${(lastAddress % 250) + 1}`;

/** `POST /auth/*` from an address of its own. */
const auth = (app: TestApp, route: 'local' | 'forgot-password' | 'reset-password', payload: object, remoteAddress = freshAddress()) =>
  app.api({ method: 'POST', url: `/auth/${route}`, payload, remoteAddress });
const login = (identifier: string, password: string, app: TestApp = t) => auth(app, 'local', { identifier, password });

/** The code of the last set-password or reset link e-mailed to `email`. */
function codeMailedTo(mail: { lastTo(email: string): MailMessage | undefined }, email: string): string {
  const message = mail.lastTo(email);
  expect(message, `no e-mail to ${email}`).toBeDefined();
  // Set-password links of new accounts end in `?welcome=1` (the page then says "Set your password").
  const match = /\/reset-password\/([A-Za-z0-9_-]{43})(\?welcome=1)?$/.exec(message!.links[0] ?? '');
  expect(match, message!.links[0]).not.toBeNull();
  return match![1]!;
}

const nested = (spId: number, artifactId: number) => `/shared-portfolios/${spId}/shared-artifacts/${artifactId}`;
const upload = (app: TestApp, token: string, url: string, body: ReturnType<typeof multipart>) => app.api({ method: 'POST', url, token, ...body });
const json = (value: unknown) => value as Record<string, unknown>;

/** A GET under /api/v1 with only the session cookie (what a link, <img> or a cross-site request sends). */
const withCookie = (app: TestApp, options: InjectOptions, token: string) =>
  app.app.inject({ ...options, url: `/api/v1${String(options.url)}`, headers: { ...options.headers, cookie: `jwt=${token}` } });

/** The signed claims of a session token. */
const claimsOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString('utf8')) as { id: number; ep: number; iat: number; exp: number };

/** Every key path of a JSON value (`$.user.portfolios[0].owner.email`). */
function keyPaths(value: unknown, at = '$', out: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((v, i) => keyPaths(v, `${at}[${i}]`, out));
  else if (value !== null && typeof value === 'object') {
    for (const [key, v] of Object.entries(value)) {
      out.push(`${at}.${key}`);
      keyPaths(v, `${at}.${key}`, out);
    }
  }
  return out;
}

/** Names of private fields: password hashes, reset and confirmation tokens, session epochs, lock holders and codes. */
const PRIVATE_KEY = /^(password|password_?hash|passwordHash|resetPasswordToken|reset_password_token|confirmationToken|confirmation_token|session_?epoch|sessionEpoch|epoch|code_?hash|lock_?code|lockCode|locked_?by|lockedBy)$/i;

/** What the database keeps secret right now: password hashes, one-time code hashes and edit-lock codes. */
async function storedSecrets(app: TestApp): Promise<string[]> {
  const { rows } = await app.db.query<{ secret: string }>(
    `SELECT password_hash AS secret FROM users WHERE password_hash IS NOT NULL
     UNION ALL SELECT code_hash FROM password_codes
     UNION ALL SELECT lock_code FROM shared_artifacts WHERE lock_code IS NOT NULL`,
  );
  return rows.map((r) => r.secret);
}

/**
 * The answer carries no private field and none of the stored secrets. `ownLock` is the caller's
 * own edit-lock code, which only the lock answer itself may carry (at its top level).
 */
function expectNoPrivateData(res: LightMyRequestResponse, secrets: readonly string[], ownLock?: string): void {
  expect(res, res.body.slice(0, 300)).toHaveStatus(200);
  const paths = keyPaths(res.json());
  expect(paths.length).toBeGreaterThan(0);
  expect(paths.filter((p) => PRIVATE_KEY.test(p.slice(p.lastIndexOf('.') + 1)))).toEqual([]);
  expect(paths.filter((p) => /\.(lock|lockedUntil|locked_?until)$/i.test(p))).toEqual(ownLock ? ['$.lock', '$.lockedUntil'] : []);
  expect(res.body).not.toContain('scrypt$');
  for (const secret of secrets.filter((s) => s !== ownLock)) expect(res.body).not.toContain(secret);
}

/** The keys of every object at a list of values, each sorted. */
const keySets = (values: readonly unknown[]) => values.map((v) => Object.keys(json(v)).sort());
const PERSON_KEYS = Object.keys(PersonSchema.shape).sort();

/** Server source files (tests excluded). */
function serverSources(): { file: string; text: string }[] {
  const root = path.dirname(fileURLToPath(import.meta.url));
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.(ts|sql)$/.test(entry.name) && !entry.name.endsWith('.test.ts')) files.push(full);
    }
  };
  walk(root);
  return files.map((file) => ({ file: path.relative(root, file), text: readFileSync(file, 'utf8') }));
}

/** Temporary folders removed after the file. */
const folders: string[] = [];
afterAll(() => folders.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
const tempDir = () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pf-security-'));
  folders.push(dir);
  return dir;
};

/**
 * A shared portfolio of a PLC lead with two teachers as members, a pending invitee and a former
 * member; each member has a shared artifact with one (file-less) document.
 */
async function team(app: TestApp = t) {
  const lead = await createLead(app);
  const m1 = await createTeacher(app);
  const m2 = await createTeacher(app);
  const invitee = await createTeacher(app);
  const former = await createTeacher(app);
  const sp = await createSharedPortfolio(app, lead, { questions: [teamQuestion('team1')], members: [m1, m2, former], invitees: [invitee] });
  await removeMember(app, sp, former);
  const sa1 = await createSharedArtifact(app, sp, m1);
  const sa2 = await createSharedArtifact(app, sp, m2);
  const file1 = await attachMedia(app, 'sharedArtifact', sa1.id);
  return { lead, m1, m2, invitee, former, sp, sa1, sa2, file1 };
}

describe('#1 no authentication backdoor', () => {
  describe('on the demo accounts and ordinary ones', async () => {
    const demo = await buildTestApp();
    beforeAll(() => seedDemo(demo.db, demo.config));

    it("#1 no authentication backdoor: 'supersekkrit' logs into nothing", async () => {
      const teacher = await createTeacher(demo);
      const blocked = await createUser(demo, { blocked: true });
      const accounts = [
        ...DEMO_ACCOUNTS.map((a) => ({ identifiers: [a.email, a.username], password: DEMO_PASSWORD })),
        { identifiers: [teacher.user.email, teacher.user.username], password: teacher.password },
      ];
      for (const account of accounts) {
        for (const identifier of account.identifiers) {
          for (const master of ['supersekkrit', 'SUPERSEKKRIT']) {
            expect(await login(identifier, master, demo)).toBeApiError(400, INVALID_LOGIN, { nested: true });
          }
        }
        // The accounts are real: their own password opens them.
        const own = await login(account.identifiers[0]!, account.password, demo);
        expect(own).toHaveStatus(200);
        expect(AuthResponseSchema.parse(own.json()).user.email).toBe(account.identifiers[0]);
      }
      // A blocked account does not even learn that a master password "matched".
      expect(await login(blocked.user.email, 'supersekkrit', demo)).toBeApiError(400, INVALID_LOGIN, { nested: true });
      // No server source knows the word.
      expect(serverSources().filter((s) => /supersekkrit/i.test(s.text)).map((s) => s.file)).toEqual([]);
    }, 120_000);
  });
});

describe('#2 no plaintext credential logging', async () => {
  // A mail server that refuses some recipients the way Postfix does: quoting the address.
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (address.address.startsWith('gone-')) callback(new Error(`<${address.address}>: Recipient address rejected: User unknown in local recipient table`));
      else callback();
    },
    onData(stream, _session, callback) {
      stream.on('data', () => undefined);
      stream.on('end', () => callback());
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  afterAll(() => new Promise<void>((resolve) => smtp.close(() => resolve())));
  const quiet = { info: () => undefined } as unknown as FastifyBaseLogger;
  const smtpMailer = createMailer({ smtpUrl: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`, from: 'Portal <p@portal.test>', outboxDir: tempDir(), log: quiet });
  /** Keeps every message (for the codes) and delivers it over SMTP, failing as SMTP fails. */
  const mail = new (class extends CapturingMailer {
    override async send(message: MailMessage): Promise<void> {
      this.sent.push(message);
      await smtpMailer.send(message);
    }
  })();
  const lines: string[] = [];
  const db = await createTestDb();
  const config = testConfig();
  const app = await buildApp({ config, db, mailer: mail, logger: { level: 'trace', stream: { write: (line) => lines.push(line) } } });
  await app.ready();
  afterAll(() => app.close());
  const s: TestApp = testAppOf(app, db, mail, config);

  it('#2 no plaintext credential logging: the log of logins, resets and failed reset mail holds no password, e-mail, code or token', async () => {
    const user = await createTeacher(s);
    const gone = await createUser(s, { email: `gone-${Date.now().toString(36)}@school.example` });
    const unknown = `nobody-${Date.now().toString(36)}@school.example`;
    lines.length = 0;

    const good = await login(user.user.email, user.password, s);
    expect(good).toHaveStatus(200);
    const jwt = AuthResponseSchema.parse(good.json()).jwt;
    expect(await login(user.user.email, 'a wrong password', s)).toBeApiError(400, INVALID_LOGIN);
    // The e-mail address as password (the original's initial password).
    expect(await login(user.user.email, user.user.email, s)).toBeApiError(400, INVALID_LOGIN);
    expect(await login(unknown, 'guessing away', s)).toBeApiError(400, INVALID_LOGIN);
    expect(await s.api({ method: 'GET', url: '/users/me', token: jwt, headers: { cookie: `jwt=${jwt}` } })).toHaveStatus(200);

    expect(await auth(s, 'forgot-password', { email: user.user.email })).toHaveStatus(200);
    const code = codeMailedTo(mail, user.user.email);
    expect(await auth(s, 'forgot-password', { email: unknown })).toHaveStatus(200);
    // The mail server refuses this address and names it in its answer; the failure is logged.
    expect(await auth(s, 'forgot-password', { email: gone.user.email })).toHaveStatus(200);
    for (let i = 0; i < 100 && !lines.some((l) => l.includes('could not send the reset e-mail')); i += 1) await new Promise((r) => setTimeout(r, 20));

    const reset = await auth(s, 'reset-password', { code, password: 'the new password 2', passwordConfirmation: 'the new password 2' });
    expect(reset).toHaveStatus(200);
    const jwt2 = AuthResponseSchema.parse(reset.json()).jwt;
    expect(await auth(s, 'reset-password', { code, password: 'another password 3', passwordConfirmation: 'another password 3' })).toBeApiError(400, INCORRECT_CODE);

    const text = lines.join('\n');
    expect(lines.length).toBeGreaterThan(15);
    const failure = lines.map((l) => JSON.parse(l) as Record<string, unknown>).find((e) => e['msg'] === 'could not send the reset e-mail');
    expect(failure?.['err']).toMatchObject({ code: 'EENVELOPE', message: expect.stringContaining('Recipient address rejected') });
    expect(JSON.stringify(failure)).toContain('[e-mail]');
    const secrets = [user.password, 'a wrong password', 'guessing away', user.user.email, unknown, gone.user.email, code, 'the new password 2', 'another password 3', jwt, jwt2];
    for (const secret of secrets) expect(text).not.toContain(secret);
    expect(text.toLowerCase()).not.toContain(user.user.email.split('@')[0]);
    expect(text).not.toMatch(/"(identifier|password|passwordConfirmation|body)"/);
    expect(text).not.toContain('scrypt$');
  });
});

describe('#3 no hard-coded fallback secrets', () => {
  it('#3 no hard-coded fallback secrets: a missing JWT_SECRET is generated per installation; guessable secrets and unsigned tokens are refused', async () => {
    const dirA = tempDir();
    const a = loadConfig({ DATA_DIR: dirA }, '/static');
    const b = loadConfig({ DATA_DIR: tempDir() }, '/static');
    expect(a.jwtSecret.length).toBeGreaterThanOrEqual(32);
    expect(a.jwtSecret).not.toBe(b.jwtSecret);
    expect(statSync(path.join(dirA, 'secrets', 'jwt-secret')).mode & 0o077).toBe(0);
    // No built-in database credentials: without DATABASE_URL the embedded database is used.
    expect(a.databaseUrl).toBeNull();
    // A short secret given on purpose is refused at start.
    for (const weak of ['secret', 'password', 'changeme', 'x'.repeat(31)]) {
      expect(() => loadConfig({ DATA_DIR: tempDir(), JWT_SECRET: weak }, '/static')).toThrow(ConfigError);
    }

    const researcher = await createResearcher(t);
    const sign = (secret: string) =>
      new SignJWT({ id: researcher.user.id, ep: 0 }).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setIssuedAt().setExpirationTime('1h').sign(new TextEncoder().encode(secret));
    for (const guess of ['secret', 'password', 'changeme', 'supersekkrit', 'spiral-demo', 'jwt-secret', 'practicefolio', a.jwtSecret]) {
      expect(await t.api({ method: 'GET', url: '/users', token: await sign(guess) })).toBeApiError(401, INVALID_TOKEN);
    }
    const unsigned = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${Buffer.from(JSON.stringify({ id: researcher.user.id, ep: 0, exp: 4_000_000_000 })).toString('base64url')}.`;
    expect(await t.api({ method: 'GET', url: '/users', token: unsigned })).toBeApiError(401, INVALID_TOKEN);
    // The same claims signed with this server's secret work.
    expect(await t.api({ method: 'GET', url: '/users', token: await sign(t.config.jwtSecret) })).toHaveStatus(200);
    // No database URL with credentials in the server's code.
    expect(serverSources().filter((s) => /postgres(ql)?:\/\/[^\s'"`/]*:[^\s'"`/]*@/.test(s.text)).map((s) => s.file)).toEqual([]);
  });
});

describe('#4 no predictable initial passwords', () => {
  it('#4 no predictable initial passwords: new accounts (researcher or invitation) have no usable password; set-password and reset codes expire and work once', async () => {
    const researcher = await createResearcher(t);
    const lead = await createLead(t);
    const sp = await createSharedPortfolio(t, lead);
    const tag = Date.now().toString(36);
    const made = `made.${tag}@school.example`;
    const invited = `invited.${tag}@school.example`;
    expect(await t.api({ method: 'POST', url: '/invitations/outside', token: researcher.token, payload: { email: made, username: `Made ${tag}`, roleId: 1 } })).toHaveStatus(200);
    expect(await t.api({ method: 'POST', url: '/invitations', token: lead.token, payload: { email: invited, sharedPortfolio: sp.id } })).toHaveStatus(200);

    for (const [email, username] of [[made, `Made ${tag}`], [invited, `invited.${tag}`]] as const) {
      const { rows } = await t.db.query<{ password_hash: string | null; ttl: number; purpose: string }>(
        `SELECT u.password_hash, c.purpose, extract(epoch FROM c.expires_at - c.created_at)::int AS ttl
         FROM users u JOIN password_codes c ON c.user_id = u.id WHERE u.email = $1`,
        [email],
      );
      expect(rows).toEqual([{ password_hash: null, purpose: 'welcome', ttl: 7 * 24 * 60 * 60 }]);
      for (const identifier of [email, username]) {
        for (const guess of [email, email.toUpperCase(), username, 'password']) {
          expect(await login(identifier, guess)).toBeApiError(400, INVALID_LOGIN, { nested: true });
        }
      }
    }

    // An expired set-password link does nothing.
    const madeCode = codeMailedTo(t.mail, made);
    await t.db.query(`UPDATE password_codes SET expires_at = ms_now() - interval '1 second' WHERE user_id = (SELECT id FROM users WHERE email = $1)`, [made]);
    expect(await auth(t, 'reset-password', { code: madeCode, password: 'chosen password', passwordConfirmation: 'chosen password' })).toBeApiError(400, INCORRECT_CODE, { nested: true });
    expect(await login(made, 'chosen password')).toBeApiError(400, INVALID_LOGIN);

    // A reset link lives one hour and works once.
    const teacher = await createTeacher(t);
    expect(await auth(t, 'forgot-password', { email: teacher.user.email })).toHaveStatus(200);
    const { rows: reset } = await t.db.query<{ ttl: number }>(
      `SELECT extract(epoch FROM expires_at - created_at)::int AS ttl FROM password_codes WHERE user_id = $1 AND purpose = 'reset'`,
      [teacher.user.id],
    );
    expect(reset).toEqual([{ ttl: 60 * 60 }]);
    const code = codeMailedTo(t.mail, teacher.user.email);
    expect(await auth(t, 'reset-password', { code, password: 'new password 1', passwordConfirmation: 'new password 1' })).toHaveStatus(200);
    expect(await auth(t, 'reset-password', { code, password: 'new password 2', passwordConfirmation: 'new password 2' })).toBeApiError(400, INCORRECT_CODE);
    expect(await login(teacher.user.email, 'new password 1')).toHaveStatus(200);
  }, 120_000);
});

describe('#5 no IDOR on nested routes', () => {
  it('#5 no IDOR on nested routes: an artifact of someone else paired with the caller’s own portfolio is refused, changing nothing', async () => {
    const victim = await createTeacher(t);
    const attacker = await createTeacher(t);
    const theirPortfolio = await createPortfolio(t, victim);
    const theirArtifact = await createArtifact(t, theirPortfolio, { parkingLot: false });
    const theirFile = await attachMedia(t, 'artifact', theirArtifact.id);
    const myPortfolio = await createPortfolio(t, attacker);
    const myArtifact = await createArtifact(t, myPortfolio);
    const theirs = await team();
    const mine = await createSharedPortfolio(t, attacker, { questions: [teamQuestion('team1')] });
    const before = await snapshot(t);

    for (const portfolioId of [myPortfolio.id, 1]) {
      const base = `/portfolios/${portfolioId}/artifacts/${theirArtifact.id}`;
      expect(await t.api({ method: 'PUT', url: `${base}/responses`, token: attacker.token, payload: { responses: { artifactName: 'Mine now' } } })).toBeApiError(404, ARTIFACT_NOT_FOUND);
      expect(await upload(t, attacker.token, `${base}/documents`, multipart('file', 'x.pdf', pdfDocument()))).toBeApiError(404, ARTIFACT_NOT_FOUND);
      expect(await t.api({ method: 'DELETE', url: `${base}/documents/${theirFile}`, token: attacker.token })).toBeApiError(404, ARTIFACT_NOT_FOUND);
    }
    // Nor may the caller add artifacts to someone else's portfolio.
    expect(await t.api({ method: 'POST', url: `/portfolios/${theirPortfolio.id}/artifacts/responses`, token: attacker.token, payload: {} })).toBeApiError(404, PORTFOLIO_NOT_FOUND);
    // The caller’s own artifact with someone else’s file id.
    expect(await t.api({ method: 'DELETE', url: `/portfolios/${myPortfolio.id}/artifacts/${myArtifact.id}/documents/${theirFile}`, token: attacker.token })).toBeApiError(404, FILE_NOT_FOUND);

    const base = nested(mine.id, theirs.sa1.id);
    const attempts = [
      t.api({ method: 'PUT', url: `${base}/responses`, token: attacker.token, payload: { responses: { team1: 'Mine now' } } }),
      t.api({ method: 'GET', url: `${base}/gate-check?updated_at=1`, token: attacker.token }),
      t.api({ method: 'POST', url: `${base}/lock`, token: attacker.token }),
      t.api({ method: 'POST', url: `${base}/unlock`, token: attacker.token, payload: {} }),
      upload(t, attacker.token, `${base}/documents`, multipart('file', 'x.pdf', pdfDocument())),
      t.api({ method: 'DELETE', url: `${base}/documents/${theirs.file1}`, token: attacker.token }),
    ];
    for (const res of await Promise.all(attempts)) expect(res).toBeApiError(404, SHARED_ARTIFACT_NOT_FOUND);
    expect(await snapshot(t)).toEqual(before);
  });
});

describe('#6 template portfolio closed', () => {
  it('#6 template portfolio closed: everyone may read portfolio 1, nobody may change, delete or write under it', async () => {
    const people = [await createTeacher(t), await createLead(t), await createResearcher(t)];
    for (const who of people) expect(await t.api({ method: 'GET', url: '/portfolios/1', token: who.token })).toHaveStatus(200);
    // Even an artifact that somehow sat in the template (no route can put one there; it would have
    // no owner) is nobody's to write.
    const stray = await createArtifact(t, { id: 1 });
    const before = await snapshot(t);
    for (const who of people) {
      const researcher = who.user.role.type === 'researcher';
      expect(await t.api({ method: 'PUT', url: '/portfolios/1', token: who.token, payload: { name: 'Mine now' } })).toBeApiError(403, TEMPLATE_FIXED);
      expect(await t.api({ method: 'DELETE', url: '/portfolios/1', token: who.token })).toBeApiError(403, TEMPLATE_FIXED);
      expect(await t.api({ method: 'POST', url: '/portfolios/1/artifacts/responses', token: who.token, payload: {} })).toBeApiError(403, TEMPLATE_FIXED);
      const [status, message] = researcher ? [403, RESEARCHER_READ_ONLY] : [404, ARTIFACT_NOT_FOUND];
      expect(await t.api({ method: 'PUT', url: `/artifacts/${stray.id}`, token: who.token, payload: { responses: COMPLETE_RESPONSES } })).toBeApiError(status, message);
      expect(await t.api({ method: 'DELETE', url: `/artifacts/${stray.id}`, token: who.token })).toBeApiError(status, message);
      expect(await t.api({ method: 'PUT', url: `/portfolios/1/artifacts/${stray.id}/responses`, token: who.token, payload: { responses: COMPLETE_RESPONSES } })).toBeApiError(status, message);
      expect(await upload(t, who.token, `/portfolios/1/artifacts/${stray.id}/documents`, multipart('file', 'x.pdf', pdfDocument()))).toBeApiError(status, message);
    }
    expect(await snapshot(t)).toEqual(before);
    await t.db.query('DELETE FROM artifacts WHERE id = $1', [stray.id]);
  });
});

describe('#7 no mass assignment', () => {
  it('#7 no mass assignment: portfolio, owner, artifacts, members, sharedPortfolio and file ids in a body answer 400 and change nothing', async () => {
    const teacher = await createTeacher(t);
    const other = await createTeacher(t);
    const portfolio = await createPortfolio(t, teacher);
    const artifact = await createArtifact(t, portfolio);
    const otherPortfolio = await createPortfolio(t, other);
    const otherArtifact = await createArtifact(t, otherPortfolio);
    const otherFile = await attachMedia(t, 'artifact', otherArtifact.id);
    const { lead, m1, sp, sa1 } = await team();
    const elsewhere = await createSharedPortfolio(t, other);
    const spBody = { name: 'Renamed', structure: [] };
    const before = await snapshot(t);

    const refused: [InjectOptions & { token: string }, RegExp][] = [
      [{ method: 'PUT', url: `/artifacts/${artifact.id}`, token: teacher.token, payload: { responses: {}, portfolio: otherPortfolio.id } }, /"portfolio"/],
      [{ method: 'PUT', url: `/artifacts/${artifact.id}`, token: teacher.token, payload: { responses: {}, portfolio: { id: otherPortfolio.id } } }, /"portfolio"/],
      [{ method: 'PUT', url: `/artifacts/${artifact.id}`, token: teacher.token, payload: { responses: {}, owner: other.user.id } }, /"owner"/],
      [{ method: 'PUT', url: `/artifacts/${artifact.id}`, token: teacher.token, payload: { responses: {}, images: [otherFile] } }, /"images"/],
      [{ method: 'PUT', url: `/artifacts/${artifact.id}`, token: teacher.token, payload: { responses: {}, documents: [{ id: otherFile }] } }, /"documents"/],
      [{ method: 'PUT', url: `/artifacts/${artifact.id}`, token: teacher.token, payload: { responses: {}, id: otherArtifact.id } }, /id in the body does not match/],
      [{ method: 'PUT', url: `/shared-artifacts/${sa1.id}`, token: m1.token, payload: { responses: COMPLETE_RESPONSES, owner: other.user.id } }, /"owner"/],
      [{ method: 'PUT', url: `/shared-artifacts/${sa1.id}`, token: m1.token, payload: { responses: COMPLETE_RESPONSES, sharedPortfolio: elsewhere.id } }, /"sharedPortfolio"/],
      [{ method: 'PUT', url: `/shared-artifacts/${sa1.id}`, token: m1.token, payload: { responses: COMPLETE_RESPONSES, images: [otherFile] } }, /"images"/],
      [{ method: 'PUT', url: `/shared-portfolios/${sp.id}`, token: lead.token, payload: { ...spBody, members: [other.user.id] } }, /"members"/],
      [{ method: 'PUT', url: `/shared-portfolios/${sp.id}`, token: lead.token, payload: { ...spBody, owner: other.user.id } }, /"owner"/],
      [{ method: 'POST', url: '/shared-portfolios', token: lead.token, payload: { ...spBody, members: [other.user.id] } }, /"members"/],
      [{ method: 'POST', url: '/portfolios', token: teacher.token, payload: { name: 'Grab', artifacts: [otherArtifact.id] } }, /"artifacts"/],
      [{ method: 'POST', url: '/portfolios', token: teacher.token, payload: { name: 'Grab', owner: other.user.id } }, /"owner"/],
      [{ method: 'PUT', url: `/portfolios/${portfolio.id}`, token: teacher.token, payload: { artifacts: [otherArtifact.id] } }, /"artifacts"/],
      [{ method: 'PUT', url: `/portfolios/${portfolio.id}`, token: teacher.token, payload: { name: 'Mine', owner: other.user.id } }, /"owner"/],
    ];
    for (const [request, message] of refused) expect(await t.api(request), `${request.method} ${request.url}`).toBeApiError(400, message);
    expect(await snapshot(t)).toEqual(before);

    // Fields old clients send are ignored, never trusted: a comment is the caller's whatever `owner` says.
    const comment = await t.api({ method: 'POST', url: '/comments', token: m1.token, payload: { text: 'Mine', sharedArtifact: sa1.id, owner: other.user.id, updated_by: other.user.id } });
    expect(comment).toHaveStatus(200);
    expect(CommentSchema.parse(comment.json()).owner.id).toBe(m1.user.id);
    const reaction = await t.api({ method: 'POST', url: '/reactions', token: m1.token, payload: { value: '⭐', sharedArtifact: sa1.id, owner: other.user.id } });
    expect(reaction).toHaveStatus(200);
    expect(reaction.json().owner.id).toBe(m1.user.id);
  });
});

describe('#8 role checks on the server', () => {
  it('#8 role checks on the server: exports, shared-portfolio creation, account creation (any roleId) and PUT /users are refused to the wrong roles', async () => {
    const teacher = await createTeacher(t);
    const lead = await createLead(t);
    const researcher = await createResearcher(t);
    const target = await createTeacher(t);
    const { m1, sp } = await team();
    const before = await snapshot(t);

    for (const who of [teacher, lead]) {
      for (const url of ['/portfolios/export', '/shared-portfolios/export']) {
        expect(await t.api({ method: 'GET', url, token: who.token })).toBeApiError(403, ONLY_RESEARCHERS_EXPORT);
        expect(await withCookie(t, { method: 'GET', url }, who.token)).toBeApiError(403, ONLY_RESEARCHERS_EXPORT);
      }
      for (const roleId of [4, 3, 1]) {
        const body = { email: `escalate-${roleId}-${who.user.id}@school.example`, username: `Escalate ${roleId} ${who.user.id}`, roleId };
        expect(await t.api({ method: 'POST', url: '/invitations/outside', token: who.token, payload: body })).toBeApiError(403, ONLY_RESEARCHERS_USERS);
      }
      expect(await t.api({ method: 'PUT', url: `/users/${target.user.id}`, token: who.token, payload: { blocked: true } })).toBeApiError(403, ONLY_RESEARCHERS_USERS);
      expect(await t.api({ method: 'PUT', url: `/users/${who.user.id}`, token: who.token, payload: { blocked: false } })).toBeApiError(403, ONLY_RESEARCHERS_USERS);
      expect(await t.api({ method: 'GET', url: '/users', token: who.token })).toBeApiError(403, ONLY_RESEARCHERS_USERS);
    }
    expect(await t.api({ method: 'POST', url: '/shared-portfolios', token: teacher.token, payload: { name: 'Mine', structure: [] } })).toBeApiError(403, NO_PERMISSION);
    // A member who does not own the shared portfolio cannot invite.
    expect(await t.api({ method: 'POST', url: '/invitations', token: m1.token, payload: { to: teacher.user.id, sharedPortfolio: sp.id } })).toBeApiError(403, OWNER_ONLY);
    // Even a researcher changes nothing but `blocked`, and never on the own account.
    for (const payload of [{ blocked: false, role: 4 }, { blocked: false, password: 'taken over 1' }, { blocked: false, email: 'mine@school.example' }, { roleId: 4 }, { confirmed: false, blocked: false }]) {
      expect(await t.api({ method: 'PUT', url: `/users/${target.user.id}`, token: researcher.token, payload })).toBeApiError(400);
    }
    expect(await t.api({ method: 'PUT', url: `/users/${researcher.user.id}`, token: researcher.token, payload: { blocked: true } })).toBeApiError(403, 'You cannot block or unblock your own account.');
    expect(await t.api({ method: 'POST', url: '/invitations/outside', token: researcher.token, payload: { email: 'role2@school.example', username: 'Role Two', roleId: 2 } })).toBeApiError(400);
    expect(await snapshot(t)).toEqual(before);

    // The same calls by the right role work.
    expect(await t.api({ method: 'GET', url: '/portfolios/export', token: researcher.token })).toHaveStatus(200);
    expect(await t.api({ method: 'GET', url: '/shared-portfolios/export', token: researcher.token })).toHaveStatus(200);
    expect(await t.api({ method: 'POST', url: '/shared-portfolios', token: lead.token, payload: { name: 'Theirs', structure: [] } })).toHaveStatus(200);
  });
});

describe('#9 no private fields in any answer', () => {
  it('#9 no private fields in any answer: no password hash, reset or confirmation token, session epoch or someone else’s lock in any body', async () => {
    const { lead, m1, m2, invitee, sp, sa1, sa2 } = await team();
    const researcher = await createResearcher(t);
    const portfolio = await createPortfolio(t, m1);
    const artifact = await createArtifact(t, portfolio, { parkingLot: false });
    await createComment(t, sa1, m2, 'Nice one');
    await createReaction(t, sa1, lead);
    // A co-member asked for a reset link and holds an edit lock.
    expect(await auth(t, 'forgot-password', { email: m2.user.email })).toHaveStatus(200);
    const held = await t.api({ method: 'POST', url: `${nested(sp.id, sa2.id)}/lock`, token: m2.token });
    expect(held).toHaveStatus(200);
    const secrets = await storedSecrets(t);
    expect(secrets).toContain(held.json().lock);
    expect(secrets.length).toBeGreaterThan(5);
    const invitationId = (await t.db.query<{ id: number }>('SELECT id FROM invitations WHERE to_user_id = $1', [invitee.user.id])).rows[0]!.id;

    const get = (token: string, url: string) => t.api({ method: 'GET', url, token });
    const answers: LightMyRequestResponse[] = [
      await get(m1.token, '/users/me'),
      await t.api({ method: 'POST', url: '/token/refresh', token: m1.token }),
      await get(researcher.token, '/users'),
      await get(m1.token, '/portfolios'),
      await get(researcher.token, '/portfolios'),
      await get(m1.token, `/portfolios/${portfolio.id}`),
      await get(m1.token, '/artifacts'),
      await get(researcher.token, `/artifacts/${artifact.id}`),
      await get(m1.token, '/shared-portfolios'),
      await get(researcher.token, '/shared-portfolios'),
      await get(m1.token, `/shared-portfolios/${sp.id}`),
      await get(lead.token, `/shared-portfolios/${sp.id}/members?search=${encodeURIComponent(m1.user.email.slice(0, 6))}`),
      await get(m1.token, '/shared-artifacts'),
      await get(m1.token, `/shared-artifacts/${sa2.id}`),
      await get(m1.token, `${nested(sp.id, sa2.id)}/gate-check?updated_at=1`),
      await get(m1.token, '/comments'),
      await get(m1.token, '/reactions'),
      await get(invitee.token, '/invitations'),
      await get(lead.token, `/invitations/${invitationId}`),
      await login(m1.user.email, m1.password),
      await t.api({ method: 'PUT', url: `/shared-artifacts/${sa1.id}`, token: m1.token, payload: { responses: COMPLETE_RESPONSES, updated_at: sa1.updated_at } }),
      await t.api({ method: 'POST', url: `/artifacts/${artifact.id}/share`, token: m1.token, payload: { sharedPortfolioId: sp.id } }),
    ];
    for (const res of answers) expectNoPrivateData(res, secrets);
    // The lock holder alone gets the lock's code (to release it), and never who else might hold one.
    expectNoPrivateData(held, secrets, held.json().lock);
  });
});

describe('§12.4 answers that bypassed sanitising', () => {
  it('§12.4 the login bundle, comment answers, upload and file-delete answers and the lock answer carry only public fields', async () => {
    const { lead, m1, m2, sp, sa1 } = await team();
    const portfolio = await createPortfolio(t, m1);
    const artifact = await createArtifact(t, portfolio);
    await createComment(t, sa1, m2, 'First!');
    expect(await auth(t, 'forgot-password', { email: m2.user.email })).toHaveStatus(200);
    expect(await auth(t, 'forgot-password', { email: lead.user.email })).toHaveStatus(200);
    const secretsNow = () => storedSecrets(t);

    // POST /auth/local: portfolios (owner), sharedPortfolios (members, owner), sharedArtifacts (owner).
    const bundle = await login(m1.user.email, m1.password);
    expectNoPrivateData(bundle, await secretsNow());
    const user = bundle.json().user as Record<string, Record<string, unknown>[]>;
    expect(user['portfolios']!.length).toBeGreaterThan(0);
    expect(keySets(user['portfolios']!.map((p) => p['owner']))).toEqual(user['portfolios']!.map(() => PERSON_KEYS));
    const shared = user['sharedPortfolios']!.find((p) => p['id'] === sp.id)!;
    expect(keySets([shared['owner'], ...(shared['members'] as unknown[])])).toEqual(Array(4).fill(PERSON_KEYS));
    expect(keySets(user['sharedArtifacts']!.map((a) => a['owner']))).toEqual(user['sharedArtifacts']!.map(() => PERSON_KEYS));

    // POST / PUT / DELETE /comments: sharedArtifactComments[*] are comments, their owner a person (id, username, e-mail only).
    const created = await t.api({ method: 'POST', url: '/comments', token: m1.token, payload: { text: 'Second', sharedArtifact: sa1.id } });
    const edited = await t.api({ method: 'PUT', url: `/comments/${created.json().id}`, token: m1.token, payload: { text: 'Second, edited' } });
    const deleted = await t.api({ method: 'DELETE', url: `/comments/${created.json().id}`, token: m1.token });
    const commentKeys = Object.keys(CommentSchema.shape).sort();
    for (const res of [created, edited, deleted]) {
      expectNoPrivateData(res, await secretsNow());
      const list = res.json().sharedArtifactComments as Record<string, unknown>[];
      expect(list.length).toBeGreaterThan(0);
      expect(keySets(list)).toEqual(list.map(() => commentKeys));
      expect(keySets(list.map((c) => c['owner']))).toEqual(list.map(() => PERSON_KEYS));
    }

    // POST …/lock: the artifact, the caller's own code and its end; never who holds it or anyone's secrets.
    const lock = await t.api({ method: 'POST', url: `${nested(sp.id, sa1.id)}/lock`, token: m1.token });
    expectNoPrivateData(lock, await secretsNow(), lock.json().lock);
    expect(Object.keys(lock.json()).sort()).toEqual([...Object.keys(SharedArtifactSchema.shape), 'lock', 'lockedUntil'].sort());
    expect(Object.keys(lock.json().owner).sort()).toEqual(PERSON_KEYS);

    // Upload and file-delete answers: parentArtifact / parentSharedArtifact, even while the uploader holds the lock.
    const sharedUpload = await upload(t, m1.token, `${nested(sp.id, sa1.id)}/documents`, multipart('file', 'plan.pdf', pdfDocument()));
    const personalUpload = await upload(t, m1.token, `/portfolios/${portfolio.id}/artifacts/${artifact.id}/documents`, multipart('file', 'plan.pdf', pdfDocument()));
    const sharedRemove = await t.api({ method: 'DELETE', url: `${nested(sp.id, sa1.id)}/documents/${sharedUpload.json().id}`, token: m1.token });
    const personalRemove = await t.api({ method: 'DELETE', url: `/portfolios/${portfolio.id}/artifacts/${artifact.id}/documents/${personalUpload.json().id}`, token: m1.token });
    for (const res of [sharedUpload, personalUpload, sharedRemove, personalRemove]) expectNoPrivateData(res, await secretsNow());
    for (const res of [sharedUpload, sharedRemove]) {
      expect(Object.keys(res.json().parentSharedArtifact).sort()).toEqual(Object.keys(SharedArtifactSchema.shape).sort());
      expect(Object.keys(res.json().parentSharedArtifact.owner).sort()).toEqual(PERSON_KEYS);
    }
    for (const res of [personalUpload, personalRemove]) {
      expect(Object.keys(ArtifactMediaResponseSchema.parse(res.json()).parentArtifact.owner).sort()).toEqual(PERSON_KEYS);
    }
  });
});

describe('#10 no user enumeration or directory exposure', () => {
  it('#10 no user enumeration or directory exposure: the same answers for known and unknown people; people to invite only by a search, at most 20', async () => {
    const teacher = await createTeacher(t);
    const blocked = await createUser(t, { blocked: true });
    const sentBefore = t.mail.sent.length;
    const answers = [teacher.user.email, `nobody-${Date.now().toString(36)}@school.example`, blocked.user.email].map((email) => auth(t, 'forgot-password', { email }));
    const [known, unknown, blockedAnswer] = await Promise.all(answers);
    expect(known).toHaveStatus(200);
    expect(unknown!.body).toBe(known!.body);
    expect(blockedAnswer!.body).toBe(known!.body);
    expect(unknown!.statusCode).toBe(known!.statusCode);
    await t.mail.settled();
    expect(t.mail.sent.slice(sentBefore).map((m) => m.to)).toEqual([teacher.user.email]);

    const wrongPassword = await login(teacher.user.email, 'not the password');
    const noSuchUser = await login(`ghost-${Date.now().toString(36)}@school.example`, 'not the password');
    expect(wrongPassword.body).toBe(noSuchUser.body);
    // Only researchers may learn that an address is taken.
    expect(await t.api({ method: 'POST', url: '/invitations/outside', token: teacher.token, payload: { email: blocked.user.email, username: 'Someone', roleId: 1 } })).toBeApiError(
      403,
      ONLY_RESEARCHERS_USERS,
    );

    const { lead, m1, sp } = await team();
    const tag = `zx${Date.now().toString(36)}`;
    for (let i = 0; i < 25; i += 1) await createUser(t, { email: `${tag}-${i}@school.example` });
    const list = (query: string, token = lead.token) => t.api({ method: 'GET', url: `/shared-portfolios/${sp.id}/members${query}`, token });
    expect(MembersResponseSchema.parse((await list('')).json()).nonMembers).toEqual([]);
    expect(MembersResponseSchema.parse((await list('?search=z')).json()).nonMembers).toEqual([]);
    expect(MembersResponseSchema.parse((await list('?search=%40')).json()).nonMembers).toEqual([]);
    expect(MembersResponseSchema.parse((await list(`?search=${tag}`)).json()).nonMembers).toHaveLength(20);
    expect(await list(`?search=${tag}`, m1.token)).toBeApiError(403, OWNER_ONLY);
    expect(await list(`?search=${tag}`, teacher.token)).toBeApiError(404, SHARED_NOT_FOUND);
    // Members' addresses are not shown to outsiders.
    expect(await t.api({ method: 'GET', url: `/shared-portfolios/${sp.id}`, token: teacher.token })).toBeApiError(404, SHARED_NOT_FOUND);
  });
});

describe('#11 media are private and safe', () => {
  it('#11 media are private and safe: files need a reader (a capability address signed for them), names are unguessable, SVG/HTML are never images or videos, PDFs open sandboxed and other documents download with a neutral type and nosniff, removed files are deleted', async () => {
    const owner = await createTeacher(t);
    const stranger = await createTeacher(t);
    const portfolio = await createPortfolio(t, owner);
    const artifact = await createArtifact(t, portfolio);
    const base = `/portfolios/${portfolio.id}/artifacts/${artifact.id}`;
    const first = await upload(t, owner.token, `${base}/documents`, multipart('file', 'plan.pdf', pdfDocument()));
    const second = await upload(t, owner.token, `${base}/documents`, multipart('file', 'plan.pdf', pdfDocument()));
    const [a, b] = [ArtifactMediaResponseSchema.parse(first.json()), ArtifactMediaResponseSchema.parse(second.json())];
    // A capability (user, expiry, 128-bit signature), then 24 random URL-safe characters (144 bits), different for the same bytes.
    const ADDRESS = /^\/uploads\/[0-9a-z]+\.[0-9a-z]+\.[A-Za-z0-9_-]{22}\/[A-Za-z0-9_-]{24}\.pdf$/;
    expect(a.url).toMatch(ADDRESS);
    expect(b.url).toMatch(ADDRESS);
    expect(a.url.split('/').pop()).not.toBe(b.url.split('/').pop());

    const fetchFile = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers });
    const name = a.url.split('/').pop()!;
    const [, , capability] = a.url.split('/');
    // The bare name, a session, someone else's capability, a tampered or borrowed one: nothing.
    expect(await fetchFile(`/uploads/${name}`, { authorization: `Bearer ${owner.token}` })).toHaveStatus(404);
    expect(await fetchFile(t.app.services.media.signFor(stranger.user.id)(a.url))).toBeApiError(404, FILE_NOT_FOUND);
    const tampered = `${capability!.slice(0, -1)}${capability!.endsWith('A') ? 'B' : 'A'}`;
    expect(await fetchFile(`/uploads/${tampered}/${name}`)).toBeApiError(404, FILE_NOT_FOUND);
    expect(await fetchFile(`/uploads/${capability}/${b.url.split('/').pop()}`)).toBeApiError(404, FILE_NOT_FOUND);
    expect(await fetchFile(`/uploads/${capability}/AAAAAAAAAAAAAAAAAAAAAAAA.pdf`)).toBeApiError(404, FILE_NOT_FOUND);
    const served = await fetchFile(a.url);
    expect(served).toHaveStatus(200);
    // A PDF (read as one from its bytes) opens in the browser's viewer, sandboxed (issue 20, 15).
    expect(served.headers['content-type']).toBe('application/pdf');
    expect(served.headers['content-disposition']).toBe("inline; filename*=UTF-8''plan.pdf");
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.headers['content-security-policy']).toContain('sandbox');
    expect(served.headers['cross-origin-resource-policy']).toBe('same-origin');
    // Every other document downloads with a neutral type.
    const other = ArtifactMediaResponseSchema.parse(
      (await upload(t, owner.token, `${base}/documents`, multipart('file', 'data.bin', Buffer.from([0, 1, 2, 3, 254, 255, 0, 7])))).json(),
    );
    const download = await fetchFile(other.url);
    expect(download).toHaveStatus(200);
    expect(download.headers['content-type']).toBe('application/octet-stream');
    expect(download.headers['content-disposition']).toBe("attachment; filename*=UTF-8''data.bin");
    expect(download.headers['x-content-type-options']).toBe('nosniff');

    const before = await snapshot(t);
    for (const kind of ['images', 'videos'] as const) {
      for (const [content, fileName, type] of [
        [svgImage(), 'drawing.svg', 'image/svg+xml'],
        [htmlPage(), 'page.html', 'text/html'],
        [svgImage(), 'drawing.png', 'image/png'],
      ] as const) {
        expect(await upload(t, owner.token, `${base}/${kind}`, multipart('file', fileName, content, type)), `${kind} ${fileName}`).toBeApiError(400, /^This file is /);
      }
    }
    expect(await snapshot(t)).toEqual(before);

    // HTML or SVG as a document is kept, and only ever downloaded, never rendered.
    for (const [content, fileName] of [
      [htmlPage(), 'notes.txt'],
      [htmlPage(), 'page.html'],
      [svgImage(), 'drawing.svg'],
    ] as const) {
      const doc = ArtifactMediaResponseSchema.parse((await upload(t, owner.token, `${base}/documents`, multipart('file', fileName, content, 'text/html'))).json());
      const download = await fetchFile(doc.url);
      expect(download).toHaveStatus(200);
      expect(download.headers['content-type']).toBe('application/octet-stream');
      expect(download.headers['content-disposition']).toBe(`attachment; filename*=UTF-8''${fileName}`);
      expect(download.headers['x-content-type-options']).toBe('nosniff');
    }

    // A removed file is deleted from disk and no longer served.
    const onDisk = (url: string) => existsSync(path.join(t.config.dataDir, 'uploads', url.split('/').pop()!));
    expect(onDisk(a.url)).toBe(true);
    expect(await t.api({ method: 'DELETE', url: `${base}/documents/${a.id}`, token: owner.token })).toHaveStatus(200);
    expect(onDisk(a.url)).toBe(false);
    expect(await fetchFile(a.url)).toBeApiError(404, FILE_NOT_FOUND);
  });
});

/** The rows of a CSV text, each a list of its cells. */
const parseCsv = (text: string): string[][] => parse(text, { relaxColumnCount: true });

describe('#12 no CSV formula injection', () => {
  it('#12 no CSV formula injection: names, usernames and e-mails starting with = + - @ are neutralised in both exports', async () => {
    const tag = Date.now().toString(36);
    const researcher = await createResearcher(t);
    const teacher = await createUser(t, { username: `=HYPERLINK("http://evil.example","${tag}")`, email: `-teacher-${tag}@school.example` });
    await createPortfolio(t, teacher, { name: `+SUM(1,1)${tag}` });
    const lead = await createUser(t, { roleId: 3, username: `@lead ${tag}`, email: `=lead-${tag}@school.example` });
    await createPortfolio(t, lead, { name: `-lead notes ${tag}` });
    const sp = await createSharedPortfolio(t, lead, { name: `@SUM(A1)${tag}`, members: [teacher] });
    const sa = await createSharedArtifact(t, sp, teacher);
    await createComment(t, sa, teacher);

    const teacherCsv = await t.api({ method: 'GET', url: '/portfolios/export', token: researcher.token });
    const sharedCsv = await t.api({ method: 'GET', url: '/shared-portfolios/export', token: researcher.token });
    expect(teacherCsv).toHaveStatus(200);
    expect(sharedCsv).toHaveStatus(200);
    const teacherRows = parseCsv(teacherCsv.body);
    const sharedRows = parseCsv(sharedCsv.body);
    expect(teacherRows.find((r) => r[1] === `'+SUM(1,1)${tag}`)?.[0]).toBe(`'=HYPERLINK("http://evil.example","${tag}")`);
    expect(teacherRows.find((r) => r[0] === `'@lead ${tag}`)?.[1]).toBe(`'-lead notes ${tag}`);
    const row = sharedRows.find((r) => r[0] === `'@SUM(A1)${tag}`);
    expect(row?.slice(1, 3)).toEqual([`'=lead-${tag}@school.example`, `'-teacher-${tag}@school.example`]);
    expect(row?.[11]).toBe(`'-teacher-${tag}@school.example`);
    // No cell of either file starts a formula.
    for (const cell of [...teacherRows, ...sharedRows].flat()) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
  });
});

describe('#13 no HTML injection in e-mails', () => {
  it('#13 no HTML injection in e-mails: shared portfolio names, inviters and usernames are escaped in the HTML of every message', async () => {
    const tag = Date.now().toString(36);
    const lead = await createUser(t, { roleId: 3, username: `<img src=x onerror=alert(1)>Lead ${tag}` });
    const teacher = await createUser(t, { username: `<b>Bold ${tag}</b>` });
    const name = `<script>alert("${tag}")</script> & Co`;
    const sp = await createSharedPortfolio(t, lead, { name });
    const newcomer = `newcomer.${tag}@school.example`;
    expect(await t.api({ method: 'POST', url: '/invitations', token: lead.token, payload: { to: teacher.user.id, sharedPortfolio: sp.id } })).toHaveStatus(200);
    expect(await t.api({ method: 'POST', url: '/invitations', token: lead.token, payload: { email: newcomer, sharedPortfolio: sp.id } })).toHaveStatus(200);
    expect(await auth(t, 'forgot-password', { email: teacher.user.email })).toHaveStatus(200);
    const reset = t.mail.lastTo(teacher.user.email)!;
    const welcome = t.mail.lastTo(newcomer)!;
    expect(reset.subject).toBe('Reset your PracticeFolio password');
    expect(welcome.subject).toBe('You are invited to PracticeFolio');
    const invitationMail = t.mail.sent.find((m) => m.to === teacher.user.email && m.subject === 'Invitation to join a shared portfolio')!;
    expect(invitationMail).toBeDefined();
    for (const mail of [invitationMail, welcome, reset]) {
      expect(mail.html).not.toMatch(/<script|<img|<b>/);
    }
    for (const mail of [invitationMail, welcome]) {
      expect(mail.html).toContain(`&lt;script&gt;alert(&quot;${tag}&quot;)&lt;/script&gt; &amp; Co`);
      expect(mail.html).toContain(`&lt;img src=x onerror=alert(1)&gt;Lead ${tag}`);
    }
    expect(invitationMail.html).toContain(`&lt;b&gt;Bold ${tag}&lt;/b&gt;`);
    expect(reset.html).toContain(`&lt;b&gt;Bold ${tag}&lt;/b&gt;`);
  });
});

describe('#14 bounded work per request', async () => {
  const q = await buildTestApp({ queryCountHeader: true, uploadLimitBytes: 64 * 1024 });

  it('#14 bounded work per request: the SQL statements of list, detail and login requests do not grow with the data', async () => {
    const lead = await createLead(q);
    const member = await createTeacher(q);
    const researcher = await createResearcher(q);
    const sp = await createSharedPortfolio(q, lead, { members: [member] });
    const sa = await createSharedArtifact(q, sp, member);
    await createComment(q, sa, lead);
    await createReaction(q, sa, lead);
    await createArtifact(q, await createPortfolio(q, member));

    const requests: [string, () => Promise<LightMyRequestResponse>][] = [
      ['GET /shared-artifacts', () => q.api({ method: 'GET', url: '/shared-artifacts', token: member.token })],
      ['GET /comments', () => q.api({ method: 'GET', url: '/comments', token: member.token })],
      ['GET /reactions', () => q.api({ method: 'GET', url: '/reactions', token: member.token })],
      ['GET /shared-artifacts/{id}', () => q.api({ method: 'GET', url: `/shared-artifacts/${sa.id}`, token: member.token })],
      ['GET /shared-portfolios (member)', () => q.api({ method: 'GET', url: '/shared-portfolios', token: member.token })],
      ['GET /shared-portfolios (researcher)', () => q.api({ method: 'GET', url: '/shared-portfolios', token: researcher.token })],
      ['GET /shared-portfolios/{id}', () => q.api({ method: 'GET', url: `/shared-portfolios/${sp.id}`, token: member.token })],
      ['GET /portfolios (researcher)', () => q.api({ method: 'GET', url: '/portfolios', token: researcher.token })],
      ['GET /artifacts', () => q.api({ method: 'GET', url: '/artifacts', token: member.token })],
      ['GET /users', () => q.api({ method: 'GET', url: '/users', token: researcher.token })],
      ['GET /shared-portfolios/{id}/members?search=', () => q.api({ method: 'GET', url: `/shared-portfolios/${sp.id}/members?search=example`, token: lead.token })],
      ['POST /auth/local', () => login(member.user.email, member.password, q)],
    ];
    const measure = async () => {
      const counts: Record<string, number> = {};
      const sizes: Record<string, number> = {};
      for (const [name, call] of requests) {
        const res = await call();
        expect(res, name).toHaveStatus(200);
        counts[name] = Number(res.headers['x-query-count']);
        sizes[name] = res.body.length;
      }
      return { counts, sizes };
    };
    // Measured with the signed-in principals already known (as on a running server), so that the
    // first request's authentication is not counted against the small data set.
    await measure();
    const small = await measure();
    for (const n of Object.values(small.counts)) expect(n).toBeGreaterThan(0);

    // Many more people, shared portfolios (the member's and others'), artifacts, comments and reactions.
    for (let i = 0; i < 30; i += 1) await createTeacher(q);
    for (let i = 0; i < 12; i += 1) {
      const mine = await createSharedPortfolio(q, lead, { members: [member] });
      const theirs = await createSharedPortfolio(q, lead);
      for (const target of [mine, theirs]) {
        for (let j = 0; j < 2; j += 1) {
          const artifact = await createSharedArtifact(q, target, target === mine ? member : lead);
          await attachMedia(q, 'sharedArtifact', artifact.id);
          await createComment(q, artifact, lead);
          await createReaction(q, artifact, lead);
        }
      }
      await createArtifact(q, await createPortfolio(q, member));
    }
    await createComment(q, sa, member);
    const large = await measure();
    expect(large.counts).toEqual(small.counts);
    // The answers did grow: the same number of statements served much more data.
    for (const name of ['GET /shared-artifacts', 'GET /comments', 'GET /reactions', 'GET /shared-portfolios (researcher)', 'GET /users', 'POST /auth/local']) {
      expect(large.sizes[name], name).toBeGreaterThan(small.sizes[name]! * 2);
    }
  });

  it('#14 bounded work per request: an upload streams to disk as it arrives and a too large one is refused with 413 before its body ends', async () => {
    const owner = await createTeacher(q);
    const portfolio = await createPortfolio(q, owner);
    const artifact = await createArtifact(q, portfolio);
    const before = await snapshot(q);
    const boundary = '----pfStreamBoundary';
    const body = new PassThrough();
    const answer = q.api({
      method: 'POST',
      url: `/portfolios/${portfolio.id}/artifacts/${artifact.id}/documents`,
      token: owner.token,
      payload: body,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    body.write(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="huge.pdf"\r\nContent-Type: application/pdf\r\n\r\n`);
    body.write(Buffer.concat([pdfDocument(), Buffer.alloc(20_000, 0x20)]));
    // The bytes sent so far are on disk while the request is still arriving.
    const incomingSize = () => {
      const incoming = uploadedFiles(q).filter((f) => f.startsWith('.incoming/'));
      return incoming.length === 1 ? statSync(path.join(q.config.dataDir, 'uploads', incoming[0]!)).size : 0;
    };
    for (let i = 0; i < 250 && incomingSize() < 20_000; i += 1) await new Promise((r) => setTimeout(r, 20));
    expect(incomingSize()).toBeGreaterThanOrEqual(20_000);
    // Past the limit (64 KB) the answer comes at once, without waiting for the rest of the body.
    for (let i = 0; i < 8; i += 1) body.write(Buffer.alloc(8_000, 0x20));
    const res = await answer;
    expect(body.writableEnded).toBe(false);
    body.end(`\r\n--${boundary}--\r\n`);
    expect(res).toBeApiError(413, 'This file is too large. Files can be at most 64 KB.');
    expect(uploadedFiles(q)).toEqual([]);
    expect(await snapshot(q)).toEqual(before);
  });
});

describe('#15 token handling', () => {
  it('#15 token handling: the mobile apps get no cookie, a cookie without the portal’s own request changes nothing (cross-site forms and scripts), tokens live 30 days and a password change or block ends them', async () => {
    const user = await createTeacher(t);
    const researcher = await createResearcher(t);
    const portfolio = await createPortfolio(t, user);
    const artifact = await createArtifact(t, portfolio);
    const signedIn = await login(user.user.email, user.password);
    expect(signedIn).toHaveStatus(200);
    expect(signedIn.headers['set-cookie']).toBeUndefined();
    const { jwt } = AuthResponseSchema.parse(signedIn.json());
    const claims = claimsOf(jwt);
    expect(claims.exp - claims.iat).toBeGreaterThanOrEqual(SESSION_TTL_SECONDS - 1);
    expect(claims.exp - claims.iat).toBeLessThanOrEqual(30 * 24 * 60 * 60);

    // A cross-site form or script carries the cookie but cannot add the portal's own header.
    const before = await snapshot(t);
    const cookieOnly: InjectOptions[] = [
      { method: 'POST', url: '/portfolios', payload: { name: 'Forged' } },
      { method: 'PUT', url: `/artifacts/${artifact.id}`, payload: { responses: COMPLETE_RESPONSES } },
      { method: 'DELETE', url: `/artifacts/${artifact.id}` },
      { method: 'PUT', url: `/users/${user.user.id}`, payload: { blocked: true } },
      { method: 'POST', url: '/token/refresh' },
    ];
    for (const request of cookieOnly) expect(await withCookie(t, request, jwt), `${request.method} ${request.url}`).toBeApiError(403, CROSS_SITE_MESSAGE);
    expect(await snapshot(t)).toEqual(before);
    // Reads take it (the web app's calls, links, <img> and downloads); another site cannot read the answers.
    expect(await withCookie(t, { method: 'GET', url: `/portfolios/${portfolio.id}` }, jwt)).toHaveStatus(200);
    expect(await withCookie(t, { method: 'GET', url: '/portfolios/export' }, researcher.token)).toHaveStatus(200);

    // A refreshed token belongs to the same session; a password reset ends every token of it.
    const refreshed = (await t.api({ method: 'POST', url: '/token/refresh', token: jwt })).json().jwt as string;
    expect(await t.api({ method: 'GET', url: '/users/me', token: refreshed })).toHaveStatus(200);
    expect(await auth(t, 'forgot-password', { email: user.user.email })).toHaveStatus(200);
    const reset = await auth(t, 'reset-password', { code: codeMailedTo(t.mail, user.user.email), password: 'a fresh password', passwordConfirmation: 'a fresh password' });
    expect(reset).toHaveStatus(200);
    expect(reset.headers['set-cookie']).toBeUndefined();
    for (const old of [jwt, refreshed, user.token]) expect(await t.api({ method: 'GET', url: '/users/me', token: old })).toBeApiError(401, SESSION_ENDED);
    const current = AuthResponseSchema.parse(reset.json()).jwt;
    expect(await t.api({ method: 'GET', url: '/users/me', token: current })).toHaveStatus(200);

    // Blocking ends the session at once, and unblocking does not bring old tokens back.
    expect(await t.api({ method: 'PUT', url: `/users/${user.user.id}`, token: researcher.token, payload: { blocked: true } })).toHaveStatus(200);
    expect(await t.api({ method: 'GET', url: '/users/me', token: current })).toBeApiError(401, BLOCKED_SESSION);
    expect(await t.api({ method: 'PUT', url: `/users/${user.user.id}`, token: researcher.token, payload: { blocked: false } })).toHaveStatus(200);
    expect(await t.api({ method: 'GET', url: '/users/me', token: current })).toBeApiError(401, SESSION_ENDED);
    // A token of the right shape for another user id does not work without the secret.
    const forged = await new TokenService('another secret that is long enough!!').sign({ id: researcher.user.id, epoch: 0 });
    expect(await t.api({ method: 'GET', url: '/users/me', token: forged })).toBeApiError(401, INVALID_TOKEN);
  });
});

describe('#16 write rights inside shared portfolios', () => {
  it('#16 write rights inside shared portfolios are bounded: only members and researchers write, an edit lock is exclusive, stale saves and discussed deletes are refused, others’ comments are untouchable, an unlink never deletes the author’s own file', async () => {
    const { lead, m1, m2, invitee, former, sp, sa1, file1 } = await team();
    const researcher = await createResearcher(t);
    const outsider = await createTeacher(t);
    const otherLead = await createLead(t);
    await createSharedPortfolio(t, otherLead, { members: [outsider] });
    const writes = (who: TestUser) => [
      t.api({ method: 'PUT', url: `/shared-artifacts/${sa1.id}`, token: who.token, payload: { responses: { ...COMPLETE_RESPONSES, team1: 'Overwritten' } } }),
      t.api({ method: 'PUT', url: `${nested(sp.id, sa1.id)}/responses`, token: who.token, payload: { responses: { team1: 'Overwritten' } } }),
      upload(t, who.token, `${nested(sp.id, sa1.id)}/documents`, multipart('file', 'x.pdf', pdfDocument())),
      t.api({ method: 'DELETE', url: `${nested(sp.id, sa1.id)}/documents/${file1}`, token: who.token }),
      t.api({ method: 'DELETE', url: `/shared-artifacts/${sa1.id}`, token: who.token }),
    ];
    let before = await snapshot(t);
    for (const who of [outsider, otherLead, invitee, former]) {
      for (const res of await Promise.all(writes(who))) expect(res).toBeApiError(404, SHARED_ARTIFACT_NOT_FOUND);
      expect(await t.api({ method: 'POST', url: `${nested(sp.id, sa1.id)}/lock`, token: who.token })).toBeApiError(404, SHARED_ARTIFACT_NOT_FOUND);
    }
    expect(await snapshot(t)).toEqual(before);

    // While its author edits, nobody else writes to the artifact (not even a researcher or the owner of the shared portfolio).
    const lock = await t.api({ method: 'POST', url: `${nested(sp.id, sa1.id)}/lock`, token: m1.token });
    expect(lock).toHaveStatus(200);
    before = await snapshot(t);
    for (const who of [m2, lead, researcher]) {
      for (const res of await Promise.all(writes(who))) expect(res).toBeApiError(423, /^This artifact is being edited by /);
    }
    expect(await snapshot(t)).toEqual(before);
    expect(await t.api({ method: 'POST', url: `${nested(sp.id, sa1.id)}/unlock`, token: m1.token, payload: { lock: lock.json().lock } })).toHaveStatus(200);

    // A save based on an older version cannot silently overwrite a newer one.
    const saved = await t.api({ method: 'PUT', url: `/shared-artifacts/${sa1.id}`, token: m1.token, payload: { responses: { ...COMPLETE_RESPONSES, team1: 'Author' }, updated_at: sa1.updated_at } });
    expect(saved).toHaveStatus(200);
    before = await snapshot(t);
    expect(await t.api({ method: 'PUT', url: `/shared-artifacts/${sa1.id}`, token: m2.token, payload: { responses: COMPLETE_RESPONSES, updated_at: sa1.updated_at } })).toBeApiError(
      409,
      /^This artifact has recently been saved by someone else at /,
    );
    expect(await snapshot(t)).toEqual(before);

    // Once discussed, a shared artifact cannot be deleted by anybody; a comment belongs to its author alone.
    const commentId = await createComment(t, sa1, m1, 'My own words');
    before = await snapshot(t);
    for (const who of [m1, m2, lead, researcher]) expect(await t.api({ method: 'DELETE', url: `/shared-artifacts/${sa1.id}`, token: who.token })).toBeApiError(400, HAS_ACTIVITY);
    for (const who of [m2, lead, researcher]) {
      expect(await t.api({ method: 'PUT', url: `/comments/${commentId}`, token: who.token, payload: { text: 'Not what I said' } })).toBeApiError(403, NOT_YOURS);
      expect(await t.api({ method: 'DELETE', url: `/comments/${commentId}`, token: who.token })).toBeApiError(403, NOT_YOURS);
    }
    expect(await snapshot(t)).toEqual(before);

    // A member may unlink a file from a shared copy, but the author's own artifact keeps it, on disk and served.
    const portfolio = await createPortfolio(t, m1);
    const own = await createArtifact(t, portfolio, { parkingLot: false });
    const file = ArtifactMediaResponseSchema.parse(
      (await upload(t, m1.token, `/portfolios/${portfolio.id}/artifacts/${own.id}/documents`, multipart('file', 'plan.pdf', pdfDocument()))).json(),
    );
    const copy = await t.api({ method: 'POST', url: `/artifacts/${own.id}/share`, token: m1.token, payload: { sharedPortfolioId: sp.id } });
    expect(copy).toHaveStatus(200);
    expect(await t.api({ method: 'DELETE', url: `${nested(sp.id, copy.json().id)}/documents/${file.id}`, token: m2.token })).toHaveStatus(200);
    expect(existsSync(path.join(t.config.dataDir, 'uploads', file.url.split('/').pop()!))).toBe(true);
    expect((await t.api({ method: 'GET', url: `/artifacts/${own.id}`, token: m1.token })).json().documents.map((d: { id: number }) => d.id)).toEqual([file.id]);
    expect(await t.app.inject({ method: 'GET', url: `/api/v1${file.url}` })).toHaveStatus(200);

    // Researchers never write teachers' personal work.
    before = await snapshot(t);
    expect(await t.api({ method: 'PUT', url: `/artifacts/${own.id}`, token: researcher.token, payload: { responses: COMPLETE_RESPONSES } })).toBeApiError(403, RESEARCHER_READ_ONLY);
    expect(await t.api({ method: 'DELETE', url: `/artifacts/${own.id}`, token: researcher.token })).toBeApiError(403, RESEARCHER_READ_ONLY);
    expect(await t.api({ method: 'PUT', url: `/portfolios/${portfolio.id}`, token: researcher.token, payload: { name: 'Renamed' } })).toBeApiError(403, RESEARCHER_READ_ONLY);
    expect(await upload(t, researcher.token, `/portfolios/${portfolio.id}/artifacts/${own.id}/documents`, multipart('file', 'x.pdf', pdfDocument()))).toBeApiError(403, RESEARCHER_READ_ONLY);
    expect(await t.api({ method: 'DELETE', url: `/portfolios/${portfolio.id}/artifacts/${own.id}/documents/${file.id}`, token: researcher.token })).toBeApiError(403, RESEARCHER_READ_ONLY);
    expect(await snapshot(t)).toEqual(before);
  });
});

describe('#17 rate limiting', () => {
  it('#17 rate limiting: log-in guesses slow down per account and address without locking out the user, reset e-mails per address, wrong reset codes and requests per client address are limited', async () => {
    // Guessing from one address slows down after 5 failures (e-mail and username are one account),
    // and the account's own user is never locked out from another device.
    const victim = await createTeacher(t);
    const guesser1 = freshAddress();
    for (let i = 0; i < 5; i += 1) expect(await auth(t, 'local', { identifier: i % 2 ? victim.user.username : victim.user.email, password: `guess ${i}` }, guesser1)).toBeApiError(400, INVALID_LOGIN);
    expect(await auth(t, 'local', { identifier: victim.user.username, password: 'guess 5' }, guesser1)).toBeApiError(429, 'Too many failed login attempts. Please wait 1 second and try again.', { nested: true });
    const home = freshAddress();
    expect(await auth(t, 'local', { identifier: victim.user.email, password: victim.password }, home)).toHaveStatus(200);
    // 50 failures from many addresses: past 20 on the account, every address that never signed in
    // to it waits, longer with each failure (issue 21 #6); the user's own address does not.
    for (let i = 0; i < 50; i += 1) await auth(t, 'local', { identifier: victim.user.email, password: `spray ${i}` }, `10.99.${Math.floor(i / 200)}.${i % 200}`);
    expect(await auth(t, 'local', { identifier: victim.user.email, password: 'spray 0' }, '10.99.0.0')).toBeApiError(429, /^Too many failed login attempts\. Please wait ([0-9]+ seconds?|[0-9]+ minutes?) and try again\.$/, { nested: true });
    expect(await auth(t, 'local', { identifier: victim.user.email, password: victim.password }, home)).toHaveStatus(200);

    // 5 reset e-mails per address and requester an hour (issue 21 #7: another requester is not held back).
    const forgetful = await createTeacher(t);
    const sentBefore = t.mail.sent.length;
    const requester = freshAddress();
    for (let i = 0; i < 5; i += 1) expect(await auth(t, 'forgot-password', { email: forgetful.user.email }, requester)).toHaveStatus(200);
    expect(await auth(t, 'forgot-password', { email: forgetful.user.email.toUpperCase() }, requester)).toBeApiError(429, 'Too many reset requests for this address. Please wait an hour and try again.', {
      nested: true,
    });
    await t.mail.settled();
    expect(t.mail.sent.slice(sentBefore).filter((m) => m.to === forgetful.user.email)).toHaveLength(5);

    // 20 wrong reset codes per client address and hour.
    const guesser = freshAddress();
    for (let i = 0; i < 20; i += 1) {
      expect(await auth(t, 'reset-password', { code: `wrong-${i}`, password: 'new password 1', passwordConfirmation: 'new password 1' }, guesser)).toBeApiError(400, INCORRECT_CODE);
    }
    expect(await auth(t, 'reset-password', { code: 'wrong-again', password: 'new password 1', passwordConfirmation: 'new password 1' }, guesser)).toBeApiError(
      429,
      'Too many attempts. Please wait an hour and try again.',
      { nested: true },
    );

    // 300 requests a minute per client address on each auth route.
    const flooder = freshAddress();
    for (let i = 0; i < 300; i += 1) expect((await auth(t, 'forgot-password', {}, flooder)).statusCode).toBe(400);
    const someone = await createTeacher(t);
    expect(await auth(t, 'forgot-password', { email: someone.user.email }, flooder)).toBeApiError(429, /^Too many attempts, please try again in /, { nested: true });
    expect(await auth(t, 'forgot-password', { email: someone.user.email })).toHaveStatus(200);
  }, 120_000);
});

/** Reads a raw connection until the server closes it: what it said, and after how long. */
function untilClosed(socket: Socket, limitMs = 10_000): Promise<{ text: string; ms: number }> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the server kept the connection open for ${limitMs} ms; it said: ${text.slice(0, 200)}`));
    }, limitMs);
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ text, ms: Date.now() - started });
    });
  });
}

describe('#18 slow clients', async () => {
  const slow = await buildTestApp({ timeouts: { ...DEFAULT_TIMEOUTS, bodyMs: 400, idleMs: 1_000 } });
  let port = 0;
  beforeAll(async () => {
    await slow.app.listen({ port: 0, host: '127.0.0.1' });
    port = (slow.app.server.address() as AddressInfo).port;
  });

  it('#18 slow clients cannot hold the server: a trickled body is cut with 408, a stalled upload and a silent connection are closed, a normal request still works', async () => {
    // A login whose body never completes (the slow-body attack held /auth/local for 150 s).
    const trickle = connect(port, '127.0.0.1');
    trickle.write('POST /api/v1/auth/local HTTP/1.1\r\nhost: localhost\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"identifier":"a');
    const keepTrickling = setInterval(() => trickle.write(' '), 100);
    const cut = await untilClosed(trickle);
    clearInterval(keepTrickling);
    expect(cut.text).toMatch(/^HTTP\/1\.1 408 Request Timeout/);
    expect(cut.ms).toBeLessThan(3_000);

    // An upload that stops sending is closed once it has been silent for the idle time.
    const teacher = await createTeacher(slow);
    const portfolio = await createPortfolio(slow, teacher);
    const artifact = await createArtifact(slow, portfolio);
    const stalled = connect(port, '127.0.0.1');
    stalled.write(
      `POST /api/v1/portfolios/${portfolio.id}/artifacts/${artifact.id}/documents HTTP/1.1\r\nhost: localhost\r\nauthorization: Bearer ${teacher.token}\r\n` +
        'content-type: multipart/form-data; boundary=XYZ\r\ncontent-length: 100000\r\n\r\n--XYZ\r\ncontent-disposition: form-data; name="myFile"; filename="a.pdf"\r\n\r\n%PDF-1.4',
    );
    expect((await untilClosed(stalled)).ms).toBeLessThan(5_000);

    // A connection that says nothing is closed too.
    const silent = connect(port, '127.0.0.1');
    expect((await untilClosed(silent)).ms).toBeLessThan(5_000);

    // Nothing was stored, and an ordinary client is served as before.
    expect(await countRows(slow, 'media_files')).toBe(0);
    const health = await fetch(`http://127.0.0.1:${port}/api/v1/health`);
    expect(health.status).toBe(200);
  }, 30_000);
});

describe('#19 files for this account only', () => {
  it('#19 files for this account only: the data folder is 0700 (even one made before), uploads and their formats 0600, the outbox 0700 with 0600 messages and no link in the log', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'pf-modes-'));
    chmodSync(dataDir, 0o755);
    loadConfig({ DATA_DIR: dataDir, JWT_SECRET: 'x'.repeat(40) });
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    rmSync(dataDir, { recursive: true, force: true });

    const owner = await createTeacher(t);
    const portfolio = await createPortfolio(t, owner);
    const artifact = await createArtifact(t, portfolio);
    const res = await upload(t, owner.token, `/portfolios/${portfolio.id}/artifacts/${artifact.id}/images`, multipart('file', 'a.png', await pngImage(60, 40)));
    const image = ArtifactMediaResponseSchema.parse(res.json());
    const uploads = path.join(t.config.dataDir, 'uploads');
    expect(statSync(uploads).mode & 0o777).toBe(0o700);
    for (const url of [image.url, ...Object.values(image.formats ?? {}).map((f) => f!.url)]) {
      expect(statSync(path.join(uploads, url.split('/').pop()!)).mode & 0o777, url).toBe(0o600);
    }

    const outboxDir = mkdtempSync(path.join(os.tmpdir(), 'pf-outbox-'));
    const lines: string[] = [];
    const log = { info: (data: unknown, msg: string) => lines.push(JSON.stringify([data, msg])) } as unknown as FastifyBaseLogger;
    await createMailer({ smtpUrl: null, from: 'PracticeFolio <a@b.c>', outboxDir: path.join(outboxDir, 'outbox'), log }).send({
      to: 'ada@example.org',
      subject: 'Reset your PracticeFolio password',
      text: 'http://portal.test/reset-password/secret-code',
      html: '<a href="http://portal.test/reset-password/secret-code">Reset</a>',
      links: ['http://portal.test/reset-password/secret-code'],
    });
    expect(statSync(path.join(outboxDir, 'outbox')).mode & 0o777).toBe(0o700);
    for (const file of readdirSync(path.join(outboxDir, 'outbox'))) expect(statSync(path.join(outboxDir, 'outbox', file)).mode & 0o777).toBe(0o600);
    expect(lines.join('\n')).not.toContain('secret-code');
    rmSync(outboxDir, { recursive: true, force: true });
  });
});

describe('#20 password hashing', () => {
  it('#20 password hashing: argon2id at OWASP strength; an account with an old scrypt hash logs in and its hash is upgraded, its sessions untouched', async () => {
    const teacher = await createTeacher(t);
    const { scryptSync, randomBytes } = await import('node:crypto');
    const salt = randomBytes(16);
    const key = scryptSync(teacher.password, salt, 32, { N: 32768, r: 8, p: 1, maxmem: 128 * 32768 * 8 * 2 });
    await t.db.query('UPDATE users SET password_hash = $2 WHERE id = $1', [teacher.user.id, `scrypt$32768$8$1$${salt.toString('base64url')}$${key.toString('base64url')}`]);
    expect(await login(teacher.user.email, teacher.password)).toHaveStatus(200);
    const { rows } = await t.db.query<{ password_hash: string }>('SELECT password_hash FROM users WHERE id = $1', [teacher.user.id]);
    expect(rows[0]!.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await t.api({ method: 'GET', url: '/users/me', token: teacher.token })).toHaveStatus(200);
    expect(await login(teacher.user.email, teacher.password)).toHaveStatus(200);
    expect(await login(teacher.user.email, 'not the password')).toBeApiError(400, INVALID_LOGIN, { nested: true });
  });
});

describe('#21 passwords people can guess', () => {
  it('#21 passwords people can guess are refused (common ones, only spaces, one’s own e-mail or username) and the link stays usable; only the newest reset link works', async () => {
    const user = await createTeacher(t);
    const first = await auth(t, 'forgot-password', { email: user.user.email });
    expect(first).toHaveStatus(200);
    await t.mail.settled();
    const older = codeMailedTo(t.mail, user.user.email);
    expect(await auth(t, 'forgot-password', { email: user.user.email })).toHaveStatus(200);
    await t.mail.settled();
    const code = codeMailedTo(t.mail, user.user.email);
    expect(code).not.toBe(older);
    const before = await snapshot(t);
    for (const [password, message] of [
      ['password', 'This password is too common and easy to guess. Please choose another one.'],
      ['12345678', 'This password is too common and easy to guess. Please choose another one.'],
      ['        ', 'Your new password cannot be only spaces.'],
      [user.user.email, 'Your new password must not contain your e-mail address or your username.'],
      [`${user.user.username}!2026`, 'Your new password must not contain your e-mail address or your username.'],
    ] as const) {
      expect(await auth(t, 'reset-password', { code, password, passwordConfirmation: password }), password).toBeApiError(400, message, { nested: true });
    }
    expect(await snapshot(t)).toEqual(before);
    // The older link ended when the newer was sent; the newer still works for a good password.
    expect(await auth(t, 'reset-password', { code: older, password: 'tea kettle in July', passwordConfirmation: 'tea kettle in July' })).toBeApiError(400, INCORRECT_CODE, { nested: true });
    expect(await auth(t, 'reset-password', { code, password: 'tea kettle in July', passwordConfirmation: 'tea kettle in July' })).toHaveStatus(200);
  });
});

describe('#22 tokens and cells that looked harmless', () => {
  it('#22 a correctly signed token without an expiry is no session; a full-width ＝ or a leading space cannot smuggle a formula into a CSV cell', async () => {
    const teacher = await createTeacher(t);
    const key = new TextEncoder().encode(t.config.jwtSecret);
    const claims = { id: teacher.user.id, ep: 0 };
    const { rows } = await t.db.query<{ session_epoch: number }>('SELECT session_epoch FROM users WHERE id = $1', [teacher.user.id]);
    claims.ep = rows[0]!.session_epoch;
    const forever = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setIssuedAt().sign(key);
    expect(await t.api({ method: 'GET', url: '/users/me', token: forever })).toBeApiError(401, INVALID_TOKEN);
    const dated = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).setIssuedAt().setExpirationTime('1h').sign(key);
    expect(await t.api({ method: 'GET', url: '/users/me', token: dated })).toHaveStatus(200);

    const researcher = await createResearcher(t);
    const sly = await createTeacher(t);
    await t.db.query('UPDATE users SET username = $2 WHERE id = $1', [sly.user.id, '\uFF1DHYPERLINK("http://evil.example","x")']);
    await createPortfolio(t, sly, { name: ' =1+1' });
    const csv = await t.api({ method: 'GET', url: '/portfolios/export', token: researcher.token });
    expect(csv).toHaveStatus(200);
    const cells = parseCsv(csv.body).flat();
    expect(cells).toContain('\'\uFF1DHYPERLINK("http://evil.example","x")');
    expect(cells).toContain("' =1+1");
    expect(cells.filter((c) => /^[\s\u3000]*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20]/.test(c))).toEqual([]);
  });
});

describe('#23 an edit lock for good', () => {
  it('#23 nobody keeps a colleague out for good: renewals and re-locks count as one hold of at most an hour, then its holder waits a quarter of an hour while others may lock', async () => {
    const { m1, m2, sp, sa1 } = await team();
    const lockAs = (who: TestUser) => t.api({ method: 'POST', url: `${nested(sp.id, sa1.id)}/lock`, token: who.token });
    const first = await lockAs(m1);
    expect(first).toHaveStatus(200);
    // 50 minutes of renewals later (simulated), a renewal ends at the hour, not 15 minutes on.
    await t.db.query("UPDATE shared_artifacts SET lock_started_at = lock_started_at - interval '50 minutes' WHERE id = $1", [sa1.id]);
    const renewed = await lockAs(m1);
    expect(renewed).toHaveStatus(200);
    const minutesLeft = (Date.parse(renewed.json().lockedUntil) - Date.now()) / 60_000;
    expect(minutesLeft).toBeGreaterThan(9.5);
    expect(minutesLeft).toBeLessThanOrEqual(10);
    expect(await lockAs(m2)).toBeApiError(423, /^This artifact is being edited by /);
    // Releasing and locking again does not start a new hour.
    expect(await t.api({ method: 'POST', url: `${nested(sp.id, sa1.id)}/unlock`, token: m1.token, payload: { lock: renewed.json().lock } })).toHaveStatus(200);
    await t.db.query("UPDATE shared_artifacts SET lock_started_at = lock_started_at - interval '10 minutes' WHERE id = $1", [sa1.id]);
    expect(await lockAs(m1)).toBeApiError(423, /^You have kept this artifact locked for an hour, so others may edit it now\. You can lock it again after /);
    // A colleague may lock it now; after that hold the first holder may lock again.
    const colleague = await lockAs(m2);
    expect(colleague).toHaveStatus(200);
    expect(await t.api({ method: 'POST', url: `${nested(sp.id, sa1.id)}/unlock`, token: m2.token, payload: { lock: colleague.json().lock } })).toHaveStatus(200);
    expect(await lockAs(m1)).toHaveStatus(200);
  });
});

describe('#24 the user directory', () => {
  it('#24 a PLC lead cannot collect the user directory: searches need 3 characters, match only the start of an address or a name, show others’ addresses masked, and are limited per person', async () => {
    const { lead, sp } = await team();
    const tag = `dq${Date.now().toString(36)}`;
    const target = await createUser(t, { email: `${tag}.person@school.example`, username: `Dana ${tag}` });
    const list = (search: string) => t.api({ method: 'GET', url: `/shared-portfolios/${sp.id}/members?search=${encodeURIComponent(search)}`, token: lead.token });
    expect(MembersResponseSchema.parse((await list('dq')).json()).nonMembers).toEqual([]);
    expect(MembersResponseSchema.parse((await list(tag.slice(2))).json()).nonMembers).toEqual([]);
    expect(MembersResponseSchema.parse((await list('@school')).json()).nonMembers).toEqual([]);
    expect(MembersResponseSchema.parse((await list(tag)).json()).nonMembers).toEqual([{ id: target.user.id, username: `Dana ${tag}`, email: 'dq…@school.example' }]);
    expect(MembersResponseSchema.parse((await list(target.user.email.toUpperCase())).json()).nonMembers).toEqual([{ id: target.user.id, username: `Dana ${tag}`, email: target.user.email }]);
    // 60 searches in ten minutes, then a pause (short texts are not searches and not counted).
    for (let i = 4; i < 60; i += 1) expect(await list(`${tag}${i}`)).toHaveStatus(200);
    expect(await list('ab')).toHaveStatus(200);
    expect(await list(`${tag}x`)).toBeApiError(429, 'Too many searches. Please wait a few minutes and try again.');
    const researcher = await createResearcher(t);
    expect(await t.api({ method: 'GET', url: `/shared-portfolios/${sp.id}/members?search=${tag}`, token: researcher.token })).toHaveStatus(200);
  });
});

describe('#25 demo accounts in real deployments', async () => {
  const reachable = await buildTestApp({ demoSignIn: false });
  const local = await buildTestApp({ demoSignIn: true });
  beforeAll(async () => {
    await seedDemo(reachable.db, reachable.config);
    await seedDemo(local.db, local.config);
  });

  it('#25 demo accounts cannot sign in on a server other machines can reach (the default binds to loopback), and are not seeded there', async () => {
    for (const account of DEMO_ACCOUNTS) {
      expect(await login(account.email, DEMO_PASSWORD, reachable), account.email).toBeApiError(400, INVALID_LOGIN, { nested: true });
      expect(await login(account.email, DEMO_PASSWORD, local), account.email).toHaveStatus(200);
    }
    expect(loadConfig({ DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'pf-host-')), JWT_SECRET: 'x'.repeat(40) })).toMatchObject({ host: '127.0.0.1', demoData: true, demoSignIn: true });
    expect(loadConfig({ DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'pf-host-')), JWT_SECRET: 'x'.repeat(40), HOST: '0.0.0.0' })).toMatchObject({ demoData: false, demoSignIn: false });
  });
});

describe('#26 logout ends the session', () => {
  it('#26 logout ends the session at once wherever its token is used, other sign-ins go on, refresh cannot pass the absolute end, and the browser is told to forget its cache', async () => {
    const teacher = await createTeacher(t);
    const signIn = async () => AuthResponseSchema.parse((await login(teacher.user.email, teacher.password)).json()).jwt;
    const web = await signIn();
    const phone = await signIn();
    const me = (token: string) => t.api({ method: 'GET', url: '/users/me', token });
    const refreshed = (await t.api({ method: 'POST', url: '/token/refresh', token: web, payload: {} })).json().jwt as string;
    expect(await me(refreshed)).toHaveStatus(200);

    const out = await t.api({ method: 'POST', url: '/auth/logout', token: web });
    expect(out).toHaveStatus(200);
    expect(out.headers['clear-site-data']).toBe('"cache"');
    for (const token of [web, refreshed]) {
      expect(await me(token)).toBeApiError(401, SESSION_ENDED);
      expect(await t.api({ method: 'POST', url: '/token/refresh', token, payload: {} })).toBeApiError(401, SESSION_ENDED);
    }
    expect(await me(phone)).toHaveStatus(200);

    // A session ends at its absolute end, however often it was refreshed.
    await t.db.query("UPDATE sessions SET expires_at = now() - interval '1 second' WHERE user_id = $1 AND ended_at IS NULL", [teacher.user.id]);
    await t.principalsHeard();
    expect(await me(phone)).toBeApiError(401, SESSION_ENDED);
    expect(await t.api({ method: 'POST', url: '/token/refresh', token: phone, payload: {} })).toBeApiError(401, SESSION_ENDED);
  });
});

describe('#28 refresh rotates the session token', () => {
  it('#28 a refresh replaces the token: the replaced one works for a grace minute (requests under way), older ones never again, and a replaced token cannot be refreshed twice into new life', async () => {
    const teacher = await createTeacher(t);
    const first = AuthResponseSchema.parse((await login(teacher.user.email, teacher.password)).json()).jwt;
    const me = (token: string) => t.api({ method: 'GET', url: '/users/me', token });
    const refresh = (token: string) => t.api({ method: 'POST', url: '/token/refresh', token, payload: {} });

    const second = (await refresh(first)).json().jwt as string;
    expect(await me(second)).toHaveStatus(200);
    // Just replaced: still good for requests already under way, and a second refresh with it
    // (two tabs at once) gets a token of the current generation instead of a new one.
    expect(await me(first)).toHaveStatus(200);
    const sibling = (await refresh(first)).json().jwt as string;
    expect(await me(sibling)).toHaveStatus(200);

    const third = (await refresh(second)).json().jwt as string;
    expect(await me(third)).toHaveStatus(200);
    // Two generations old: over, it cannot be refreshed back to life, and presenting it is
    // reuse of a replaced token: the whole session ends, its newest token too (issue 21 #8).
    expect(await me(first)).toBeApiError(401, SESSION_ENDED);
    expect(await refresh(first)).toBeApiError(401, SESSION_ENDED);
    expect(await me(third)).toBeApiError(401, SESSION_ENDED);
  });
});

describe('#29 the web session lives in an HttpOnly cookie', () => {
  it('#29 the web app gets its session in an HttpOnly cookie (no token for scripts), writes with it need the portal’s own request, logout clears it; the mobile apps still get the token in the body', async () => {
    const teacher = await createTeacher(t);
    const web = { 'x-practicefolio-client': 'web' };
    const signIn = await t.api({ method: 'POST', url: '/auth/local', headers: web, payload: { identifier: teacher.user.email, password: teacher.password } });
    expect(signIn).toHaveStatus(200);
    expect(signIn.json().jwt).toBe('');
    const cookies = signIn.cookies as { name: string; value: string; httpOnly?: boolean; sameSite?: string; path?: string }[];
    const session = cookies.find((c) => c.name === 'jwt')!;
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(cookies.find((c) => c.name === 'pf_session')).toMatchObject({ value: '1' });
    expect(cookies.find((c) => c.name === 'pf_session')!.httpOnly).toBeFalsy();
    const cookie = { jwt: session.value };

    expect(await t.api({ method: 'GET', url: '/users/me', cookies: cookie })).toHaveStatus(200);
    // A write carried by the cookie alone (a form or script on another site) is refused and changes nothing.
    const write = (headers: Record<string, string>) =>
      t.api({ method: 'POST', url: '/portfolios', cookies: cookie, headers, payload: { name: 'Planted' } });
    const before = await countRows(t, 'portfolios');
    expect(await write({})).toBeApiError(403, 'This request must come from the portal’s own pages.');
    expect(await write({ ...web, origin: 'https://evil.example' })).toBeApiError(403);
    expect(await write({ ...web, 'sec-fetch-site': 'cross-site' })).toBeApiError(403);
    expect(await countRows(t, 'portfolios')).toBe(before);
    expect(await write({ ...web, origin: 'http://localhost:80', 'sec-fetch-site': 'same-origin' })).toHaveStatus(200);
    expect(await countRows(t, 'portfolios')).toBe(before + 1);

    // Refresh renews the cookie, never showing the token.
    const refreshed = await t.api({ method: 'POST', url: '/token/refresh', cookies: cookie, headers: web, payload: {} });
    expect(refreshed).toHaveStatus(200);
    expect(refreshed.json().jwt).toBe('');
    const renewed = (refreshed.cookies as { name: string; value: string }[]).find((c) => c.name === 'jwt')!.value;
    // Logout ends the session and clears both cookies.
    const out = await t.api({ method: 'POST', url: '/auth/logout', cookies: { jwt: renewed }, headers: web, payload: {} });
    expect(out).toHaveStatus(200);
    const cleared = out.cookies as { name: string; value: string; maxAge?: number; expires?: Date }[];
    for (const name of ['jwt', 'pf_session']) {
      const c = cleared.find((x) => x.name === name)!;
      expect(c.value, name).toBe('');
      expect((c.expires?.getTime() ?? Date.now()) <= Date.now() || c.maxAge === 0, name).toBe(true);
    }
    expect(await t.api({ method: 'GET', url: '/users/me', cookies: { jwt: renewed } })).toBeApiError(401);

    // The mobile apps (no client header) keep their contract: the token in the body, no cookie.
    const phone = await login(teacher.user.email, teacher.password);
    expect(phone).toHaveStatus(200);
    expect(AuthResponseSchema.parse(phone.json()).jwt.length).toBeGreaterThan(20);
    expect(phone.headers['set-cookie']).toBeUndefined();
  });
});

describe('#27 limits on logged-in writes', async () => {
  const small = await buildTestApp({ storageQuotaBytes: 200_000 });

  it('#27 per-person limits on invitations, comments and uploads, a storage quota that refuses and keeps nothing', async () => {
    // Invitations: 30 in ten minutes, then a pause (each may create an account and sends an e-mail).
    const lead = await createLead(t);
    const sp = await createSharedPortfolio(t, lead);
    const invite = (i: number) => t.api({ method: 'POST', url: '/invitations', token: lead.token, payload: { email: `flood-${Date.now().toString(36)}-${i}@school.example`, sharedPortfolio: sp.id } });
    for (let i = 0; i < 30; i += 1) expect(await invite(i), `invitation ${i}`).toHaveStatus(200);
    expect(await invite(30)).toBeApiError(429, /^Too many attempts, please try again in /);
    // Another person is not held back.
    const otherLead = await createLead(t);
    const otherSp = await createSharedPortfolio(t, otherLead);
    expect(await t.api({ method: 'POST', url: '/invitations', token: otherLead.token, payload: { email: `calm-${Date.now().toString(36)}@school.example`, sharedPortfolio: otherSp.id } })).toHaveStatus(200);

    // Comments: 60 a minute.
    const { m1, sa1 } = await team();
    for (let i = 0; i < 60; i += 1) expect(await t.api({ method: 'POST', url: '/comments', token: m1.token, payload: { text: `Comment ${i}`, sharedArtifact: sa1.id } })).toHaveStatus(200);
    expect(await t.api({ method: 'POST', url: '/comments', token: m1.token, payload: { text: 'One more', sharedArtifact: sa1.id } })).toBeApiError(429);

    // Storage: the upload that would pass the quota is refused, and nothing of it is kept.
    const owner = await createTeacher(small);
    const portfolio = await createPortfolio(small, owner);
    const artifact = await createArtifact(small, portfolio);
    const base = `/portfolios/${portfolio.id}/artifacts/${artifact.id}/documents`;
    const file = Buffer.alloc(120_000, 7);
    expect(await upload(small, owner.token, base, multipart('file', 'a.bin', file))).toHaveStatus(200);
    const before = await snapshot(small);
    expect(await upload(small, owner.token, base, multipart('file', 'b.bin', file))).toBeApiError(413, /^Your files would take more than your storage limit of /);
    expect(await snapshot(small)).toEqual(before);
  });
});

describe('#21.2 caption tracks: bounded per video, sized, in the quota and the write limits, listed without cues', async () => {
  const small = await buildTestApp({ storageQuotaBytes: 60_000 });
  const cueLines = (n: number, text: string) => Array.from({ length: n }, (_, i) => `00:00:0${i % 9}.000 --> 00:00:09.500\n${text} ${i}`).join('\n\n');

  it('at most 10 tracks per video, a track at most 512 KiB, and the list of tracks carries no cues', async () => {
    const owner = await createTeacher(t);
    const artifact = await createArtifact(t, await createPortfolio(t, owner));
    const video = await attachVideo(t, 'artifact', artifact.id, 10);
    const url = `/artifacts/${artifact.id}/media/${video}/captions`;
    // Ten tracks of 55 KB each made a 550 KB answer for the video's list (and 500 KB tracks, 5 MB).
    const big = `WEBVTT\n\n${cueLines(60, 'x'.repeat(900))}`;
    const languages = ['en', 'es', 'fr', 'de', 'it', 'pt', 'nl', 'sv', 'da', 'fi'];
    for (const language of languages) expect(await t.api({ method: 'POST', url, token: owner.token, payload: { language, label: language, format: 'vtt', source: big } }), language).toHaveStatus(200);
    const before = await snapshot(t);
    expect(await t.api({ method: 'POST', url, token: owner.token, payload: { language: 'no', label: 'Norsk', format: 'vtt', source: 'WEBVTT\n\n00:00.000 --> 00:01.000\nHei\n' } })).toBeApiError(
      409,
      'A video can have at most 10 caption tracks. Delete one before adding another.',
    );
    expect(await snapshot(t)).toEqual(before);
    const list = await t.api({ method: 'GET', url, token: owner.token });
    expect(list).toHaveStatus(200);
    expect(list.body.length).toBeLessThan(4_000);
    const tracks = list.json() as { id: number; language: string; cueCount: number; cues?: unknown }[];
    expect(tracks.map((track) => [track.cueCount, track.cues])).toEqual(languages.map(() => [60, undefined]));
    // The cues of one track, on demand.
    const one = await t.api({ method: 'GET', url: `/captions/${tracks[0]!.id}`, token: owner.token });
    expect(one).toHaveStatus(200);
    expect((one.json() as { cues: unknown[] }).cues).toHaveLength(60);
    // The editor's body may hold 5000 cues of 1000 characters: a stored track stays within 512 KiB.
    const cues = Array.from({ length: 600 }, (_, i) => ({ start: i / 100, end: i / 100 + 0.5, text: 'y'.repeat(1000) }));
    expect(await t.api({ method: 'PUT', url: `/captions/${tracks[0]!.id}`, token: owner.token, payload: { language: tracks[0]!.language, label: 'Big', cues } })).toBeApiError(
      413,
      /^A caption track can be at most 512 KiB/,
    );
    expect(await snapshot(t)).toEqual(before);
  });

  it('caption bytes count in the storage quota with the files, and caption writes in the per-person write limits', async () => {
    const owner = await createTeacher(small);
    const artifact = await createArtifact(small, await createPortfolio(small, owner));
    const video = await attachVideo(small, 'artifact', artifact.id, 10);
    const url = `/artifacts/${artifact.id}/media/${video}/captions`;
    const add = (language: string, source: string) => small.api({ method: 'POST', url, token: owner.token, payload: { language, label: language, format: 'vtt', source } });
    expect(await add('en', `WEBVTT\n\n${cueLines(40, 'z'.repeat(990))}`)).toHaveStatus(200);
    const before = await snapshot(small);
    expect(await add('es', `WEBVTT\n\n${cueLines(40, 'z'.repeat(990))}`)).toBeApiError(413, /^These captions would take more than your storage limit/);
    expect(await snapshot(small)).toEqual(before);
    // Replacing her own track counts it once.
    expect(await add('en', `WEBVTT\n\n${cueLines(45, 'z'.repeat(990))}`)).toHaveStatus(200);

    // 60 caption writes in ten minutes, then a pause.
    const tiny = 'WEBVTT\n\n00:00.000 --> 00:01.000\nHi\n';
    for (let i = 0; i < 57; i += 1) expect(await add('fr', tiny), `write ${i}`).toHaveStatus(200);
    expect(await add('fr', tiny)).toBeApiError(429, /^Too many attempts, please try again in /);
  });
});

describe('an invitation by id tells the lead no more than the search they picked from (issue 21, 16)', () => {
  it('the answer, the pending list and a refusal show a picked person’s address masked; a typed address and the invitee see it in full', async () => {
    const lead = await createLead(t);
    const outsider = await createTeacher(t);
    const typed = await createTeacher(t);
    const researcher = await createResearcher(t);
    const sp = await createSharedPortfolio(t, lead);
    const masked = `${outsider.user.email.slice(0, 2)}…${outsider.user.email.slice(outsider.user.email.lastIndexOf('@'))}`;

    const byId = await t.api({ method: 'POST', url: '/invitations', token: lead.token, payload: { to: outsider.user.id, sharedPortfolio: sp.id } });
    expect(byId).toHaveStatus(200);
    const invitation = json(byId.json());
    expect(json(invitation['to'])['email']).toBe(masked);
    expect(JSON.stringify(invitation)).not.toContain(outsider.user.email);
    expect(JSON.stringify((await t.api({ method: 'GET', url: `/invitations/${String(invitation['id'])}`, token: lead.token })).json())).not.toContain(outsider.user.email);
    const again = await t.api({ method: 'POST', url: '/invitations', token: lead.token, payload: { to: outsider.user.id, sharedPortfolio: sp.id } });
    expect(again).toBeApiError(400, `${outsider.user.username} has already been invited to this shared portfolio.`);

    expect(await t.api({ method: 'POST', url: '/invitations', token: lead.token, payload: { email: typed.user.email, sharedPortfolio: sp.id } })).toHaveStatus(200);
    const members = MembersResponseSchema.parse((await t.api({ method: 'GET', url: `/shared-portfolios/${sp.id}/members`, token: lead.token })).json());
    expect(members.pending.map((p) => p.email).sort()).toEqual([masked, typed.user.email].sort());

    // The invitee sees their own invitation in full, and a researcher (who manages accounts) too.
    const own = (await t.api({ method: 'GET', url: '/invitations', token: outsider.token })).json() as { to: { email: string } }[];
    expect(own.map((i) => i.to.email)).toEqual([outsider.user.email]);
    const asResearcher = json((await t.api({ method: 'GET', url: `/invitations/${String(invitation['id'])}`, token: researcher.token })).json());
    expect(json(asResearcher['to'])['email']).toBe(outsider.user.email);
  });
});
