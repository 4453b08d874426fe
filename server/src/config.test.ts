import { mkdtempSync, readFileSync, rmSync, statSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

const roots: string[] = [];
afterAll(() => roots.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** An empty folder for DATA_DIR. */
function dataDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pf-config-'));
  roots.push(dir);
  return dir;
}

const SECRET = 'k'.repeat(32);

/** The ConfigError message for an environment (the test fails when it loads). */
function failure(env: Record<string, string>): string {
  let thrown: unknown = null;
  try {
    loadConfig({ DATA_DIR: dataDir(), JWT_SECRET: SECRET, ...env }, '/static');
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(ConfigError);
  return (thrown as ConfigError).message;
}

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const dir = dataDir();
    const config = loadConfig({ DATA_DIR: dir }, '/static');
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      dataDir: dir,
      databaseUrl: null,
      redisUrl: null,
      smtpUrl: null,
      publicUrl: 'http://localhost:3000',
      showcaseUrl: null,
      // Nothing that looks like a placeholder: links and addresses not configured are not shown.
      helpUrl: null,
      feedbackUrl: null,
      contactEmail: null,
      researchEmail: null,
      aboutVideoId: null,
      learnMoreUrl: null,
      iosAppUrl: null,
      androidAppUrl: null,
      demoData: true,
      demoSignIn: true,
      logLevel: 'info',
      trustProxy: false,
      staticDir: '/static',
    });
  });

  it('reads every variable', () => {
    const config = loadConfig(
      {
        PORT: '8080',
        HOST: '127.0.0.1',
        DATA_DIR: dataDir(),
        DATABASE_URL: 'postgresql://user:pw@db.example.org:5432/folio',
        REDIS_URL: 'rediss://:pw@cache.example.org:6380/2',
        JWT_SECRET: SECRET,
        SMTP_URL: 'smtps://user:pw@mail.example.org:465',
        MAIL_FROM: 'Portal <portal@example.org>',
        PUBLIC_URL: 'https://portal.example.org/',
        SHOWCASE_URL: 'https://showcase.example.org',
        HELP_URL: 'https://help.example.org/guide',
        FEEDBACK_URL: 'https://feedback.example.org/form',
        CONTACT_EMAIL: 'help@school.example',
        RESEARCH_CONTACT_EMAIL: 'study@university.example',
        ABOUT_VIDEO_ID: 'dQw4w9WgXcQ',
        LEARN_MORE_URL: 'https://project.example.org/about',
        IOS_APP_URL: 'https://apps.apple.com/us/app/practicefolio/id1234567890',
        ANDROID_APP_URL: 'https://play.google.com/store/apps/details?id=org.example.practicefolio',
        LOG_LEVEL: 'warn',
        TRUST_PROXY: 'true',
      },
      '/static',
    );
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      databaseUrl: 'postgresql://user:pw@db.example.org:5432/folio',
      redisUrl: 'rediss://:pw@cache.example.org:6380/2',
      jwtSecret: SECRET,
      smtpUrl: 'smtps://user:pw@mail.example.org:465',
      mailFrom: 'Portal <portal@example.org>',
      publicUrl: 'https://portal.example.org',
      showcaseUrl: 'https://showcase.example.org',
      helpUrl: 'https://help.example.org/guide',
      feedbackUrl: 'https://feedback.example.org/form',
      contactEmail: 'help@school.example',
      researchEmail: 'study@university.example',
      aboutVideoId: 'dQw4w9WgXcQ',
      learnMoreUrl: 'https://project.example.org/about',
      iosAppUrl: 'https://apps.apple.com/us/app/practicefolio/id1234567890',
      androidAppUrl: 'https://play.google.com/store/apps/details?id=org.example.practicefolio',
      demoData: false,
      logLevel: 'warn',
      trustProxy: true,
    });
  });

  it('defaults DEMO_DATA to true only for the embedded database on a loopback address, and lets it be set', () => {
    const embedded = { DATA_DIR: dataDir(), JWT_SECRET: SECRET };
    const server = { ...embedded, DATABASE_URL: 'postgres://localhost/folio' };
    expect(loadConfig(embedded).demoData).toBe(true);
    expect(loadConfig(server).demoData).toBe(false);
    for (const HOST of ['localhost', '127.0.0.1', '127.1.2.3', '::1', '[::1]'])
      expect(loadConfig({ ...embedded, HOST }), HOST).toMatchObject({ demoData: true, demoSignIn: true });
    for (const HOST of ['0.0.0.0', '::', '192.168.1.20', 'portal.school.example'])
      expect(loadConfig({ ...embedded, HOST }), HOST).toMatchObject({ demoData: false, demoSignIn: false });
    expect(loadConfig({ ...embedded, HOST: '0.0.0.0', DEMO_DATA: 'true' })).toMatchObject({
      demoData: true,
      demoSignIn: true,
    });
    expect(loadConfig({ ...server, DEMO_DATA: 'true' }).demoData).toBe(true);
    expect(loadConfig({ ...embedded, DEMO_DATA: 'false' }).demoData).toBe(false);
    expect(loadConfig({ ...embedded, DEMO_DATA: '0' }).demoData).toBe(false);
  });

  it('takes the showcase site for Learn More unless LEARN_MORE_URL is set', () => {
    expect(
      loadConfig({ DATA_DIR: dataDir(), JWT_SECRET: SECRET, SHOWCASE_URL: 'https://showcase.example.org' })
        .learnMoreUrl,
    ).toBe('https://showcase.example.org');
  });

  it('treats empty variables as unset', () => {
    const config = loadConfig({
      DATA_DIR: dataDir(),
      JWT_SECRET: SECRET,
      PORT: '',
      DATABASE_URL: '',
      REDIS_URL: '',
      SMTP_URL: '',
      DEMO_DATA: '',
    });
    expect(config).toMatchObject({ port: 3000, databaseUrl: null, redisUrl: null, smtpUrl: null, demoData: true });
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT: must be a port number'],
    [{ PORT: '70000' }, 'PORT: must be a port number (0–65535)'],
    [{ PORT: '80.5' }, 'PORT: must be a port number (0–65535)'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL: must start with postgres:// or postgresql://'],
    [{ REDIS_URL: 'http://cache.example.org:6379' }, 'REDIS_URL: must start with redis:// or rediss://'],
    [{ REDIS_URL: 'cache.example.org:6379' }, 'REDIS_URL: must start with redis:// or rediss://'],
    [{ REDIS_URL: 'redis://' }, 'REDIS_URL: must start with redis:// or rediss://'],
    [{ JWT_SECRET: 'short' }, 'JWT_SECRET: must be at least 32 characters long'],
    [{ SMTP_URL: 'http://x' }, 'SMTP_URL: must start with smtp:// or smtps://'],
    [{ PUBLIC_URL: 'portal.example.org' }, 'PUBLIC_URL: must be an absolute http(s) URL'],
    [{ HELP_URL: 'javascript:alert(1)' }, 'HELP_URL: must be an absolute http(s) URL'],
    [{ DEMO_DATA: 'maybe' }, 'DEMO_DATA: must be true or false'],
    [{ CONTACT_EMAIL: 'support' }, 'CONTACT_EMAIL: must be an e-mail address'],
    [{ RESEARCH_CONTACT_EMAIL: 'study@' }, 'RESEARCH_CONTACT_EMAIL: must be an e-mail address'],
    [{ ABOUT_VIDEO_ID: 'REPLACE-WITH-VIDEO-ID' }, 'ABOUT_VIDEO_ID: must be a YouTube video id'],
    [{ ABOUT_VIDEO_ID: 'https://youtu.be/dQw4w9WgXcQ' }, 'ABOUT_VIDEO_ID: must be a YouTube video id'],
    [{ LEARN_MORE_URL: 'example.org' }, 'LEARN_MORE_URL: must be an absolute http(s) URL'],
    [{ IOS_APP_URL: 'https://apps.apple.com/' }, "IOS_APP_URL: must be the app's App Store page"],
    [{ IOS_APP_URL: 'http://apps.apple.com/us/app/x/id1' }, "IOS_APP_URL: must be the app's App Store page"],
    [{ ANDROID_APP_URL: 'https://play.google.com/store/apps' }, "ANDROID_APP_URL: must be the app's Google Play page"],
    [{ TRUST_PROXY: 'sometimes' }, 'TRUST_PROXY: must be true or false'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL: must be one of fatal, error, warn, info, debug, trace, silent'],
    [{ UPLOAD_LIMIT_BYTES: '-5' }, 'UPLOAD_LIMIT_BYTES: must be a positive number of bytes'],
    [{ UPLOAD_LIMIT_BYTES: 'lots' }, 'UPLOAD_LIMIT_BYTES: must be a number of bytes'],
    [{ MEDIA_STORE: 'ftp' }, 'MEDIA_STORE: must be local (DATA_DIR/uploads) or s3'],
    [{ MEDIA_STORE: 's3' }, 'S3_BUCKET: required with MEDIA_STORE=s3'],
    [{ MEDIA_STORE: 's3', S3_BUCKET: 'My_Bucket' }, 'S3_BUCKET: must be a bucket name'],
    [{ S3_ENDPOINT: 'rgw.local:7480' }, 'S3_ENDPOINT: must be an absolute http(s) URL'],
    [{ S3_ACCESS_KEY_ID: 'AKIA0000' }, 'S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY: set both, or neither'],
    [{ S3_PREFIX: '../media' }, 'S3_PREFIX: must be a folder of the bucket'],
    [{ S3_FORCE_PATH_STYLE: 'perhaps' }, 'S3_FORCE_PATH_STYLE: must be true or false'],
    [
      { WORKERS: 'media,video' },
      'WORKERS: must be all, none or a comma-separated list of media, archives, notifications, housekeeping, backups (unknown: video)',
    ],
    [{ WORKERS: 'media,,archives' }, 'WORKERS: must be all, none or a comma-separated list'],
  ])('refuses %j with a message naming the variable', (env, expected) => {
    const message = failure(env);
    expect(message).toMatch(/^Invalid configuration:/);
    expect(message).toContain(expected);
  });

  it('keeps media in DATA_DIR/uploads unless MEDIA_STORE=s3, then reads the bucket settings', () => {
    expect(loadConfig({ DATA_DIR: dataDir(), JWT_SECRET: SECRET }).s3).toBeNull();
    const config = loadConfig({
      DATA_DIR: dataDir(),
      JWT_SECRET: SECRET,
      MEDIA_STORE: 's3',
      S3_BUCKET: 'district-media',
      S3_ENDPOINT: 'http://127.0.0.1:7480',
      S3_ACCESS_KEY_ID: 'AKIA0000',
      S3_SECRET_ACCESS_KEY: 'secret',
      S3_FORCE_PATH_STYLE: 'true',
      S3_PREFIX: 'portal/media/',
    });
    expect(config.s3).toEqual({
      bucket: 'district-media',
      endpoint: 'http://127.0.0.1:7480',
      region: 'us-east-1',
      accessKeyId: 'AKIA0000',
      secretAccessKey: 'secret',
      forcePathStyle: true,
      prefix: 'portal/media/',
    });
    // Without keys: the AWS SDK's default credential chain (environment, profile, instance role).
    expect(
      loadConfig({
        DATA_DIR: dataDir(),
        JWT_SECRET: SECRET,
        MEDIA_STORE: 's3',
        S3_BUCKET: 'media',
        S3_REGION: 'eu-west-1',
      }).s3,
    ).toEqual({
      bucket: 'media',
      endpoint: undefined,
      region: 'eu-west-1',
      accessKeyId: undefined,
      secretAccessKey: undefined,
      forcePathStyle: false,
      prefix: undefined,
    });
  });

  it('runs every kind of background job unless WORKERS says which (none: an API-only node)', () => {
    expect(loadConfig({ DATA_DIR: dataDir(), JWT_SECRET: SECRET }).workers).toEqual([
      'media',
      'archives',
      'notifications',
      'housekeeping',
      'backups',
    ]);
    expect(loadConfig({ DATA_DIR: dataDir(), JWT_SECRET: SECRET, WORKERS: 'none' }).workers).toEqual([]);
    expect(loadConfig({ DATA_DIR: dataDir(), JWT_SECRET: SECRET, WORKERS: ' media , archives,media' }).workers).toEqual(
      ['media', 'archives'],
    );
  });

  it('takes scheduled backups only with BACKUP_DIR: every day at 02:30 UTC, the newest 7 kept, unless told', () => {
    expect(loadConfig({ DATA_DIR: dataDir(), JWT_SECRET: SECRET }).backups).toBeNull();
    expect(loadConfig({ DATA_DIR: dataDir(), JWT_SECRET: SECRET, BACKUP_DIR: '/srv/backups' }).backups).toEqual({
      dir: '/srv/backups',
      schedule: '30 2 * * *',
      keep: 7,
    });
    expect(
      loadConfig({
        DATA_DIR: dataDir(),
        JWT_SECRET: SECRET,
        BACKUP_DIR: '/srv/backups',
        BACKUP_SCHEDULE: '0 */6 * * *',
        BACKUP_KEEP: '28',
      }).backups,
    ).toMatchObject({ schedule: '0 */6 * * *', keep: 28 });
    expect(failure({ BACKUP_SCHEDULE: 'daily' })).toContain('BACKUP_SCHEDULE: must be a cron schedule in UTC');
    expect(failure({ BACKUP_KEEP: '0' })).toContain('BACKUP_KEEP: must keep at least 1 backup');
  });

  it('backs up before migrations that change existing data: embedded or with BACKUP_DIR unless off, and when told', () => {
    const dir = dataDir();
    const before = (env: Record<string, string>) =>
      loadConfig({ DATA_DIR: dir, JWT_SECRET: SECRET, ...env }).backupBeforeMigrations;
    const external = { DATABASE_URL: 'postgres://db.example/portal' };
    expect(before({})).toEqual({ dir: path.join(dir, 'backups') });
    expect(before({ BACKUP_DIR: '/srv/backups' })).toEqual({ dir: '/srv/backups' });
    expect(before({ BACKUP_BEFORE_MIGRATIONS: 'off' })).toBeNull();
    expect(before(external)).toBeNull();
    expect(before({ ...external, BACKUP_DIR: '/srv/backups' })).toEqual({ dir: '/srv/backups' });
    expect(before({ ...external, BACKUP_BEFORE_MIGRATIONS: 'on' })).toEqual({ dir: path.join(dir, 'backups') });
    expect(failure({ BACKUP_BEFORE_MIGRATIONS: 'yes' })).toContain('BACKUP_BEFORE_MIGRATIONS: must be on or off');
  });

  it("keeps the node's id in DATA_DIR/secrets, the same after a restart", () => {
    const dir = dataDir();
    const first = loadConfig({ DATA_DIR: dir, JWT_SECRET: SECRET }).nodeId;
    expect(first).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(loadConfig({ DATA_DIR: dir, JWT_SECRET: SECRET }).nodeId).toBe(first);
    expect(loadConfig({ DATA_DIR: dataDir(), JWT_SECRET: SECRET }).nodeId).not.toBe(first);
  });

  it('names every bad variable at once', () => {
    const message = failure({ PORT: 'abc', DATABASE_URL: 'mysql://x', SMTP_URL: 'http://x' });
    for (const name of ['PORT', 'DATABASE_URL', 'SMTP_URL']) expect(message).toContain(`${name}:`);
  });

  it('counts the shared limits in PostgreSQL unless REDIS_URL is set', () => {
    expect(loadConfig({ DATA_DIR: dataDir(), JWT_SECRET: SECRET }).redisUrl).toBeNull();
    for (const url of ['redis://127.0.0.1:6379', 'redis://cache.internal:6379/3', 'rediss://user:pw@cache.example.org'])
      expect(loadConfig({ DATA_DIR: dataDir(), JWT_SECRET: SECRET, REDIS_URL: url }).redisUrl, url).toBe(url);
  });

  it('generates a JWT secret once, keeps it in DATA_DIR/secrets, and reuses it', () => {
    const dir = dataDir();
    const first = loadConfig({ DATA_DIR: dir });
    const file = path.join(dir, 'secrets', 'jwt-secret');
    expect(first.jwtSecret.length).toBeGreaterThanOrEqual(32);
    expect(readFileSync(file, 'utf8').trim()).toBe(first.jwtSecret);
    expect(statSync(file).mode & 0o077).toBe(0);
    expect(loadConfig({ DATA_DIR: dir }).jwtSecret).toBe(first.jwtSecret);
    // Another data folder gets another secret: there is no built-in default.
    expect(loadConfig({ DATA_DIR: dataDir() }).jwtSecret).not.toBe(first.jwtSecret);
  });

  it('uses JWT_SECRET when given and writes no file', () => {
    const dir = dataDir();
    expect(loadConfig({ DATA_DIR: dir, JWT_SECRET: SECRET }).jwtSecret).toBe(SECRET);
    expect(existsSync(path.join(dir, 'secrets', 'jwt-secret'))).toBe(false);
  });
});
