import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ArchiveDataSchema, ArchiveJobSchema, ArchiveListResponseSchema, type ArchiveJob } from '#schemas/archive';
import { MediaSchema, type Media } from '#schemas/media';
import { buildApp } from '../app.ts';
import { CapturingMailer, createTestDb, testAppOf, testConfig, type TestApp } from '../../test/helper.ts';
import {
  attachMedia,
  createArtifact,
  createComment,
  createPortfolio,
  createResearcher,
  createSharedArtifact,
  createSharedPortfolio,
  createTeacher,
  createUser,
  type TestUser,
} from '../../test/factories.ts';
import { ffmpegVideo, multipart, pngImage } from '../../test/files.ts';

const SCRIPT = '<script>alert("x")</script>';
const FAST = { pollMs: 50, heartbeatMs: 50, leaseMs: 30_000 };

/** Several app instances on one database and one data folder, as several server processes. */
const db = await createTestDb();
const config = testConfig({ ffmpegPath: '/usr/bin/ffmpeg' });
const apps: FastifyInstance[] = [];
afterAll(async () => {
  for (const app of apps) await app.close();
});

async function instance(archives: Parameters<typeof buildApp>[0]['archives'] = FAST): Promise<TestApp> {
  const mail = new CapturingMailer();
  const app = await buildApp({ config, db, mailer: mail, logger: false, archives });
  await app.ready();
  apps.push(app);
  return testAppOf(app, db, mail, config);
}

const t = await instance();

const list = async (who: TestUser, app: TestApp = t): Promise<ArchiveJob[]> => {
  const res = await app.api({ method: 'GET', url: '/archives', token: who.token });
  expect(res).toHaveStatus(200);
  return ArchiveListResponseSchema.parse(res.json());
};

const ask = async (who: TestUser, app: TestApp = t): Promise<ArchiveJob> => {
  const res = await app.api({ method: 'POST', url: '/archives', token: who.token });
  expect(res).toHaveStatus(200);
  return ArchiveJobSchema.parse(res.json());
};

/** A job as the database holds it (the builder's side of it). */
async function jobRow(id: number): Promise<{ status: string; attempts: number; claimed_by: string | null; file_name: string | null } | null> {
  const { rows } = await db.query<{ status: string; attempts: number; claimed_by: string | null; file_name: string | null }>(
    'SELECT status, attempts, claimed_by, file_name FROM archive_jobs WHERE id = $1',
    [id],
  );
  return rows[0] ?? null;
}

/** Waits until the owner's job reaches a final state (ready or failed), as her list shows it. */
async function settled(who: TestUser, jobId: number, timeoutMs = 20_000): Promise<ArchiveJob> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = (await list(who)).find((j) => j.id === jobId);
    if (job && (job.status === 'ready' || job.status === 'failed')) return job;
    if (Date.now() > deadline) throw new Error(`job ${jobId} still ${job?.status}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Whether `condition` holds within `timeoutMs`, looking every 25 ms. */
async function until(condition: () => Promise<boolean>, timeoutMs = 5000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return condition();
}

/** Queues a job for `who` directly in the database (as another process, or an earlier run, left it). */
async function queuedJob(who: TestUser, state = ''): Promise<number> {
  const { rows } = await db.query<{ id: number }>(`INSERT INTO archive_jobs (owner_id) VALUES ($1) RETURNING id`, [who.user.id]);
  const id = rows[0]!.id;
  if (state) await db.query(`UPDATE archive_jobs SET ${state} WHERE id = $1`, [id]);
  return id;
}

/** Runs `work` with `only`'s builder alone looking for jobs: the other instances of this file pause theirs meanwhile. */
async function alone<T>(only: TestApp, work: () => Promise<T>): Promise<T> {
  const others = apps.filter((app) => app !== only.app);
  for (const app of others) await app.archives.worker.stop();
  try {
    return await work();
  } finally {
    for (const app of others) if (apps.includes(app)) app.archives.worker.start();
  }
}

async function closeInstance(instance: TestApp): Promise<void> {
  await instance.app.close();
  apps.splice(apps.indexOf(instance.app), 1);
}

const jobCount = async (who: TestUser): Promise<number> =>
  (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM archive_jobs WHERE owner_id = $1', [who.user.id])).rows[0]!.n;

const unzipped = mkdtempSync(path.join(os.tmpdir(), 'pf-archive-'));
afterAll(() => rmSync(unzipped, { recursive: true, force: true }));

/** Unzips a downloaded archive with Python's zipfile (a reader other than the writer); returns the folder. */
function unzip(zip: Buffer): string {
  const dir = mkdtempSync(path.join(unzipped, 'zip-'));
  const file = path.join(dir, 'archive.zip');
  const out = path.join(dir, 'site');
  writeFileSync(file, zip);
  execFileSync('python3', ['-m', 'zipfile', '-e', file, out]);
  return out;
}

function entriesOf(dir: string, prefix = ''): string[] {
  return readdirSync(path.join(dir, prefix), { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? entriesOf(dir, path.join(prefix, e.name)) : [path.join(prefix, e.name)]))
    .sort();
}

describe('who may ask for, see and download an archive', () => {
  it('refuses researchers, strangers and anonymous callers', async () => {
    const researcher = await createResearcher(t);
    expect(await t.api({ method: 'POST', url: '/archives', token: researcher.token })).toBeApiError(403, /researchers cannot build/);
    expect(await t.api({ method: 'GET', url: '/archives', token: researcher.token })).toBeApiError(403);
    expect(await t.api({ method: 'GET', url: '/archives' })).toBeApiError(401);
    expect(await t.api({ method: 'POST', url: '/archives' })).toBeApiError(401);
    expect(await jobCount(researcher)).toBe(0);

    const tess = await createTeacher(t);
    const theo = await createTeacher(t);
    // A teacher cannot name whose work to archive: the request takes no owner.
    expect(await t.api({ method: 'POST', url: '/archives', token: theo.token, payload: { ownerId: tess.user.id } })).toBeApiError(400, /ownerId/);
    expect(await jobCount(tess)).toBe(0);
    expect(await jobCount(theo)).toBe(0);
    const job = await ask(tess);
    const ready = await settled(tess, job.id);
    expect(ready.status).toBe('ready');
    expect(await t.api({ method: 'GET', url: `/archives/${job.id}/download`, token: tess.token })).toHaveStatus(200);
    // Another teacher and a researcher are told it does not exist; nor do they see it listed.
    expect(await t.api({ method: 'GET', url: `/archives/${job.id}/download`, token: theo.token })).toBeApiError(404, 'Archive not found.');
    expect(await t.api({ method: 'GET', url: `/archives/${job.id}/download`, token: researcher.token })).toBeApiError(404, 'Archive not found.');
    expect(await t.api({ method: 'GET', url: `/archives/${job.id}/download` })).toBeApiError(401);
    expect(await list(theo)).toEqual([]);
    expect(await t.api({ method: 'GET', url: '/archives/999999/download', token: tess.token })).toBeApiError(404, 'Archive not found.');
  });

  it('validates strictly: no fields in the request, ids only in the path', async () => {
    const tess = await createTeacher(t);
    expect(await t.api({ method: 'POST', url: '/archives', token: tess.token, payload: { portfolios: [1] } })).toBeApiError(400, /portfolios/);
    expect(await t.api({ method: 'GET', url: '/archives/abc/download', token: tess.token })).toBeApiError(400);
    expect(await list(tess)).toEqual([]);
  });

  it('keeps one archive under way per teacher', async () => {
    let reached!: () => void;
    const atStep = new Promise<void>((resolve) => (reached = resolve));
    const held = await instance({ ...FAST, onStep: () => (reached(), new Promise(() => undefined)) });
    await alone(held, async () => {
      const tess = await createTeacher(held);
      const portfolio = await createPortfolio(held, tess);
      await createArtifact(held, portfolio, { parkingLot: false });
      const job = await ask(tess, held);
      await atStep;
      const again = await held.api({ method: 'POST', url: '/archives', token: tess.token });
      expect(again).toBeApiError(409, 'Your archive is already being prepared. You can download it as soon as it is ready.');
      expect(await jobCount(tess)).toBe(1);
      // Not ready yet: it cannot be downloaded.
      expect(await list(tess, held)).toEqual([expect.objectContaining({ id: job.id, status: 'building' })]);
      expect(await held.api({ method: 'GET', url: `/archives/${job.id}/download`, token: tess.token })).toBeApiError(409, 'This archive is not ready yet.');
      await closeInstance(held);
    });
  });
});

describe('the archive', () => {
  let tess: TestUser;
  let commenter: TestUser;
  let portfolio: Awaited<ReturnType<typeof createPortfolio>>;
  let artifact: Awaited<ReturnType<typeof createArtifact>>;
  let png: Buffer;
  let image: Media;
  let team: Awaited<ReturnType<typeof createSharedPortfolio>>;
  let shared: Awaited<ReturnType<typeof createSharedArtifact>>;
  let job: ArchiveJob;
  let ready: ArchiveJob;
  let res: Awaited<ReturnType<TestApp['api']>>;
  let site: string;
  let mediaName: string;
  let missing: number;

  beforeAll(async () => {
    tess = await createUser(t, { username: `Tess ${SCRIPT}` });
    commenter = await createUser(t, { username: `Cole <img src=x onerror=alert(1)>` });
    portfolio = await createPortfolio(t, tess, { name: `Ramps ${SCRIPT}`, subject: `Science ${SCRIPT}`, topic: `Motion ${SCRIPT}`, grades: ['3rd'] });
    artifact = await createArtifact(t, portfolio, {
      parkingLot: false,
      responses: { artifactName: `Ramp race ${SCRIPT}`, learningGoal: `Friction ${SCRIPT}`, unitTiming: `Week 1 ${SCRIPT}` },
    });
    png = await pngImage(64, 48);
    const uploaded = await t.api({
      method: 'POST',
      url: `/portfolios/${portfolio.id}/artifacts/${artifact.id}/images`,
      token: tess.token,
      ...multipart('file', `photo ${SCRIPT}.png`, png, 'image/png'),
    });
    if (uploaded.statusCode !== 200) throw new Error(`upload: ${uploaded.statusCode} ${uploaded.body}`);
    image = MediaSchema.parse(uploaded.json());
    await db.query(`UPDATE artifact_media SET alt = $1, description = $2 WHERE media_id = $3`, [`Ramp ${SCRIPT}`, `Setup ${SCRIPT}`, image.id]);
    // A file whose bytes are gone from the server (the archive says so rather than failing).
    missing = await attachMedia(t, 'artifact', artifact.id, 'document');
    team = await createSharedPortfolio(t, commenter, { name: `Team ${SCRIPT}`, members: [tess] });
    shared = await createSharedArtifact(t, team, tess, { responses: { artifactName: `Shared copy ${SCRIPT}`, learningGoal: `Goal ${SCRIPT}` } });
    // The copy holds the same file, as a copy made in the app does.
    await db.query(
      `INSERT INTO shared_artifact_media (shared_artifact_id, media_id, caption, alt, description)
       SELECT $2, media_id, caption, alt, description FROM artifact_media WHERE artifact_id = $1 AND media_id = $3`,
      [artifact.id, shared.id, image.id],
    );
    await createComment(t, shared, commenter, `Nice ${SCRIPT}`);
    // Work of others stays out: another teacher's portfolio, and a comment on another's copy.
    const theo = await createTeacher(t);
    const theirs = await createPortfolio(t, theo, { name: 'Theo private portfolio' });
    await createArtifact(t, theirs, { parkingLot: false, responses: { artifactName: 'Theo private artifact' } });
    const theirCopy = await createSharedArtifact(t, team, theo, { responses: { artifactName: 'Theo shared copy' } });
    await createComment(t, theirCopy, commenter, 'A comment on Theo copy');
    // The portfolio itself was last changed days before its artifact.
    await db.query(`UPDATE portfolios SET updated_at = now() - interval '3 days' WHERE id = $1`, [portfolio.id]);
    job = await ask(tess);
    ready = await settled(tess, job.id);
    res = await t.api({ method: 'GET', url: `/archives/${job.id}/download`, token: tess.token });
    site = unzip(res.rawPayload);
    const data = ArchiveDataSchema.parse(JSON.parse(readFileSync(path.join(site, 'data.json'), 'utf8')));
    mediaName = data.portfolios[0]!.artifacts[0]!.media[0]!.path!;
  });

  it('is listed ready, with its counts, size and expiry, and downloads as a ZIP', () => {
    expect(ready).toMatchObject({ status: 'ready', progress: 1, counts: { portfolios: 1, artifacts: 1, sharedArtifacts: 1, comments: 1, media: 2 } });
    expect(res).toHaveStatus(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="practicefolio-archive-\d{4}-\d\d-\d\d\.zip"$/);
    expect(ready.size).toBe(res.rawPayload.length);
    const days = (Date.parse(ready.expires_at!) - Date.parse(ready.finished_at!)) / 86_400_000;
    expect(days).toBeCloseTo(7, 3);
  });

  it('holds the site, the data and the original files', () => {
    expect(mediaName).toMatch(new RegExp(`^media/${image.id}-[A-Za-z0-9._-]+\\.png$`));
    expect(entriesOf(site)).toEqual(
      [
        'README.txt',
        `artifact-${artifact.id}.html`,
        'data.json',
        'index.html',
        mediaName,
        `portfolio-${portfolio.id}.html`,
        `shared-artifact-${shared.id}.html`,
      ].sort(),
    );
    // The original bytes, once, although both artifacts hold the file.
    expect(readFileSync(path.join(site, mediaName)).equals(png)).toBe(true);
    const data = ArchiveDataSchema.parse(JSON.parse(readFileSync(path.join(site, 'data.json'), 'utf8')));
    expect(data.teacher).toEqual({ username: tess.user.username, email: tess.user.email });
    const [p] = data.portfolios;
    expect(p).toMatchObject({ id: portfolio.id, name: `Ramps ${SCRIPT}`, grades: ['3rd'], page: `portfolio-${portfolio.id}.html` });
    expect(p!.artifacts[0]).toMatchObject({ id: artifact.id, title: `Ramp race ${SCRIPT}`, parkingLot: false });
    expect(p!.artifacts[0]!.answers).toContainEqual(expect.objectContaining({ key: 'learningGoal', answer: `Friction ${SCRIPT}` }));
    expect(p!.artifacts[0]!.media).toEqual([
      expect.objectContaining({ id: image.id, kind: 'image', caption: 'A', alt: `Ramp ${SCRIPT}`, description: `Setup ${SCRIPT}`, mime: 'image/png', size: png.length, path: mediaName }),
      expect.objectContaining({ id: missing, kind: 'document', path: null }),
    ]);
    expect(data.portfolios).toHaveLength(1);
    expect(data.sharedArtifacts).toHaveLength(1);
    expect(JSON.stringify(data)).not.toContain('Theo');
    expect(data.sharedArtifacts[0]).toMatchObject({ id: shared.id, sharedPortfolio: { id: team.id, name: `Team ${SCRIPT}` } });
    expect(data.sharedArtifacts[0]!.media[0]!.path).toBe(mediaName);
    expect(data.sharedArtifacts[0]!.comments).toEqual([
      expect.objectContaining({ author: commenter.user.username, text: `Nice ${SCRIPT}`, moment: null }),
    ]);
  });

  it('lists each portfolio as last edited when its latest artifact was', () => {
    const index = readFileSync(path.join(site, 'index.html'), 'utf8');
    const row = new RegExp(`<a href="portfolio-${portfolio.id}\\.html">[^<]*</a></td><td>1</td><td><time datetime="([^"]+)">`).exec(index);
    const data = ArchiveDataSchema.parse(JSON.parse(readFileSync(path.join(site, 'data.json'), 'utf8')));
    const latest = data.portfolios[0]!.artifacts[0]!.updated_at;
    expect(Date.parse(latest) - Date.parse(data.portfolios[0]!.updated_at)).toBeGreaterThan(2 * 86_400_000);
    expect(row?.[1]).toBe(latest);
  });

  it('escapes every text in its pages: no script, no markup from the data', () => {
    const pages = entriesOf(site).filter((f) => f.endsWith('.html'));
    expect(pages).toHaveLength(4);
    for (const page of pages) {
      const html = readFileSync(path.join(site, page), 'utf8');
      expect(html, page).not.toMatch(/<script/i);
      expect(html, page).not.toMatch(/<img src=x/i);
      expect(html, page).not.toMatch(/(src|href)="(https?:)?\/\//);
      expect(html, page).toContain('&lt;script&gt;');
    }
    const artifactPage = readFileSync(path.join(site, `artifact-${artifact.id}.html`), 'utf8');
    expect(artifactPage).toContain(`<img src="${mediaName}" alt="Ramp &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;">`);
    expect(artifactPage).toContain('Friction &lt;script&gt;');
    expect(artifactPage).toContain('Week 1 &lt;script&gt;');
    const sharedPage = readFileSync(path.join(site, `shared-artifact-${shared.id}.html`), 'utf8');
    expect(sharedPage).toContain('<strong>Cole &lt;img src=x onerror=alert(1)&gt;</strong>');
    expect(sharedPage).toContain('Nice &lt;script&gt;');
    expect(sharedPage).not.toContain('Theo');
    expect(artifactPage).toContain('this file was not available when the archive was made');
    const index = readFileSync(path.join(site, 'index.html'), 'utf8');
    expect(index).toContain(`<a href="portfolio-${portfolio.id}.html">Ramps &lt;script&gt;`);
  });

  it('is written 0600 under a random name in DATA_DIR/archives', () => {
    const files = readdirSync(path.join(config.dataDir, 'archives')).filter((f) => f.endsWith('.zip'));
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) {
      expect(f).toMatch(/^[A-Za-z0-9_-]{24}\.zip$/);
      expect(statSync(path.join(config.dataDir, 'archives', f)).mode & 0o777).toBe(0o600);
    }
  });

  it('is announced by e-mail with links that work', async () => {
    const message = t.mail.lastTo(tess.user.email);
    expect(message?.subject).toBe('Your PracticeFolio archive is ready');
    expect(message?.links).toEqual([`http://portal.test/api/v1/archives/${job.id}/download`, 'http://portal.test/dashboard']);
    expect(message?.html).toContain('Hello Tess &lt;script&gt;');
    const followed = await t.app.inject({ method: 'GET', url: new URL(message!.links[0]!).pathname, headers: { authorization: `Bearer ${tess.token}` } });
    expect(followed).toHaveStatus(200);
    expect(followed.rawPayload.equals(res.rawPayload)).toBe(true);
  });
});

describe('the archive with caption tracks', () => {
  it('holds each video’s caption tracks as WebVTT files next to it, the personal artifact’s and each copy’s', async () => {
    const tess = await createTeacher(t);
    const portfolio = await createPortfolio(t, tess);
    const artifact = await createArtifact(t, portfolio, { parkingLot: false });
    const uploaded = await t.api({ method: 'POST', url: `/portfolios/${portfolio.id}/artifacts/${artifact.id}/videos`, token: tess.token, ...multipart('file', 'ramp.mp4', ffmpegVideo(), 'video/mp4') });
    expect(uploaded).toHaveStatus(200);
    const video = MediaSchema.parse(uploaded.json());
    const source = 'WEBVTT\n\n00:00.500 --> 00:01.500\nReady, set, go!\n';
    expect(await t.api({ method: 'POST', url: `/artifacts/${artifact.id}/media/${video.id}/captions`, token: tess.token, payload: { language: 'en', label: 'English', format: 'vtt', source } })).toHaveStatus(200);
    const job = await ask(tess);
    expect((await settled(tess, job.id)).status).toBe('ready');
    const site = unzip((await t.api({ method: 'GET', url: `/archives/${job.id}/download`, token: tess.token })).rawPayload);
    const data = ArchiveDataSchema.parse(JSON.parse(readFileSync(path.join(site, 'data.json'), 'utf8')));
    const videoPath = data.portfolios[0]!.artifacts[0]!.media[0]!.path!;
    const track = `${videoPath.replace(/\.mp4$/, '')}.a${artifact.id}.en.vtt`;
    expect(entriesOf(site)).toContain(track);
    expect(readFileSync(path.join(site, track), 'utf8')).toBe('WEBVTT\n\n00:00:00.500 --> 00:00:01.500\nReady, set, go!\n');
  });
});

describe('the background builder', () => {
  it('hands a build back when its server stops, and another instance finishes it', async () => {
    let reached!: () => void;
    const atStep = new Promise<void>((resolve) => (reached = resolve));
    const first = await instance({ ...FAST, onStep: () => (reached(), new Promise(() => undefined)) });
    const tess = await createTeacher(first);
    const job = await alone(first, async () => {
      const portfolio = await createPortfolio(first, tess);
      await createArtifact(first, portfolio, { parkingLot: false });
      await createArtifact(first, portfolio, { parkingLot: false });
      const queued = await ask(tess, first);
      await atStep;
      expect((await jobRow(queued.id))?.status).toBe('building');
      // Its progress reaches the list through the lease renewals.
      expect(await until(async () => (await list(tess, first))[0]!.progress > 0)).toBe(true);
      await closeInstance(first);
      return queued;
    });
    // Handed back at once, not counted as a failed attempt, and no half-written file left behind.
    expect(await jobRow(job.id)).toMatchObject({ status: 'queued', attempts: 0, claimed_by: null });
    expect(readdirSync(path.join(config.dataDir, 'archives')).filter((f) => f.startsWith('.'))).toEqual([]);

    const second = await instance();
    const done = await settled(tess, job.id);
    expect(done.status).toBe('ready');
    expect(await jobRow(job.id)).toMatchObject({ status: 'ready', attempts: 1 });
    // Whichever running instance finished it, the teacher hears of it once.
    const sent = [...t.mail.sent, ...second.mail.sent].filter((m) => m.to === tess.user.email);
    expect(sent.map((m) => m.subject)).toEqual(['Your PracticeFolio archive is ready']);
  });

  it('takes up a job whose builder died (its lease lapsed)', async () => {
    const tess = await createTeacher(t);
    const id = await queuedJob(tess, `status = 'building', claimed_by = 'elsewhere:1:crashed', lease_until = now() - interval '1 second', attempts = 1`);
    await instance();
    const done = await settled(tess, id);
    expect(done.status).toBe('ready');
    expect((await jobRow(id))?.attempts).toBe(2);
  });

  it('on start, takes up at once a job whose process on this machine was killed, before its lease lapses', async () => {
    // A process that has ended: its id is free.
    const dead = spawnSync(process.execPath, ['-e', '']).pid;
    const tess = await createTeacher(t);
    const theo = await createTeacher(t);
    const killed = await queuedJob(tess, `status = 'building', claimed_by = '${os.hostname()}:${dead}:killed', lease_until = now() + interval '1 hour', attempts = 1`);
    // A job of a process that runs (this one) is left to its builder.
    const live = await queuedJob(theo, `status = 'building', claimed_by = '${os.hostname()}:${process.pid}:alive', lease_until = now() + interval '1 hour', attempts = 1`);
    await instance();
    const done = await settled(tess, killed);
    expect(done.status).toBe('ready');
    expect((await jobRow(killed))?.attempts).toBe(2);
    expect(await jobRow(live)).toMatchObject({ status: 'building', claimed_by: `${os.hostname()}:${process.pid}:alive` });
    await db.query(`UPDATE archive_jobs SET status = 'failed', claimed_by = NULL, lease_until = NULL, finished_at = now(), expires_at = now() WHERE id = $1`, [live]);
  });

  it('gives up a job that was taken up too often without finishing', async () => {
    const tess = await createTeacher(t);
    const id = await queuedJob(tess, `status = 'building', claimed_by = 'elsewhere:1:crashed', lease_until = now() - interval '1 second', attempts = 3`);
    const failed = await settled(tess, id);
    expect(failed).toMatchObject({ status: 'failed', size: null });
    expect(await t.api({ method: 'GET', url: `/archives/${id}/download`, token: tess.token })).toBeApiError(404, 'Archive not found.');
    // The teacher may ask again.
    await settled(tess, (await ask(tess)).id);
  });

  it('gives each job to one claimer when two servers claim at once', async () => {
    const a = await instance({ pollMs: 3_600_000, heartbeatMs: 50, leaseMs: 60_000 });
    const b = await instance({ pollMs: 3_600_000, heartbeatMs: 50, leaseMs: 60_000 });
    await alone(a, async () => {
      // b pauses with the others: both only claim, when told to.
      const teachers = await Promise.all(Array.from({ length: 6 }, () => createTeacher(t)));
      const jobs = await Promise.all(teachers.map((who) => queuedJob(who)));
      const claims = await Promise.all(Array.from({ length: 16 }, (_, i) => (i % 2 ? a : b).app.archives.worker.claim()));
      const claimed = claims.flatMap((c) => (c ? [c.id] : []));
      // Every job claimed, none twice (a job an earlier test left waiting may be among them).
      expect(new Set(claimed).size).toBe(claimed.length);
      expect(claimed).toEqual(expect.arrayContaining(jobs));
      expect(claims.filter((c) => c === null).length).toBeGreaterThan(0);
      const { rows } = await db.query<{ attempts: number }>('SELECT attempts FROM archive_jobs WHERE id = ANY($1::int[])', [jobs]);
      expect(rows.map((r) => r.attempts)).toEqual([1, 1, 1, 1, 1, 1]);
      await closeInstance(a);
      await closeInstance(b);
    });
  });

  it('stops its builder and timers when the server closes', async () => {
    const quiet = await instance();
    const tess = await createTeacher(quiet);
    await closeInstance(quiet);
    // A closed server builds nothing: with every other instance paused, a job waits.
    await alone(t, async () => {
      await t.app.archives.worker.stop();
      const id = await queuedJob(tess);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect((await jobRow(id))?.status).toBe('queued');
      t.app.archives.worker.start();
      expect((await settled(tess, id)).status).toBe('ready');
    });
  });
});

describe('housekeeping', () => {
  it('removes expired archives with their files', async () => {
    const tess = await createTeacher(t);
    const job = await ask(tess);
    await settled(tess, job.id);
    const record = (await jobRow(job.id))!;
    const file = path.join(config.dataDir, 'archives', record.file_name!);
    expect(statSync(file).isFile()).toBe(true);
    await db.query(`UPDATE archive_jobs SET expires_at = now() - interval '1 second' WHERE id = $1`, [job.id]);
    expect(await t.api({ method: 'GET', url: `/archives/${job.id}/download`, token: tess.token })).toBeApiError(404, 'This archive has expired. Ask for a new one.');
    expect(await list(tess)).toEqual([]);
    await t.app.archives.prune();
    expect(await jobRow(job.id)).toBeNull();
    expect(existsSync(file)).toBe(false);
  });
});
