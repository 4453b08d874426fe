import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ArchiveDataSchema, type ArchiveJob } from '#schemas/archive';
import { MediaSchema, type Media } from '#schemas/media';
import type { TestApp } from '../../test/helper.ts';
import { archiveKit } from '../../test/archiveKit.ts';
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
import { objectStoreOf } from '../media/objectStore.ts';

// Who may ask for an archive, and what the archive holds (its builder and housekeeping: archiveJobs.test.ts).
const { FAST, SCRIPT, db, config, instance, t, list, ask, settled, alone, closeInstance, jobCount, unzip, entriesOf } =
  await archiveKit();

describe('who may ask for, see and download an archive', () => {
  it('refuses researchers, strangers and anonymous callers', async () => {
    const researcher = await createResearcher(t);
    expect(await t.api({ method: 'POST', url: '/archives', token: researcher.token })).toBeApiError(
      403,
      /researchers cannot build/,
    );
    expect(await t.api({ method: 'GET', url: '/archives', token: researcher.token })).toBeApiError(403);
    expect(await t.api({ method: 'GET', url: '/archives' })).toBeApiError(401);
    expect(await t.api({ method: 'POST', url: '/archives' })).toBeApiError(401);
    expect(await jobCount(researcher)).toBe(0);

    const tess = await createTeacher(t);
    const theo = await createTeacher(t);
    // A teacher cannot name whose work to archive: the request takes no owner.
    expect(
      await t.api({ method: 'POST', url: '/archives', token: theo.token, payload: { ownerId: tess.user.id } }),
    ).toBeApiError(400, /ownerId/);
    expect(await jobCount(tess)).toBe(0);
    expect(await jobCount(theo)).toBe(0);
    const job = await ask(tess);
    const ready = await settled(tess, job.id);
    expect(ready.status).toBe('ready');
    expect(await t.api({ method: 'GET', url: `/archives/${job.id}/download`, token: tess.token })).toHaveStatus(200);
    // Another teacher and a researcher are told it does not exist; nor do they see it listed.
    expect(await t.api({ method: 'GET', url: `/archives/${job.id}/download`, token: theo.token })).toBeApiError(
      404,
      'Archive not found.',
    );
    expect(await t.api({ method: 'GET', url: `/archives/${job.id}/download`, token: researcher.token })).toBeApiError(
      404,
      'Archive not found.',
    );
    expect(await t.api({ method: 'GET', url: `/archives/${job.id}/download` })).toBeApiError(401);
    expect(await list(theo)).toEqual([]);
    expect(await t.api({ method: 'GET', url: '/archives/999999/download', token: tess.token })).toBeApiError(
      404,
      'Archive not found.',
    );
  });

  it('validates strictly: no fields in the request, ids only in the path', async () => {
    const tess = await createTeacher(t);
    expect(
      await t.api({ method: 'POST', url: '/archives', token: tess.token, payload: { portfolios: [1] } }),
    ).toBeApiError(400, /portfolios/);
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
      expect(again).toBeApiError(
        409,
        'Your archive is already being prepared. You can download it as soon as it is ready.',
      );
      expect(await jobCount(tess)).toBe(1);
      // Not ready yet: it cannot be downloaded.
      expect(await list(tess, held)).toEqual([expect.objectContaining({ id: job.id, status: 'building' })]);
      expect(await held.api({ method: 'GET', url: `/archives/${job.id}/download`, token: tess.token })).toBeApiError(
        409,
        'This archive is not ready yet.',
      );
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
    portfolio = await createPortfolio(t, tess, {
      name: `Ramps ${SCRIPT}`,
      subject: `Science ${SCRIPT}`,
      topic: `Motion ${SCRIPT}`,
      grades: ['3rd'],
    });
    artifact = await createArtifact(t, portfolio, {
      parkingLot: false,
      responses: {
        artifactName: `Ramp race ${SCRIPT}`,
        learningGoal: `Friction ${SCRIPT}`,
        unitTiming: `Week 1 ${SCRIPT}`,
      },
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
    await db.query(`UPDATE artifact_media SET alt = $1, description = $2 WHERE media_id = $3`, [
      `Ramp ${SCRIPT}`,
      `Setup ${SCRIPT}`,
      image.id,
    ]);
    // A file whose bytes are gone from the server (the archive says so rather than failing).
    missing = await attachMedia(t, 'artifact', artifact.id, 'document');
    team = await createSharedPortfolio(t, commenter, { name: `Team ${SCRIPT}`, members: [tess] });
    shared = await createSharedArtifact(t, team, tess, {
      responses: { artifactName: `Shared copy ${SCRIPT}`, learningGoal: `Goal ${SCRIPT}` },
    });
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
    expect(ready).toMatchObject({
      status: 'ready',
      progress: 1,
      counts: { portfolios: 1, artifacts: 1, sharedArtifacts: 1, comments: 1, media: 2 },
    });
    expect(res).toHaveStatus(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="practicefolio-archive-\d{4}-\d\d-\d\d\.zip"$/,
    );
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
    expect(p).toMatchObject({
      id: portfolio.id,
      name: `Ramps ${SCRIPT}`,
      grades: ['3rd'],
      page: `portfolio-${portfolio.id}.html`,
    });
    expect(p!.artifacts[0]).toMatchObject({ id: artifact.id, title: `Ramp race ${SCRIPT}`, parkingLot: false });
    expect(p!.artifacts[0]!.answers).toContainEqual(
      expect.objectContaining({ key: 'learningGoal', answer: `Friction ${SCRIPT}` }),
    );
    expect(p!.artifacts[0]!.media).toEqual([
      expect.objectContaining({
        id: image.id,
        kind: 'image',
        caption: 'A',
        alt: `Ramp ${SCRIPT}`,
        description: `Setup ${SCRIPT}`,
        mime: 'image/png',
        size: png.length,
        path: mediaName,
      }),
      expect.objectContaining({ id: missing, kind: 'document', path: null }),
    ]);
    expect(data.portfolios).toHaveLength(1);
    expect(data.sharedArtifacts).toHaveLength(1);
    expect(JSON.stringify(data)).not.toContain('Theo');
    expect(data.sharedArtifacts[0]).toMatchObject({
      id: shared.id,
      sharedPortfolio: { id: team.id, name: `Team ${SCRIPT}` },
    });
    expect(data.sharedArtifacts[0]!.media[0]!.path).toBe(mediaName);
    expect(data.sharedArtifacts[0]!.comments).toEqual([
      expect.objectContaining({ author: commenter.user.username, text: `Nice ${SCRIPT}`, moment: null }),
    ]);
  });

  it('lists each portfolio as last edited when its latest artifact was', () => {
    const index = readFileSync(path.join(site, 'index.html'), 'utf8');
    const row = new RegExp(
      `<a href="portfolio-${portfolio.id}\\.html">[^<]*</a></td><td>1</td><td><time datetime="([^"]+)">`,
    ).exec(index);
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
    expect(artifactPage).toContain(
      `<img src="${mediaName}" alt="Ramp &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;">`,
    );
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

  it('is kept under a random name: 0600 in DATA_DIR/archives, or in the bucket with the media', async () => {
    const kept = (await (await objectStoreOf(config, 'archives')).list('')).filter((f) => f.endsWith('.zip'));
    expect(kept.length).toBeGreaterThan(0);
    for (const f of kept) expect(f).toMatch(/^[A-Za-z0-9_-]{24}\.zip$/);
    const local = readdirSync(path.join(config.dataDir, 'archives')).filter((f) => f.endsWith('.zip'));
    // With MEDIA_STORE=s3 no ZIP stays on the node that built it: another node serves its download.
    expect(local).toEqual(config.s3 ? [] : kept);
    const modes = local.map((f) => (statSync(path.join(config.dataDir, 'archives', f)).mode & 0o777).toString(8));
    expect(modes).toEqual(local.map(() => '600'));
  });

  it('is announced by e-mail with links that work', async () => {
    const message = t.mail.lastTo(tess.user.email);
    expect(message?.subject).toBe('Your PracticeFolio archive is ready');
    expect(message?.links).toEqual([
      `http://portal.test/api/v1/archives/${job.id}/download`,
      'http://portal.test/dashboard',
    ]);
    expect(message?.html).toContain('Hello Tess &lt;script&gt;');
    const followed = await t.app.inject({
      method: 'GET',
      url: new URL(message!.links[0]!).pathname,
      headers: { authorization: `Bearer ${tess.token}` },
    });
    expect(followed).toHaveStatus(200);
    expect(followed.rawPayload.equals(res.rawPayload)).toBe(true);
  });
});

describe('the archive with caption tracks', () => {
  it('holds each video’s caption tracks as WebVTT files next to it, the personal artifact’s and each copy’s', async () => {
    const tess = await createTeacher(t);
    const portfolio = await createPortfolio(t, tess);
    const artifact = await createArtifact(t, portfolio, { parkingLot: false });
    const uploaded = await t.api({
      method: 'POST',
      url: `/portfolios/${portfolio.id}/artifacts/${artifact.id}/videos`,
      token: tess.token,
      ...multipart('file', 'ramp.mp4', ffmpegVideo(), 'video/mp4'),
    });
    expect(uploaded).toHaveStatus(200);
    const video = MediaSchema.parse(uploaded.json());
    const source = 'WEBVTT\n\n00:00.500 --> 00:01.500\nReady, set, go!\n';
    expect(
      await t.api({
        method: 'POST',
        url: `/artifacts/${artifact.id}/media/${video.id}/captions`,
        token: tess.token,
        payload: { language: 'en', label: 'English', format: 'vtt', source },
      }),
    ).toHaveStatus(200);
    const job = await ask(tess);
    expect((await settled(tess, job.id)).status).toBe('ready');
    const site = unzip(
      (await t.api({ method: 'GET', url: `/archives/${job.id}/download`, token: tess.token })).rawPayload,
    );
    const data = ArchiveDataSchema.parse(JSON.parse(readFileSync(path.join(site, 'data.json'), 'utf8')));
    const videoPath = data.portfolios[0]!.artifacts[0]!.media[0]!.path!;
    const track = `${videoPath.replace(/\.mp4$/, '')}.a${artifact.id}.en.vtt`;
    expect(entriesOf(site)).toContain(track);
    expect(readFileSync(path.join(site, track), 'utf8')).toBe(
      'WEBVTT\n\n00:00:00.500 --> 00:00:01.500\nReady, set, go!\n',
    );
  });
});
