import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeArtifact, decodeLoginBundle } from '../server/test/contract/dartModels.ts';
import { ffmpegVideo, paddedVideo, pngImage } from '../server/test/files.ts';
import { altered, filesUnder, tableDigests, truncated, withSchemaVersion } from './backup/backupFiles.ts';
import { admin, PortalClient, type Artifact, type Medium } from './backup/portalClient.ts';
import { saveNumberOf, TeachersAtWork, type Desk, type Write } from './backup/teachersAtWork.ts';
import { DEMO, login, setupBrowser, until } from './fixtures.ts';
import { ownServer, type OwnServer } from './ownServer.ts';

/**
 * Nothing lost, even the server: a portal with the demo data and new work (images, a video with
 * its poster and captions, comments and the notifications they raise, a research export in the
 * log) is backed up with `npm run admin -- backup` while simulated teachers keep saving and
 * uploading; it stops, its DATA_DIR is wiped, `npm run admin -- restore` brings it back into the
 * empty folder, and the portal starts on it. Every row of the snapshot and every file (by
 * SHA-256) is there, the web app and the mobile app's calls work on it, and sessions from before
 * the backup end unless the JWT secret is kept (decision 040). Damaged backups are refused before
 * anything is written.
 */

const work = mkdtempSync(path.join(os.tmpdir(), 'pf-e2e-backup-'));
const dataDir = path.join(work, 'data');
const backupFile = path.join(work, 'portal.backup');
const JWT_SECRET = randomBytes(32).toString('hex');
const CAPTIONS = 'WEBVTT\n\n00:00:00.000 --> 00:00:01.500\nThe ramp is raised one block.\n';
/** Tables that running the portal changes after the snapshot: sign-ins, session renewals, request counts. */
const CHANGED_BY_RUNNING = new Set(['sessions', 'login_addresses', 'auth_events', 'rate_limit_counters']);

/**
 * The digests of every table of the stopped portal's database, but the rows the simulated
 * teachers wrote (their artifacts and their versions, checked write by write) and the tables
 * running changes.
 */
function snapshotDigests(desks: Desk[]): Promise<Record<string, string>> {
  const ids = desks.map((d) => d.artifactId).join(',');
  return tableDigests(dataDir, CHANGED_BY_RUNNING, {
    artifacts: `id NOT IN (${ids})`,
    artifact_media: `artifact_id NOT IN (${ids})`,
    // Their saves' versions (decision 049); the shared artifacts' versions have no artifact_id.
    artifact_versions: `artifact_id IS NULL OR artifact_id NOT IN (${ids})`,
    artifact_version_media: `artifact_id IS NULL OR artifact_id NOT IN (${ids})`,
    media_files: `id NOT IN (SELECT media_id FROM artifact_media WHERE artifact_id IN (${ids}))`,
  });
}

let server: OwnServer;
const env = (extra: NodeJS.ProcessEnv = {}) => ({ DATA_DIR: dataDir, JWT_SECRET, ...extra });

beforeAll(async () => {
  server = await ownServer(dataDir, path.join(work, 'static'), {
    STATIC_DIR: path.resolve(process.env['E2E_STATIC_DIR'] ?? 'dist'),
    JWT_SECRET,
    UPLOAD_LIMIT_BYTES: String(256 * 1024 ** 2),
  });
  await server.start();
});

afterAll(async () => {
  if (server?.running) await server.kill();
  rmSync(work, { recursive: true, force: true });
});

/** What the journey made before the backup, and what it saw of it. */
interface Before {
  teacher: PortalClient;
  lesson: Artifact;
  lessonFiles: Record<string, string>;
  desks: Desk[];
  writes: Write[];
  backupStarted: number;
  backupEnded: number;
  /** Every file of the desks' artifacts as the portal served it before it stopped. */
  served: Record<string, string>;
  digests: Record<string, string>;
}
let before: Before;

describe('a backup taken while the portal serves restores to a working portal with nothing lost', () => {
  const { newPage } = setupBrowser(() => server.url);

  it('backs up while teachers save and upload, then the portal stops and its DATA_DIR is wiped', async () => {
    const portal = new PortalClient(server.url);
    const teacher = (await portal.signIn(DEMO.teacher.email, DEMO.password)).client;
    const teacher2 = (await portal.signIn(DEMO.teacher2.email, DEMO.password)).client;
    const lead = (await portal.signIn(DEMO.lead.email, DEMO.password)).client;
    const researcher = (await portal.signIn(DEMO.researcher.email, DEMO.password)).client;

    // New work: an artifact with two images, a video (its poster made by the server) with captions.
    const mine = (await teacher.ok<{ id: number; name: string }[]>('GET', '/portfolios')).find(
      (p) => p.name === 'My Portfolio 1',
    )!;
    const created = await teacher.ok<Artifact>('POST', `/portfolios/${mine.id}/artifacts/responses`, {
      responses: { artifactName: 'Ramp races, second try', learningGoal: 'Compare slopes with evidence.' },
    });
    for (const [i, size] of [
      [1, 900],
      [2, 700],
    ] as const)
      expect(
        (await teacher.upload(mine.id, created.id, 'images', `ramp-${i}.png`, await pngImage(size, 600))).status,
      ).toBe(200);
    const video = await teacher.upload(mine.id, created.id, 'videos', 'ramp.mp4', ffmpegVideo());
    expect(video.status).toBe(200);
    // A large recording too: copying it keeps the backup busy while the teachers work.
    expect(
      (await teacher.upload(mine.id, created.id, 'videos', 'lesson.mp4', paddedVideo(32 * 1024 ** 2))).status,
    ).toBe(200);
    await teacher.ok('POST', `/artifacts/${created.id}/media/${video.body.id}/captions`, {
      language: 'en',
      label: 'English',
      format: 'vtt',
      source: CAPTIONS,
    });
    const lesson = await until(
      async () => {
        const a = await teacher.ok<Artifact>('GET', `/artifacts/${created.id}`);
        return a.videos.every((v: Medium) => v.formats && Object.keys(v.formats).length > 0) ? a : null;
      },
      'the posters of the videos',
      { timeoutMs: 60_000, everyMs: 250 },
    );
    const lessonFiles = await teacher.digestsOf(lesson);
    expect(Object.keys(lessonFiles).length).toBeGreaterThan(4);

    // A discussion: comments on the demo PLC's shared artifact notify its members.
    const plc = (await teacher.ok<{ id: number }[]>('GET', '/shared-portfolios'))[0]!;
    const shared = (await teacher.ok<{ sharedArtifacts: { id: number }[] }>('GET', `/shared-portfolios/${plc.id}`))
      .sharedArtifacts[0]!;
    await teacher.ok('POST', '/comments', { text: 'The second try used a steeper ramp.', sharedArtifact: shared.id });
    await lead.ok('POST', '/comments', { text: 'Great evidence, Tess!', sharedArtifact: shared.id });
    // A research export, written into the audit log.
    expect((await researcher.call('GET', '/research/export')).status).toBe(200);
    expect((await researcher.ok<unknown[]>('GET', '/research/exports')).length).toBeGreaterThan(0);

    // Teachers keep working in artifacts of their own while the operator takes the backup.
    const desks: Desk[] = [];
    for (const [name, client] of [
      ['Tess', teacher],
      ['Theo', teacher2],
    ] as const) {
      const portfolio = (await client.ok<{ id: number }[]>('GET', '/portfolios'))[0]!;
      const artifact = await client.ok<Artifact>('POST', `/portfolios/${portfolio.id}/artifacts/responses`, {
        responses: { artifactName: `${name} at work` },
      });
      desks.push({ name, client, portfolioId: portfolio.id, artifactId: artifact.id });
    }
    const load = new TeachersAtWork(desks);
    load.start();
    // Each teacher has saved and uploaded before the backup begins.
    await until(
      async () =>
        desks.every((d) =>
          load.writes.some((w) => w.artifactId === d.artifactId && w.kind === 'upload' && w.status === 200),
        ) || null,
      'an image uploaded by each teacher',
    );
    const backupStarted = Date.now();
    const backup = await admin(['backup', backupFile], { ...process.env, ...server.env, ...env() });
    const backupEnded = Date.now();
    expect(backup.code, backup.output).toBe(0);
    expect(backup.output).toMatch(/Backup written to .*portal\.backup \(\d+ bytes, 0600\)/);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const writes = await load.stop();
    expect(
      load.acknowledgedBetween(backupStarted, backupEnded).length,
      'writes answered during the backup',
    ).toBeGreaterThan(4);
    expect(writes.filter((w) => w.startedAt > backupEnded && w.status === 200).length).toBeGreaterThan(4);
    expect(
      writes.every((w) => w.status === 200),
      JSON.stringify(writes.filter((w) => w.status !== 200)),
    ).toBe(true);
    expect(statSync(backupFile).mode & 0o777).toBe(0o600);

    const served: Record<string, string> = {};
    for (const desk of desks)
      Object.assign(served, await desk.client.digestsOf(await desk.client.ok('GET', `/artifacts/${desk.artifactId}`)));

    const stopped = await server.stop();
    expect(stopped.code, stopped.output).toBe(0);
    const digests = await snapshotDigests(desks);
    before = { teacher, lesson, lessonFiles, desks, writes, backupStarted, backupEnded, served, digests };

    rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses a truncated, an altered and a too-new backup before anything is written', async () => {
    const empty = path.join(work, 'untouched');
    const cases = [
      { file: truncated(backupFile, path.join(work, 'cut.backup')), says: /truncated|unexpected end|no manifest/i },
      {
        file: altered(backupFile, path.join(work, 'flipped.backup'), DEMO.teacher2.email),
        says: /SHA-256|digest|altered/i,
      },
      {
        file: await withSchemaVersion(backupFile, path.join(work, 'newer.backup'), '9999_from_a_newer_portal.sql'),
        says: /9999_from_a_newer_portal|newer/i,
      },
    ];
    for (const { file, says } of cases) {
      const refused = await admin(['restore', file], { ...process.env, ...server.env, DATA_DIR: empty, JWT_SECRET });
      expect(refused.code, refused.output).not.toBe(0);
      expect(refused.output).toMatch(says);
      expect(refused.output).toContain('Nothing was changed');
      expect(filesUnder(empty), `nothing written into DATA_DIR for ${path.basename(file)}`).toEqual([]);
    }
  });

  it('restores into the empty DATA_DIR: every row of the snapshot and every file is back', async () => {
    const restored = await admin(['restore', backupFile], { ...process.env, ...server.env, ...env() });
    expect(restored.code, restored.output).toBe(0);
    expect(restored.output).toMatch(/Restored the backup of .* \d+ tables, \d+ rows, \d+ media files/);

    const digests = await snapshotDigests(before.desks);
    // Left out of a backup by design (decision 040): pending uploads, teachers' archives, the
    // record of scheduled backups; and the restore applies the migrations again (new times).
    for (const table of ['pending_uploads', 'archive_jobs', 'backup_runs', 'schema_migrations']) {
      delete before.digests[table];
      delete digests[table];
    }
    expect(digests).toEqual(before.digests);
  });

  it('starts on the restored DATA_DIR: the work of the snapshot is there, file for file', async () => {
    await server.start();
    const portal = new PortalClient(server.url);
    const teacher = (await portal.signIn(DEMO.teacher.email, DEMO.password)).client;
    const lesson = await teacher.ok<Artifact>('GET', `/artifacts/${before.lesson.id}`);
    expect(lesson.responses).toEqual(before.lesson.responses);
    expect(await teacher.digestsOf(lesson)).toEqual(before.lessonFiles);

    for (const desk of before.desks) {
      const client = (
        await portal.signIn(desk.client === before.teacher ? DEMO.teacher.email : DEMO.teacher2.email, DEMO.password)
      ).client;
      const artifact = await client.ok<Artifact>('GET', `/artifacts/${desk.artifactId}`);
      const mine = before.writes.filter((w) => w.artifactId === desk.artifactId);
      // The answers are those of one whole save: at least the last one answered before the backup
      // started, none started after it ended.
      const kept = saveNumberOf(desk.name, artifact.responses);
      const saves = mine.filter((w) => w.kind === 'save');
      const lastBefore = Math.max(0, ...saves.filter((w) => w.endedAt < before.backupStarted).map((w) => w.seq));
      const firstAfter = Math.min(...saves.filter((w) => w.startedAt > before.backupEnded).map((w) => w.seq));
      expect(kept).toBeGreaterThanOrEqual(lastBefore);
      expect(kept).toBeLessThan(firstAfter);
      // Every image answered before the backup is there, none sent after it; each file as served before.
      const ids = new Set(artifact.images.map((i) => i.id));
      const uploads = mine.filter((u) => u.kind === 'upload');
      const lost = uploads.filter((u) => u.endedAt < before.backupStarted && !ids.has(u.mediaId!));
      const fromLater = uploads.filter((u) => u.startedAt > before.backupEnded && ids.has(u.mediaId!));
      expect(uploads.filter((u) => u.endedAt < before.backupStarted).length).toBeGreaterThan(0);
      expect(lost, `images of ${desk.name} answered before the backup`).toEqual([]);
      expect(fromLater, `images of ${desk.name} sent after the backup`).toEqual([]);
      const files = await client.digestsOf(artifact);
      for (const [name, digest] of Object.entries(files)) expect(digest, name).toBe(before.served[name]);
    }
  });

  it('keeps sessions from before the backup only with the same JWT secret', async () => {
    expect((await before.teacher.call('GET', '/users/me')).status).toBe(200);
    await server.stop();
    // Without JWT_SECRET: the secret the restore made in the new DATA_DIR/secrets.
    const fresh = await ownServer(dataDir, path.join(work, 'static'), {
      STATIC_DIR: path.resolve(process.env['E2E_STATIC_DIR'] ?? 'dist'),
    });
    await fresh.start();
    try {
      const signedBefore = new PortalClient(fresh.url, before.teacher.token);
      expect((await signedBefore.call('GET', '/users/me')).status).toBe(401);
    } finally {
      await fresh.stop();
    }
    await server.start();
  });

  it('serves the web app and the mobile app on the restored portal', async () => {
    const portal = new PortalClient(server.url);
    // The mobile app: its login bundle and the artifact decode as its Dart models read them; every file it names loads.
    const { client, login: bundle } = await portal.signIn(DEMO.teacher.email, DEMO.password);
    decodeLoginBundle(bundle);
    const artifact = await client.ok('GET', `/artifacts/${before.lesson.id}`);
    decodeArtifact(artifact, 'artifact');
    expect(Object.keys(await client.digestsOf(bundle)).length).toBeGreaterThan(0);

    // The web app in Chromium: sign in, open the restored artifact, its images load.
    const page = await newPage('/login');
    await login(page, DEMO.teacher.email);
    const mine = (await client.ok<{ id: number; name: string }[]>('GET', '/portfolios')).find(
      (p) => p.name === 'My Portfolio 1',
    )!;
    await page.goto(`/my-portfolios/${mine.id}/artifacts/${before.lesson.id}`);
    await page.getByRole('heading', { name: 'Ramp races, second try' }).waitFor();
    const images = page.locator('img');
    await until(
      async () =>
        (await images.evaluateAll((all) => all.filter((i) => (i as HTMLImageElement).naturalWidth > 0).length)) >= 2 ||
        null,
      'the restored images shown',
    );
  });
});
