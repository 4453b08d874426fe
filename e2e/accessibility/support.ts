import { ffmpegWebm } from '../../server/test/files.ts';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AxeResults } from 'axe-core';
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { animationsDone, api, DEMO, login, setupBrowser, tokenFor, uploadMedia } from '../fixtures.ts';

declare global {
  interface Window {
    axe: { run: (context: Document, options: unknown) => Promise<AxeResults> };
  }
}

/** What the accessibility journeys share: axe in the page, the demo's ids, waiting for the page to settle. */

let browser: ReturnType<typeof setupBrowser> | undefined;
/** A browser of the journey file's own (its hooks in the file that calls this). */
export function setupAudits(): ReturnType<typeof setupBrowser> {
  browser = setupBrowser();
  return browser;
}

export const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const WCAG_21_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

interface Named {
  id: number;
  name: string;
}
interface PortfolioBody extends Named {
  artifacts: {
    id: number;
    parkingLot: boolean;
    responses: Record<string, unknown>;
    images: { url: string }[];
    videos: { url: string }[];
  }[];
}
interface SharedBody extends Named {
  sharedArtifacts: { id: number; responses: Record<string, unknown> }[];
}

/** Ids of the demo data, found through the API. */
export interface Demo {
  forces: number;
  ramp: number;
  exitTicket: number;
  tugOfWar: number;
  imageFile: string;
  videoFile: string;
  leeNotebook: number;
  plc: number;
  engineering: number;
  sharedRamp: number;
  sharedFoodWeb: number;
  invitation: number;
}

const byName = <T extends Named>(list: T[], name: string): T => {
  const found = list.find((item) => item.name === name);
  if (!found) throw new Error(`No "${name}" among ${list.map((i) => i.name).join(', ')}`);
  return found;
};
const artifactNamed = <T extends { responses: Record<string, unknown> }>(list: T[], name: string): T => {
  const found = list.find((a) => a.responses['artifactName'] === name);
  if (!found) throw new Error(`No artifact "${name}"`);
  return found;
};

/** The demo ids; the parking-lot artifact gets a video and a document, so every kind of file is shown. */
export async function findDemo(): Promise<Demo> {
  const tess = await tokenFor(DEMO.teacher.email);
  const lee = await tokenFor(DEMO.lead.email);
  const tessPortfolios = (await api<Named[]>('GET', '/portfolios', undefined, tess)).body;
  const forces = (
    await api<PortfolioBody>('GET', `/portfolios/${byName(tessPortfolios, 'Forces and Motion').id}`, undefined, tess)
  ).body;
  const ramp = artifactNamed(forces.artifacts, 'Ramp races: predicting speed');
  const tugOfWar = artifactNamed(forces.artifacts, 'Tug-of-war video (to finish)');
  if (tugOfWar.videos.length === 0) {
    await uploadMedia(
      tess,
      forces.id,
      tugOfWar.id,
      'videos',
      'kite-flight.webm',
      'video/webm',
      ffmpegWebm({ size: '320x240', kbps: 200 }),
    );
    await uploadMedia(
      tess,
      forces.id,
      tugOfWar.id,
      'documents',
      'rope-notes.txt',
      'text/plain',
      new TextEncoder().encode('Team A pulled harder at first.\n'),
    );
  }
  const withVideo = (await api<PortfolioBody>('GET', `/portfolios/${forces.id}`, undefined, tess)).body;
  const leePortfolios = (await api<Named[]>('GET', '/portfolios', undefined, lee)).body;
  const shared = (await api<Named[]>('GET', '/shared-portfolios', undefined, lee)).body;
  const plc = (
    await api<SharedBody>('GET', `/shared-portfolios/${byName(shared, 'Grades 5–7 Science PLC').id}`, undefined, lee)
  ).body;
  const invitations = (
    await api<{ id: number; sharedPortfolio: { name: string } }[]>('GET', '/invitations', undefined, tess)
  ).body;
  const invitation = invitations.find((i) => i.sharedPortfolio.name === 'Engineering Design Circle');
  if (!invitation) throw new Error('No demo invitation');
  return {
    forces: forces.id,
    ramp: ramp.id,
    exitTicket: artifactNamed(forces.artifacts, 'Balanced forces exit ticket').id,
    tugOfWar: tugOfWar.id,
    imageFile: ramp.images[0]!.url.replace('/uploads/', ''),
    videoFile: artifactNamed(withVideo.artifacts, 'Tug-of-war video (to finish)').videos[0]!.url.replace(
      '/uploads/',
      '',
    ),
    leeNotebook: byName(leePortfolios, 'Engineering Design Lab').id,
    plc: plc.id,
    engineering: byName(shared, 'Engineering Design Circle').id,
    sharedRamp: artifactNamed(plc.sharedArtifacts, 'Ramp races: predicting speed').id,
    sharedFoodWeb: artifactNamed(plc.sharedArtifacts, 'Food web card sort').id,
    invitation: invitation.id,
  };
}

/** Waits until loading is over: no skeleton or busy region, no request in flight, styles applied. */
export async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  await page.waitForFunction(
    () =>
      document.querySelector('main h1, [role="dialog"], [role="alertdialog"]') !== null &&
      document.querySelector('[aria-busy="true"], [role="status"][aria-label^="Loading"]') === null &&
      [...document.querySelectorAll('[role="status"]')].every((s) => !(s.textContent ?? '').startsWith('Loading')),
    undefined,
    { timeout: 20_000 },
  );
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  // Transitions (hover, popovers) finished: colours are final.
  await animationsDone(page);
}

/** Runs axe (WCAG 2.1 A and AA) on the page as it is; returns one line per offending node. */
async function audit(page: Page, where: string): Promise<string[]> {
  await settle(page);
  // Evaluated through the debugging protocol, which the page's Content Security Policy does not govern.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async (tags) => {
    const result = await window.axe.run(document, {
      runOnly: { type: 'tag', values: tags },
      resultTypes: ['violations'],
    });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact ?? 'unknown',
      helpUrl: v.helpUrl,
      nodes: v.nodes.map((n) => `${n.target.join(' ')} — ${(n.failureSummary ?? '').replace(/\s+/g, ' ').trim()}`),
    }));
  }, WCAG_21_AA);
  return violations.flatMap((v) => v.nodes.map((node) => `[${where}] ${v.id} (${v.impact}) ${node} ${v.helpUrl}`));
}

/** Collects the violations of several scans and fails once, listing all of them. */
export function auditor(page: () => Page) {
  const found: string[] = [];
  const scanned: string[] = [];
  return {
    async scan(where: string) {
      scanned.push(where);
      found.push(...(await audit(page(), where)));
    },
    async visit(pathname: string, where = pathname) {
      await page().goto(pathname);
      await this.scan(where);
    },
    assertClean() {
      expect(scanned.length).toBeGreaterThan(0);
      expect(found, `WCAG 2.1 AA violations:\n${found.join('\n')}`).toEqual([]);
    },
  };
}

export async function signedIn(email: string, pathname = '/dashboard'): Promise<Page> {
  if (!browser) throw new Error('setupAudits() first');
  const page = await browser.newPage('/login');
  await login(page, email);
  await page.waitForURL('**/dashboard');
  if (pathname !== '/dashboard') await page.goto(pathname);
  return page;
}

export const artifactsTable = (page: Page): Locator => page.getByRole('grid', { name: 'Artifacts' });
