import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import type { AxeResults } from 'axe-core';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Comment } from '#schemas/sharedArtifact';
import { mediaLabel } from '../src/machines/artifactLifecycle/artifactSelectors.ts';
import { animationsDone, api, baseUrl, DEMO, layoutSettled, login, setupBrowser, tokenFor } from './fixtures.ts';

declare global {
  interface Window {
    axe: { run: (context: Document, options: unknown) => Promise<AxeResults> };
  }
}

const browser = setupBrowser();
const work = mkdtempSync(path.join(os.tmpdir(), 'pf-e2e-moments-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const WCAG_21_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/** A six-second WebM video (VP8, 10 frames a second) made by ffmpeg. */
function webmVideo(): Buffer {
  const file = path.join(work, 'ramp-race.webm');
  execFileSync(process.env['FFMPEG_PATH'] ?? 'ffmpeg', [
    '-hide_banner',
    '-loglevel',
    'error',
    '-f',
    'lavfi',
    '-i',
    'testsrc=duration=6:size=320x240:rate=10',
    '-c:v',
    'libvpx',
    '-b:v',
    '200k',
    '-y',
    file,
  ]);
  return readFileSync(file);
}

interface Named {
  id: number;
  name: string;
}
interface Image {
  id: number;
  caption: string;
  name: string;
}

/** A small PNG photo made by sharp. */
function pngPhoto(): Promise<Buffer> {
  const pixels = Buffer.alloc(160 * 120 * 3);
  for (let i = 0; i < pixels.length; i++) pixels[i] = (i * 31) % 251;
  return sharp(pixels, { raw: { width: 160, height: 120, channels: 3 } })
    .png()
    .toBuffer();
}

/** Uploads a file to an artifact of the demo teacher through the API; returns the stored medium. */
async function upload<T>(
  portfolioId: number,
  artifactId: number,
  kind: 'images' | 'videos',
  name: string,
  type: string,
  data: Buffer,
): Promise<T> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(data)], { type }), name);
  const res = await fetch(`${baseUrl()}/api/v1/portfolios/${portfolioId}/artifacts/${artifactId}/${kind}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${tess}` },
    body: form,
  });
  if (res.status !== 200) throw new Error(`the upload of ${name} failed: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/**
 * This journey's own objects, so that the demo data other journeys read stays as seeded: an artifact
 * of its own in the demo teacher's "Forces and Motion" with a photo and a video, and a shared
 * portfolio of its own (the PLC lead's, the demo teacher a member) holding its copy.
 */
interface Setup {
  forces: number;
  ramp: number;
  image: Image;
  plc: number;
  plcName: string;
  shared: number;
  video: number;
}

const stamp = Date.now();
let setup: Setup;
let tess: string;

beforeAll(async () => {
  tess = await tokenFor(DEMO.teacher.email);
  const portfolios = (await api<Named[]>('GET', '/portfolios', undefined, tess)).body;
  const forces = portfolios.find((p) => p.name === 'Forces and Motion')!;
  const responses = {
    artifactName: `Video moments: rolling cars ${stamp}`,
    learningGoal: 'Students predict which car rolls faster down the ramp.',
  };
  const created = await api<{ id: number }>(
    'POST',
    `/portfolios/${forces.id}/artifacts/responses`,
    { responses, parkingLot: false },
    tess,
  );
  if (created.status !== 200) throw new Error(`the artifact was not created: ${created.status}`);
  const ramp = created.body.id;
  await upload(forces.id, ramp, 'images', 'ramp-setup.png', 'image/png', await pngPhoto());
  const video = await upload<{ id: number; duration: number | null }>(
    forces.id,
    ramp,
    'videos',
    'ramp-race.webm',
    'video/webm',
    webmVideo(),
  );
  // The server read the video's length at its poster step.
  if (video.duration === null || Math.abs(video.duration - 6) > 0.5)
    throw new Error(`the video's length was read as ${video.duration}`);
  const artifact = (await api<{ images: Image[] }>('GET', `/artifacts/${ramp}`, undefined, tess)).body;

  const lead = await tokenFor(DEMO.lead.email);
  const plcName = `Video moments PLC ${stamp}`;
  const plc = await api<{ id: number }>(
    'POST',
    '/shared-portfolios',
    { name: plcName, topic: 'Video moments', structure: [] },
    lead,
  );
  if (plc.status !== 200) throw new Error(`the shared portfolio was not created: ${plc.status}`);
  const me = (await api<{ id: number }>('GET', '/users/me', undefined, tess)).body;
  const invitation = await api<{ id: number }>(
    'POST',
    '/invitations',
    { to: me.id, sharedPortfolio: plc.body.id },
    lead,
  );
  if (invitation.status !== 200) throw new Error(`the invitation failed: ${invitation.status}`);
  const accepted = await api('POST', `/invitations/${invitation.body.id}/accept`, undefined, tess);
  if (accepted.status !== 200) throw new Error(`the invitation was not accepted: ${accepted.status}`);

  const copy = await api<{ id: number }>('POST', `/artifacts/${ramp}/share`, { sharedPortfolioId: plc.body.id }, tess);
  if (copy.status !== 200) throw new Error(`the copy to the shared portfolio failed: ${copy.status}`);
  setup = {
    forces: forces.id,
    ramp,
    image: artifact.images[0]!,
    plc: plc.body.id,
    plcName,
    shared: copy.body.id,
    video: video.id,
  };
});

// The demo teacher leaves this journey's shared portfolio, so that her list of shared portfolios is as seeded.
afterAll(async () => {
  if (!setup) return;
  const left = await api('POST', `/shared-portfolios/${setup.plc}/leave`, {}, tess);
  if (left.status !== 200) throw new Error(`leaving the shared portfolio failed: ${left.status}`);
});

async function signedIn(pathname: string): Promise<Page> {
  const page = await browser.newPage('/login');
  await login(page, DEMO.teacher.email);
  await page.waitForURL('**/dashboard');
  await page.goto(pathname);
  return page;
}

/** Runs axe (WCAG 2.1 A and AA) on the page; one line per offending node. */
async function audit(page: Page): Promise<string[]> {
  await page.waitForLoadState('networkidle');
  await page.waitForFunction(() => document.querySelector('[aria-busy="true"]') === null, undefined, {
    timeout: 20_000,
  });
  await animationsDone(page);
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async (tags) => {
    const result = await window.axe.run(document, {
      runOnly: { type: 'tag', values: tags },
      resultTypes: ['violations'],
    });
    return result.violations.flatMap((v) =>
      v.nodes.map(
        (n) =>
          `${v.id} (${v.impact ?? 'unknown'}) ${n.target.join(' ')} — ${(n.failureSummary ?? '').replace(/\s+/g, ' ')}`,
      ),
    );
  }, WCAG_21_AA);
}

const currentTime = (page: Page) => page.evaluate(() => document.querySelector('video')!.currentTime);

describe('video moments', () => {
  it('a comment at a moment: play, pause there, comment, see the marker, reload, click it and the video seeks there', async () => {
    const page = await signedIn(`/shared-portfolios/${setup.plc}/artifacts/${setup.shared}`);
    const video = page.locator('video');
    await video.waitFor();
    await page.waitForFunction(() => document.querySelector('video')!.readyState >= 1, undefined, { timeout: 20_000 });
    // Play (muted, as autoplay rules allow) and let it run past two seconds.
    await page.evaluate(async () => {
      const v = document.querySelector('video')!;
      v.muted = true;
      await v.play();
    });
    await page.waitForFunction(() => document.querySelector('video')!.currentTime > 2, undefined, { timeout: 20_000 });
    await page.getByRole('button', { name: /^Comment at 0:0\d$/ }).click();
    // "Comment at" paused the video and anchored the composer at that time.
    const composer = page.getByRole('form', { name: /^Comment at 0:0\d$/ });
    await composer.waitFor();
    expect(await page.evaluate(() => document.querySelector('video')!.paused)).toBe(true);
    const paused = await currentTime(page);
    await composer.getByRole('textbox').fill('Here the ball passes the second mark.');
    await composer.getByRole('button', { name: 'Post Comment' }).click();
    await page.getByText('Comment added at').waitFor();

    const detail = (
      await api<{ comments: { text: string; moment: { media: number; start: number; end: number | null } | null }[] }>(
        'GET',
        `/shared-artifacts/${setup.shared}`,
        undefined,
        tess,
      )
    ).body;
    const moment = detail.comments.find((c) => c.text === 'Here the ball passes the second mark.')!.moment!;
    expect(moment.media).toBe(setup.video);
    expect(Math.abs(moment.start - paused)).toBeLessThan(0.25);
    const label = `Comment by ${DEMO.teacher.username} at 0:0${Math.floor(moment.start)}`;
    await page.getByRole('button', { name: label }).waitFor();

    // After a reload the marker is there; clicking it seeks the video and highlights the comment.
    await page.reload();
    await page.waitForFunction(() => (document.querySelector('video')?.readyState ?? 0) >= 1, undefined, {
      timeout: 20_000,
    });
    expect(await currentTime(page)).toBeLessThan(0.25);
    await page.getByRole('button', { name: label }).click();
    await page.waitForFunction(
      (start) => Math.abs(document.querySelector('video')!.currentTime - start) < 0.25,
      moment.start,
      { timeout: 10_000 },
    );
    expect(Math.abs((await currentTime(page)) - moment.start)).toBeLessThan(0.25);
    const comment = page
      .getByRole('article', { name: `Comment by ${DEMO.teacher.username}` })
      .filter({ hasText: 'Here the ball passes the second mark.' });
    expect(await comment.getAttribute('aria-current')).toBe('true');
    // The timeline is announced.
    expect(await page.getByText('1 moment on the timeline.').count()).toBe(1);

    // Keyboard: from the start again, the marker is reached with Tab and operated with Enter.
    await page.evaluate(() => {
      document.querySelector('video')!.currentTime = 0;
    });
    await page.getByRole('button', { name: label }).focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction(
      (start) => Math.abs(document.querySelector('video')!.currentTime - start) < 0.25,
      moment.start,
      { timeout: 10_000 },
    );

    // The video's comments at moments export as CSV and as WebVTT cues.
    const csvHref = await page
      .getByRole('link', { name: /^Download the comments at moments of .* \(CSV\)$/ })
      .getAttribute('href');
    const csv = await page.request.get(csvHref!);
    expect(csv.status()).toBe(200);
    expect(await csv.text()).toContain('Here the ball passes the second mark.');
    const vtt = await page.request.get(
      (await page.getByRole('link', { name: 'Download them as WebVTT captions' }).getAttribute('href'))!,
    );
    expect(vtt.headers()['content-type']).toContain('text/vtt');
    expect(await vtt.text()).toContain(`<v ${DEMO.teacher.username}>Here the ball passes the second mark.`);

    // Filter and order of the thread.
    await page.getByRole('combobox', { name: 'Show' }).selectOption({ label: 'Comments at moments' });
    await comment.waitFor();

    // The player with its markers has no WCAG 2.1 AA violations.
    expect(await audit(page), 'WCAG 2.1 AA violations on the player').toEqual([]);
  });

  it('captions: upload a WebVTT file, the cue is rendered, edit it cue by cue, download it', async () => {
    const page = await signedIn(`/shared-portfolios/${setup.plc}/artifacts/${setup.shared}`);
    const panel = page.locator('details').filter({ has: page.getByText(/^Captions of /) });
    await panel.locator('summary').click();
    await panel.getByText('This video has no captions yet.').waitFor();
    await panel.getByLabel('Caption file (.vtt or .srt)').setInputFiles({
      name: 'ramp-race.vtt',
      mimeType: 'text/vtt',
      buffer: Buffer.from(
        'WEBVTT\n\n00:00.500 --> 00:03.000\nThe ball starts rolling.\n\n00:03.000 --> 00:05.500\nIt passes the <b>second</b> mark.\n',
      ),
    });
    await panel.getByRole('button', { name: 'Upload captions' }).click();
    await panel.getByText('English (en), 2 captions').waitFor();

    // The track is the shown one: at 1 s its first cue is active.
    await page.evaluate(() => {
      document.querySelector('video')!.currentTime = 1;
    });
    await page.waitForFunction(
      () => {
        const track = document.querySelector('video')!.textTracks[0];
        return (
          track?.mode === 'showing' &&
          [...(track.activeCues ?? [])].some((c) => (c as VTTCue).text === 'The ball starts rolling.')
        );
      },
      undefined,
      { timeout: 10_000 },
    );
    expect(await page.getByRole('combobox', { name: 'Captions' }).inputValue()).not.toBe('');

    // The caption editor: change the first cue, save; the file downloads with the change.
    await panel.getByRole('button', { name: 'Edit English captions' }).click();
    const editor = page.getByRole('form', { name: 'Edit captions: English' });
    await editor.waitFor();
    expect(await audit(page), 'WCAG 2.1 AA violations on the caption editor').toEqual([]);
    const first = editor.getByRole('group', { name: 'Caption 1' });
    await first.getByLabel('Text').fill('The ball starts to roll.');
    await editor.getByRole('button', { name: 'Save captions' }).click();
    await page.getByText('Captions saved').waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      panel.getByRole('link', { name: 'Download English captions' }).click(),
    ]);
    const file = path.join(work, 'captions.vtt');
    await download.saveAs(file);
    const text = readFileSync(file, 'utf8');
    expect(text.startsWith('WEBVTT')).toBe(true);
    expect(text).toContain('The ball starts to roll.');
    expect(text).toContain('<b>second</b>');
  });

  it('captions are per artifact: a colleague edits the copy’s track, the personal artifact’s track stays as it was', async () => {
    const personalUrl = `/artifacts/${setup.ramp}/media/${setup.video}/captions`;
    const source = 'WEBVTT\n\n00:00.500 --> 00:03.000\nMy own words.\n';
    const added = await api<{ id: number }>(
      'POST',
      personalUrl,
      { language: 'fr', label: 'Français', format: 'vtt', source },
      tess,
    );
    expect(added.status).toBe(200);
    const copy = await api<{ id: number }>(
      'POST',
      `/artifacts/${setup.ramp}/share`,
      { sharedPortfolioId: setup.plc },
      tess,
    );
    expect(copy.status).toBe(200);

    // The PLC lead edits the copy's French track in the browser.
    const page = await browser.newPage('/login');
    await login(page, DEMO.lead.email);
    await page.waitForURL('**/dashboard');
    await page.goto(`/shared-portfolios/${setup.plc}/artifacts/${copy.body.id}`);
    const panel = page.locator('details').filter({ has: page.getByText(/^Captions of /) });
    await panel.locator('summary').click();
    await panel.getByRole('button', { name: 'Edit Français captions' }).click();
    const editor = page.getByRole('form', { name: 'Edit captions: Français' });
    await editor.getByRole('group', { name: 'Caption 1' }).getByLabel('Text').fill('Rewritten by a colleague.');
    await editor.getByRole('button', { name: 'Save captions' }).click();
    await page.getByText('Captions saved').waitFor();

    type Track = { id: number; label: string; url: string };
    const vttOf = async (track: Track) =>
      (await fetch(`${baseUrl()}/api/v1${track.url}`, { headers: { authorization: `Bearer ${tess}` } })).text();
    const copyTracks = (
      await api<Track[]>('GET', `/shared-artifacts/${copy.body.id}/media/${setup.video}/captions`, undefined, tess)
    ).body;
    expect(await vttOf(copyTracks.find((t) => t.label === 'Français')!)).toContain('Rewritten by a colleague.');
    const personalTracks = (await api<Track[]>('GET', personalUrl, undefined, tess)).body;
    const personal = await vttOf(personalTracks.find((t) => t.label === 'Français')!);
    expect(personal).toContain('My own words.');
    expect(personal).not.toContain('Rewritten');
    // The other copy never had the track.
    const other = (
      await api<Track[]>('GET', `/shared-artifacts/${setup.shared}/media/${setup.video}/captions`, undefined, tess)
    ).body;
    expect(other.map((t) => t.label)).not.toContain('Français');
    // The teacher hears that her copy was edited.
    const feed = (await api<{ items: { kind: string; link: string }[] }>('GET', '/notifications', undefined, tess)).body
      .items;
    expect(feed.some((n) => n.kind === 'snapshot_edited' && n.link.endsWith(`/artifacts/${copy.body.id}`))).toBe(true);
    await page.close();
  });

  it('captions: the caption editor never makes the page scroll sideways, at 390, 768, 1024 and 1280 px', async () => {
    const source =
      'WEBVTT\n\n00:00.500 --> 00:03.000\nA long caption that has to wrap on a phone rather than push the page sideways.\n\n00:03.000 --> 00:05.500\nSecond.\n';
    const added = await api(
      'POST',
      `/shared-artifacts/${setup.shared}/media/${setup.video}/captions`,
      { language: 'de', label: 'Deutsch', format: 'vtt', source },
      tess,
    );
    expect(added.status).toBe(200);
    const page = await signedIn(`/shared-portfolios/${setup.plc}/artifacts/${setup.shared}`);
    const panel = page.locator('details').filter({ has: page.getByText(/^Captions of /) });
    await panel.locator('summary').click();
    await panel.getByRole('button', { name: 'Edit Deutsch captions' }).click();
    const editor = page.getByRole('form', { name: 'Edit captions: Deutsch' });
    await editor.waitFor();
    for (const width of [390, 768, 1024, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await layoutSettled(page);
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow, `sideways scroll at ${width} px`).toBeLessThanOrEqual(0);
      for (const control of [
        editor.getByRole('group', { name: 'Caption 1' }).getByLabel('End (m:ss)'),
        editor.getByRole('button', { name: 'Remove caption 1' }),
      ]) {
        await control.scrollIntoViewIfNeeded();
        const box = (await control.boundingBox())!;
        expect(box.x, `left edge at ${width} px`).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width, `right edge at ${width} px`).toBeLessThanOrEqual(width);
      }
      if (width === 390 || width === 1280) {
        await editor.scrollIntoViewIfNeeded();
        await page.screenshot({ path: path.resolve(`e2e/screenshots/caption-editor-${width}.png`) });
      }
    }
    await page.close();
  });

  it('a moment notification opens with the player in view at the moment, the comment highlighted', async () => {
    const lead = await tokenFor(DEMO.lead.email);
    const text = `At this moment ${stamp}`;
    const posted = await api<{ id: number }>(
      'POST',
      '/comments',
      { sharedArtifact: setup.shared, text, moment: { media: setup.video, start: 4 } },
      lead,
    );
    expect(posted.status).toBe(200);
    const page = await signedIn('/dashboard');
    await page
      .getByRole('banner')
      .getByRole('button', { name: /^Notifications/ })
      .click();
    const panel = page.getByRole('dialog', { name: 'Notifications' });
    const item = panel.getByRole('link', { name: /commented at/ }).first();
    await item.waitFor();
    await item.click();
    await page.waitForURL(
      (url) =>
        /^\/shared-portfolios\/\d+\/artifacts\/\d+$/.test(url.pathname) && url.hash === `#comment-${posted.body.id}`,
    );
    const comment = page.locator(`#comment-${posted.body.id}`);
    await expect.poll(() => comment.getAttribute('aria-current')).toBe('true');
    const player = page.locator('video').first();
    await expect
      .poll(() =>
        player.evaluate((el) => {
          const box = el.getBoundingClientRect();
          return box.top >= 0 && box.bottom <= window.innerHeight;
        }),
      )
      .toBe(true);
    await page.close();
  });

  it('private notes: a note at a moment of her own video, copied to a shared portfolio only when ticked', async () => {
    const page = await signedIn(`/my-portfolios/${setup.forces}/artifacts/${setup.ramp}`);
    const notes = page.getByRole('region', { name: 'My private notes on the video' });
    await notes.waitFor();
    await page.waitForFunction(() => (document.querySelector('video')?.readyState ?? 0) >= 1, undefined, {
      timeout: 20_000,
    });
    await page.evaluate(() => {
      document.querySelector('video')!.currentTime = 4;
    });
    await notes.getByRole('button', { name: 'Note at 0:04' }).click();
    const box = notes.getByRole('form', { name: 'Note at 0:04' });
    await box.getByRole('textbox').fill('Ask them why the heavier car wins.');
    await box.getByRole('button', { name: 'Post Note' }).click();
    await notes.getByRole('listitem', { name: 'Note at 0:04' }).waitFor();
    await notes.getByRole('button', { name: 'Your note at 0:04' }).waitFor();

    // Copied without the box ticked: no comment on the copy; ticked: the note is her comment at that moment.
    const copyOnce = async (tick: boolean): Promise<number> => {
      await page.goto(`/my-portfolios/${setup.forces}/artifacts/${setup.ramp}/copy`);
      await page.getByRole('radio', { name: new RegExp(setup.plcName) }).check();
      const choice = page.getByRole('checkbox', { name: /^Include my private notes/ });
      expect(await choice.isChecked()).toBe(false);
      if (tick) await choice.check();
      await page.getByRole('button', { name: 'COMPLETE COPY' }).click();
      await page.waitForURL(/\/shared-portfolios\/\d+\/artifacts\/\d+/);
      return Number(/\/artifacts\/(\d+)/.exec(page.url())![1]);
    };
    const without = await copyOnce(false);
    const withNotes = await copyOnce(true);
    type Detail = { comments: { text: string; username: string; moment: { start: number } | null }[] };
    expect((await api<Detail>('GET', `/shared-artifacts/${without}`, undefined, tess)).body.comments).toEqual([]);
    const copied = (await api<Detail>('GET', `/shared-artifacts/${withNotes}`, undefined, tess)).body.comments;
    expect(copied.map((c) => [c.text, c.username, c.moment?.start])).toEqual([
      ['Ask them why the heavier car wins.', DEMO.teacher.username, 4],
    ]);
  });

  it('on a phone (390 px) no toast covers the moment composer (by their boxes), also with the composer at the bottom of the window', async () => {
    const page = await signedIn(`/shared-portfolios/${setup.plc}/artifacts/${setup.shared}`);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForFunction(() => (document.querySelector('video')?.readyState ?? 0) >= 1, undefined, {
      timeout: 20_000,
    });
    const commentAt = page.getByRole('button', { name: /^Comment at \d+:\d\d$/ });
    await commentAt.click();
    const composer = page.getByRole('form', { name: /^Comment at \d+:\d\d$/ });
    await composer.getByRole('textbox').fill('Toasts step aside on phones.');
    await composer.getByRole('button', { name: 'Post Comment' }).click();
    const toasts = page.getByRole('region', { name: 'Notifications' }).locator('[role="status"], [role="alert"]');
    await toasts.getByText(/^Comment added at /).waitFor();
    // The next comment at a moment while the confirmation still shows.
    await commentAt.click();
    await composer.getByRole('textbox').click();
    const apart = async (where: string) => {
      await page.waitForTimeout(250);
      const box = (await composer.boundingBox())!;
      expect(await toasts.count(), `${where}: the confirmation still shows`).toBeGreaterThan(0);
      for (const toast of await toasts.all()) {
        const t = (await toast.boundingBox())!;
        const clear =
          t.x + t.width <= box.x || box.x + box.width <= t.x || t.y + t.height <= box.y || box.y + box.height <= t.y;
        expect(clear, `${where}: a toast ${JSON.stringify(t)} covers the composer ${JSON.stringify(box)}`).toBe(true);
      }
    };
    await apart('the composer as it opened');
    await page.evaluate(() => {
      const form = document.querySelector('form[data-keep-clear]')!;
      window.scrollBy(0, form.getBoundingClientRect().bottom - window.innerHeight + 4);
    });
    await apart('the composer at the bottom of the window');
    await page.screenshot({ path: path.resolve('e2e/screenshots/moment-composer-toast-390.png') });
  });

  it('alt text: set on the edit page, then it is the image’s alt', async () => {
    const page = await signedIn(`/my-portfolios/${setup.forces}/artifacts/${setup.ramp}/edit`);
    // The image as people name it (its file name without the extension or separators), not its upload letter.
    const label = mediaLabel({ name: setup.image.name, mime: 'image/png' });
    await page.getByRole('button', { name: `Add alt text of ${label}` }).click();
    const group = page.getByRole('group', { name: `Alt text and description of ${label}` });
    await group.getByLabel('Alt text').fill('Two toy cars at the top of a wooden ramp');
    await group.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('button', { name: `Edit alt text of ${label}` }).waitFor();

    await page.goto(`/my-portfolios/${setup.forces}/artifacts/${setup.ramp}`);
    const image = page.locator('img[alt="Two toy cars at the top of a wooden ramp"]');
    await image.first().waitFor();
    expect(await image.count()).toBeGreaterThan(0);
    // And in the image viewer it opens.
    await image.first().click();
    await page.waitForURL(/\/images\/uploads\//);
    await page
      .getByRole('group', { name: /^Image / })
      .locator('img[alt="Two toy cars at the top of a wooden ramp"]')
      .waitFor();
  });
});

describe('words, times and labels', () => {
  it('files read by their names and videos show a play badge and their length; comments show when, "edited" and @mentions; one Add reaction', async () => {
    // A copy of its own: no comments or reactions from the other journeys.
    const copy = await api<{ id: number }>(
      'POST',
      `/artifacts/${setup.ramp}/share`,
      { sharedPortfolioId: setup.plc },
      tess,
    );
    expect(copy.status).toBe(200);
    const posted = await api<{ id: number }>(
      'POST',
      '/comments',
      { sharedArtifact: copy.body.id, text: `@${DEMO.lead.username}  could you look at the finish? ${stamp}` },
      tess,
    );
    expect(posted.status).toBe(200);
    const plain = await api(
      'POST',
      '/comments',
      { sharedArtifact: copy.body.id, text: `A second look, not changed ${stamp}` },
      tess,
    );
    expect(plain.status).toBe(200);
    // Edited once the server's stamps say so (the SPA's EDITED_AFTER_MS: more than 1 s apart); the same edit until then.
    const isEdited = (c: Comment) => Date.parse(c.updated_at) - Date.parse(c.created_at) > 1000;
    const edit = () =>
      api<Comment>(
        'PUT',
        `/comments/${posted.body.id}`,
        { text: `@${DEMO.lead.username}  could you look at the finish line? ${stamp}` },
        tess,
      );
    await expect
      .poll(
        async () => {
          const edited = await edit();
          expect(edited.status).toBe(200);
          return isEdited(edited.body);
        },
        { interval: 250, timeout: 10_000 },
      )
      .toBe(true);

    for (const width of [390, 1280]) {
      const page = await browser.newPage('/login', { width, height: 900 });
      await login(page, DEMO.teacher.email);
      await page.waitForURL('**/dashboard');

      // The personal artifact: tiles named as people name the files, the video with a badge and its length.
      await page.goto(`/my-portfolios/${setup.forces}/artifacts/${setup.ramp}`);
      const video = page.getByRole('link', { name: 'ramp race (video, 0:06)' });
      await video.waitFor();
      expect(await video.locator('[data-play-badge]').isVisible()).toBe(true);
      expect(await video.locator('[data-duration]').textContent()).toBe('0:06');
      // Its name ends with the file's label (an alt text set by another journey comes first).
      await page.getByRole('link', { name: /(^|\s)ramp setup$/ }).waitFor();
      expect(await page.getByText(/^[A-Z]{1,2}\. \S+\.(png|webm)$/).count()).toBe(0);
      // The badge and the length sit inside the picture.
      const [tile, badge, length] = await Promise.all([
        video.locator('img').boundingBox(),
        video.locator('[data-play-badge] span').boundingBox(),
        video.locator('[data-duration]').boundingBox(),
      ]);
      for (const box of [badge!, length!]) {
        expect(box.x).toBeGreaterThanOrEqual(tile!.x);
        expect(box.x + box.width).toBeLessThanOrEqual(tile!.x + tile!.width + 1);
        expect(box.y + box.height).toBeLessThanOrEqual(tile!.y + tile!.height + 1);
      }
      await page.screenshot({ path: path.resolve(`e2e/screenshots/file-tiles-${width}.png`), fullPage: true });

      // The shared copy: the comments, and the empty reactions bar.
      await page.goto(`/shared-portfolios/${setup.plc}/artifacts/${copy.body.id}`);
      const comments = page.getByRole('region', { name: 'Comments' });
      const mentioned = comments.getByRole('article').filter({ hasText: 'finish line' });
      await mentioned.waitFor();
      expect(await mentioned.locator('[data-mention]').textContent()).toBe(`@${DEMO.lead.username}`);
      // No doubled space after the name, and no markup: one text run, as written.
      expect((await mentioned.locator('p').textContent())!).toContain(`@${DEMO.lead.username} could you`);
      expect(await mentioned.locator('time').first().textContent()).toMatch(/^(just now|\d+ minutes? ago)$/);
      expect(await mentioned.locator('[data-edited]').textContent()).toBe('edited');
      const other = comments.getByRole('article').filter({ hasText: 'not changed' });
      expect(await other.locator('[data-edited]').count()).toBe(0);
      const reactions = page.getByRole('region', { name: 'Reactions' });
      await reactions.getByText('No reactions yet.').waitFor();
      expect(await reactions.getByText(/→/).count()).toBe(0);
      expect(await reactions.getByRole('button', { name: /add reaction/i }).count()).toBe(1);
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
      ).toBeLessThanOrEqual(0);
      await mentioned.scrollIntoViewIfNeeded();
      await page.screenshot({ path: path.resolve(`e2e/screenshots/comment-words-${width}.png`) });
      expect(await audit(page)).toEqual([]);
      await page.close();
    }
  });
});
