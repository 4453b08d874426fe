import { ffmpegWebm } from '../../server/test/files.ts';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import type { AxeResults } from 'axe-core';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll } from 'vitest';
import { animationsDone, api, DEMO, login, setupBrowser, tokenFor, uploadMedia } from '../fixtures.ts';

declare global {
  interface Window {
    axe: { run: (context: Document, options: unknown) => Promise<AxeResults> };
  }
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const WCAG_21_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

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

/**
 * This journey's own objects, so that the demo data other journeys read stays as seeded: an artifact
 * of its own in the demo teacher's "Forces and Motion" with a photo and a video, and a shared
 * portfolio of its own (the PLC lead's, the demo teacher a member) holding its copy.
 */
export interface Setup {
  forces: number;
  ramp: number;
  image: Image;
  plc: number;
  plcName: string;
  shared: number;
  video: number;
}

/**
 * Sets up a video-moments journey file: one Chromium, a work folder, and this journey's own
 * objects (made before its tests, the shared portfolio left after them).
 */
export function setupMoments() {
  const browser = setupBrowser();
  const work = mkdtempSync(path.join(os.tmpdir(), 'pf-e2e-moments-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));
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
    await uploadMedia(tess, forces.id, ramp, 'images', 'ramp-setup.png', 'image/png', await pngPhoto());
    const video = await uploadMedia<{ id: number; duration: number | null }>(
      tess,
      forces.id,
      ramp,
      'videos',
      'ramp-race.webm',
      'video/webm',
      ffmpegWebm({ seconds: 6, size: '320x240', kbps: 200 }),
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

    const copy = await api<{ id: number }>(
      'POST',
      `/artifacts/${ramp}/share`,
      { sharedPortfolioId: plc.body.id },
      tess,
    );
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

  return {
    browser,
    /** A folder of the journey's own files. */
    work,
    /** Tells this run's objects apart. */
    stamp,
    /** The journey's objects. */
    get setup(): Setup {
      return setup;
    },
    /** The demo teacher's session. */
    get tess(): string {
      return tess;
    },
    /** A page signed in as the demo teacher, at `pathname`. */
    async signedIn(pathname: string): Promise<Page> {
      const page = await browser.newPage('/login');
      await login(page, DEMO.teacher.email);
      await page.waitForURL('**/dashboard');
      await page.goto(pathname);
      return page;
    },
  };
}

/** Runs axe (WCAG 2.1 A and AA) on the page; one line per offending node. */
export async function audit(page: Page): Promise<string[]> {
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

export const currentTime = (page: Page) => page.evaluate(() => document.querySelector('video')!.currentTime);
