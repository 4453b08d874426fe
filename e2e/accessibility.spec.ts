import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import type { AxeResults } from 'axe-core';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { animationsDone, api, baseUrl, DEMO, login, setupBrowser, tokenFor } from './fixtures.ts';

declare global {
  interface Window {
    axe: { run: (context: Document, options: unknown) => Promise<AxeResults> };
  }
}

const browser = setupBrowser();
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const WCAG_21_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

interface Named {
  id: number;
  name: string;
}
interface PortfolioBody extends Named {
  artifacts: { id: number; parkingLot: boolean; responses: Record<string, unknown>; images: { url: string }[]; videos: { url: string }[] }[];
}
interface SharedBody extends Named {
  sharedArtifacts: { id: number; responses: Record<string, unknown> }[];
}

/** Ids of the demo data, found through the API. */
interface Demo {
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

/** Uploads a file to a personal artifact through the API. */
async function upload(token: string, portfolioId: number, artifactId: number, kind: 'videos' | 'documents', name: string, type: string, data: Uint8Array) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(data)], { type }), name);
  const res = await fetch(`${baseUrl()}/api/v1/portfolios/${portfolioId}/artifacts/${artifactId}/${kind}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  if (!res.ok) throw new Error(`upload of ${name} failed: ${res.status} ${await res.text()}`);
}

/** A two-second WebM clip (Chromium plays WebM without proprietary codecs). */
function clip(): Uint8Array {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'pf-a11y-')), 'kite-flight.webm');
  const ffmpeg = spawnSync(process.env['FFMPEG_PATH'] ?? 'ffmpeg', ['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', 'testsrc=size=320x240:rate=10', '-t', '2', '-c:v', 'libvpx', '-y', file]);
  if (ffmpeg.status !== 0) throw new Error(`ffmpeg could not make the test video: ${ffmpeg.stderr?.toString() ?? ffmpeg.error}`);
  return readFileSync(file);
}

/** The demo ids; the parking-lot artifact gets a video and a document, so every kind of file is shown. */
async function findDemo(): Promise<Demo> {
  const tess = await tokenFor(DEMO.teacher.email);
  const lee = await tokenFor(DEMO.lead.email);
  const tessPortfolios = (await api<Named[]>('GET', '/portfolios', undefined, tess)).body;
  const forces = (await api<PortfolioBody>('GET', `/portfolios/${byName(tessPortfolios, 'Forces and Motion').id}`, undefined, tess)).body;
  const ramp = artifactNamed(forces.artifacts, 'Ramp races: predicting speed');
  const tugOfWar = artifactNamed(forces.artifacts, 'Tug-of-war video (to finish)');
  if (tugOfWar.videos.length === 0) {
    await upload(tess, forces.id, tugOfWar.id, 'videos', 'kite-flight.webm', 'video/webm', clip());
    await upload(tess, forces.id, tugOfWar.id, 'documents', 'rope-notes.txt', 'text/plain', new TextEncoder().encode('Team A pulled harder at first.\n'));
  }
  const withVideo = (await api<PortfolioBody>('GET', `/portfolios/${forces.id}`, undefined, tess)).body;
  const leePortfolios = (await api<Named[]>('GET', '/portfolios', undefined, lee)).body;
  const shared = (await api<Named[]>('GET', '/shared-portfolios', undefined, lee)).body;
  const plc = (await api<SharedBody>('GET', `/shared-portfolios/${byName(shared, 'Grades 5–7 Science PLC').id}`, undefined, lee)).body;
  const invitations = (await api<{ id: number; sharedPortfolio: { name: string } }[]>('GET', '/invitations', undefined, tess)).body;
  const invitation = invitations.find((i) => i.sharedPortfolio.name === 'Engineering Design Circle');
  if (!invitation) throw new Error('No demo invitation');
  return {
    forces: forces.id,
    ramp: ramp.id,
    exitTicket: artifactNamed(forces.artifacts, 'Balanced forces exit ticket').id,
    tugOfWar: tugOfWar.id,
    imageFile: ramp.images[0]!.url.replace('/uploads/', ''),
    videoFile: artifactNamed(withVideo.artifacts, 'Tug-of-war video (to finish)').videos[0]!.url.replace('/uploads/', ''),
    leeNotebook: byName(leePortfolios, 'Engineering Design Lab').id,
    plc: plc.id,
    engineering: byName(shared, 'Engineering Design Circle').id,
    sharedRamp: artifactNamed(plc.sharedArtifacts, 'Ramp races: predicting speed').id,
    sharedFoodWeb: artifactNamed(plc.sharedArtifacts, 'Food web card sort').id,
    invitation: invitation.id,
  };
}

/** Waits until loading is over: no skeleton or busy region, no request in flight, styles applied. */
async function settle(page: Page): Promise<void> {
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
    const result = await window.axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
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
function auditor(page: () => Page) {
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

async function signedIn(email: string, pathname = '/dashboard'): Promise<Page> {
  const page = await browser.newPage('/login');
  await login(page, email);
  await page.waitForURL('**/dashboard');
  if (pathname !== '/dashboard') await page.goto(pathname);
  return page;
}

const artifactsTable = (page: Page): Locator => page.getByRole('grid', { name: 'Artifacts' });

describe('axe-core: WCAG 2.1 AA on every route, for every role', () => {
  let demo: Demo;
  beforeAll(async () => {
    demo = await findDemo();
  });

  it('anonymous: public pages, login, forgot, reset, viewers', async () => {
    const page = await browser.newPage('/');
    await page.waitForURL('**/home');
    const a = auditor(() => page);
    await a.scan('/ → /home');
    for (const pathname of ['/about', '/privacy', '/login', '/forgot-password', '/reset-password/not-a-real-code']) await a.visit(pathname);

    await page.goto('/login');
    await page.getByLabel('Email').fill(DEMO.teacher2.email);
    await page.getByLabel('Password', { exact: true }).fill('not the password');
    await page.getByRole('button', { name: 'LOGIN' }).click();
    await page.getByRole('alert').filter({ hasText: 'Incorrect email or password.' }).waitFor();
    await a.scan('/login with a refused password');

    await page.goto('/login');
    await page.getByRole('button', { name: 'LOGIN' }).click();
    await a.scan('/login with empty fields');

    await a.visit('/no-such-page', 'not found');

    // A file's address is its capability: whoever holds it sees the file (the mobile apps open
    // these pages in the phone's browser); an expired or tampered one shows why not. The browser
    // reports the refused file itself; that is expected here, anything else is not.
    const unexpected: string[] = [];
    page.removeAllListeners('console');
    page.on('console', (m) => {
      if (m.type() === 'error' && !(m.text().startsWith('Failed to load resource: the server responded with a status of 40') && /status of 40[14]/.test(m.text()) && (m.location().url.includes('/uploads/') || m.location().url.includes('/viewer-files/'))))
        unexpected.push(m.text());
    });
    const expired = (address: string) => address.replace(/^[^/]+\//, 'x.y.zzzzzzzzzzzzzzzzzzzzzz/');
    await page.goto(`/images/uploads/${demo.imageFile}.html`);
    await expect.poll(() => page.locator('[data-file] img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
    await a.scan('/images/uploads/{capability}/{file}.html (visitor)');
    await page.goto(`/images/uploads/${expired(demo.imageFile)}.html`);
    await page.getByText('This image could not be shown.').waitFor();
    await a.scan('/images/uploads/{capability}/{file}.html (visitor, expired address)');
    await page.goto(`/videos/uploads/${expired(demo.videoFile)}.html`);
    await page.getByText('This video could not be shown.').waitFor();
    await a.scan('/videos/uploads/{capability}/{file}.html (visitor, expired address)');
    expect(unexpected).toEqual([]);
    a.assertClean();
  });

  it('teacher: dashboard, my portfolios, artifacts, shared portfolios, invitation, dialogs', async () => {
    const page = await signedIn(DEMO.teacher.email);
    const a = auditor(() => page);
    await a.scan('teacher /dashboard');

    await page.getByRole('button', { name: DEMO.teacher.username }).click();
    await page.getByRole('menuitem', { name: 'Log Out' }).waitFor();
    await a.scan('teacher user menu open');
    await page.keyboard.press('Escape');

    await a.visit('/my-portfolios', 'teacher /my-portfolios');
    await a.visit(`/my-portfolios/${demo.forces}`, 'teacher /my-portfolios/{id}');
    await a.visit(`/my-portfolios/${demo.forces}/artifacts/${demo.ramp}`, 'teacher /my-portfolios/{id}/artifacts/{completed}');
    await a.visit(`/my-portfolios/${demo.forces}/artifacts/${demo.tugOfWar}`, 'teacher /my-portfolios/{id}/artifacts/{parking lot, video, document}');

    await page.getByRole('button', { name: 'Filter By' }).click();
    await page.getByRole('dialog', { name: 'Filter By' }).waitFor();
    await a.scan('teacher Filter By dialog');
    await page.getByRole('dialog', { name: 'Filter By' }).getByRole('checkbox', { name: 'Assessment' }).check();
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('button', { name: 'Remove filter Assessment' }).waitFor();
    await a.scan('teacher active filters');
    await page.getByRole('button', { name: 'Remove filter Assessment' }).click();

    await page.getByRole('checkbox', { name: 'Compare', exact: true }).check();
    await page.getByRole('checkbox', { name: 'Compare Ramp races: predicting speed' }).check();
    await page.getByRole('checkbox', { name: 'Compare Balanced forces exit ticket' }).check();
    await page.getByRole('heading', { name: 'Balanced forces exit ticket' }).waitFor();
    await a.scan('teacher compare mode with two artifacts');
    await page.getByRole('checkbox', { name: 'Compare', exact: true }).uncheck();

    await page.goto(`/my-portfolios/${demo.forces}/artifacts/${demo.exitTicket}`);
    await page.getByRole('button', { name: 'Delete Artifact' }).click();
    await page.getByRole('alertdialog').waitFor();
    await a.scan('teacher Delete Artifact confirmation');
    await page.getByRole('alertdialog').getByRole('button', { name: 'NO' }).click();

    await a.visit(`/my-portfolios/${demo.forces}/edit`, 'teacher /my-portfolios/{id}/edit');
    await a.visit(`/my-portfolios/${demo.forces}/artifacts/${demo.ramp}/edit`, 'teacher /my-portfolios/{id}/artifacts/{id}/edit');
    await a.visit(`/my-portfolios/${demo.forces}/artifacts/${demo.tugOfWar}/edit`, 'teacher parking-lot artifact edit');
    await page.getByRole('button', { name: 'Submit to Portfolio' }).click();
    await page.getByText('There were errors in your form, please review and resubmit').waitFor();
    await a.scan('teacher artifact edit with form errors');
    await a.visit(`/my-portfolios/${demo.forces}/artifacts/${demo.ramp}/copy`, 'teacher /my-portfolios/{id}/artifacts/{id}/copy');

    await page.goto(`/images/uploads/${demo.imageFile}.html`);
    // Opened by its address (as the mobile apps do), the viewer asks the server for the file's name and artifact.
    await expect.poll(() => page.locator('[data-file] img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
    await page.getByRole('link', { name: /^← Back to Ramp races/ }).waitFor();
    await a.scan('teacher /images/uploads/{file}.html');
    await page.goto(`/videos/uploads/${demo.videoFile}.html`);
    await expect.poll(() => page.locator('video').evaluate((video: HTMLVideoElement) => video.readyState)).toBeGreaterThan(0);
    await a.scan('teacher /videos/uploads/{file}.html');

    await a.visit('/shared-portfolios', 'teacher /shared-portfolios');
    await a.visit(`/shared-portfolios/${demo.plc}`, 'teacher /shared-portfolios/{id}');
    await a.visit(`/shared-portfolios/${demo.plc}/artifacts/${demo.sharedRamp}`, 'teacher /shared-portfolios/{id}/artifacts/{id}');
    await page.getByRole('button', { name: 'Add reaction' }).click();
    await page.getByRole('dialog', { name: 'ADD REACTION' }).waitFor();
    await a.scan('teacher reaction picker open');
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: 'Filter By' }).click();
    await page.getByRole('dialog', { name: 'Filter By' }).waitFor();
    await a.scan('teacher shared Filter By dialog');
    await page.getByRole('button', { name: 'Done' }).click();

    await page.getByRole('button', { name: /^Leave/ }).click();
    await page.getByRole('alertdialog').waitFor();
    await a.scan('teacher Leave confirmation');
    await page.getByRole('alertdialog').getByRole('button', { name: 'NO' }).click();

    await a.visit(`/shared-portfolios/${demo.plc}/artifacts/${demo.sharedFoodWeb}`, 'teacher shared artifact with own comment');
    await page.getByRole('button', { name: 'Edit comment' }).click();
    await a.scan('teacher editing a comment');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('button', { name: 'Delete comment' }).click();
    await page.getByRole('alertdialog').waitFor();
    await a.scan('teacher Delete Comment confirmation');
    await page.getByRole('alertdialog').getByRole('button', { name: 'NO' }).click();

    await a.visit(`/shared-portfolios/${demo.plc}/artifacts/${demo.sharedRamp}/edit`, 'teacher /shared-portfolios/{id}/artifacts/{id}/edit');
    await a.visit(`/shared-portfolios/${demo.plc}/artifacts/${demo.sharedRamp}/copy`, 'teacher /shared-portfolios/{id}/artifacts/{id}/copy');
    await a.visit(`/invitation/${demo.invitation}`, 'teacher /invitation/{id}');
    await page.getByRole('button', { name: 'Delete Invitation' }).click();
    await page.getByRole('alertdialog').waitFor();
    await a.scan('teacher Delete Invitation confirmation');
    await page.getByRole('alertdialog').getByRole('button', { name: 'NO' }).click();

    // The Edit Conflict dialog: someone else saves while the form is open.
    await page.goto(`/shared-portfolios/${demo.plc}/artifacts/${demo.sharedRamp}/edit`);
    await settle(page);
    const lee = await tokenFor(DEMO.lead.email);
    const current = await api<{ responses: Record<string, unknown>; updated_at: string }>('GET', `/shared-artifacts/${demo.sharedRamp}`, undefined, lee);
    await new Promise((r) => setTimeout(r, 20));
    const saved = await api('PUT', `/shared-artifacts/${demo.sharedRamp}`, { responses: current.body.responses, updated_at: current.body.updated_at }, lee);
    expect(saved.status).toBe(200);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('alertdialog', { name: 'Edit Conflict' }).waitFor();
    await a.scan('teacher Edit Conflict dialog');
    await page.getByRole('alertdialog').getByRole('button', { name: 'NO' }).click();
    a.assertClean();
  });

  it('PLC lead: dashboard, own portfolio, shared portfolio form and participants', async () => {
    const page = await signedIn(DEMO.lead.email);
    const a = auditor(() => page);
    await a.scan('lead /dashboard');
    await a.visit(`/my-portfolios/${demo.leeNotebook}`, 'lead /my-portfolios/{id}');
    await a.visit(`/shared-portfolios/${demo.plc}/artifacts/${demo.sharedFoodWeb}`, 'lead /shared-portfolios/{id}/artifacts/{id}');
    await a.visit('/shared-portfolios/new', 'lead /shared-portfolios/new');
    await page.getByRole('button', { name: 'SAVE' }).click();
    await page.getByText('A name is required.').first().waitFor();
    await a.scan('lead new shared portfolio with form errors');
    await a.visit(`/shared-portfolios/${demo.plc}/edit`, 'lead /shared-portfolios/{id}/edit');
    await page.getByRole('button', { name: 'Edit Participants' }).click();
    await page.getByRole('dialog', { name: 'Edit Participants' }).getByText('Theo Teacher').waitFor();
    await a.scan('lead Edit Participants dialog');
    await page.getByRole('button', { name: 'Remove Theo Teacher' }).click();
    await page.getByRole('alertdialog').waitFor();
    await a.scan('lead remove participant confirmation');
    await page.getByRole('alertdialog').getByRole('button', { name: 'NO' }).click();
    await page.keyboard.press('Escape');
    await a.visit(`/shared-portfolios/${demo.engineering}/edit`, 'lead shared portfolio with a pending invitation');
    await page.getByRole('button', { name: 'Edit Participants' }).click();
    await page.getByRole('dialog', { name: 'Edit Participants' }).getByText('(Pending)').waitFor();
    await a.scan('lead Edit Participants with a pending participant');
    a.assertClean();
  });

  it('researcher: dashboard, teacher portfolios, shared portfolios, research export, users', async () => {
    const page = await signedIn(DEMO.researcher.email);
    const a = auditor(() => page);
    await a.scan('researcher /dashboard');
    await a.visit('/teacher-portfolios', 'researcher /teacher-portfolios');
    await page.getByLabel('Select Teacher').selectOption({ label: 'Teacher, Tess' });
    await a.scan('researcher teacher selected');
    await page.getByLabel('Select Portfolio').selectOption({ label: 'Forces and Motion' });
    await artifactsTable(page).getByText('Ramp races: predicting speed').waitFor();
    await a.scan('researcher portfolio selected');
    await artifactsTable(page).getByText('Ramp races: predicting speed').click();
    await page.getByRole('heading', { name: 'Ramp races: predicting speed' }).waitFor();
    await a.scan('researcher artifact selected');
    await page.getByRole('checkbox', { name: 'Compare', exact: true }).check();
    await page.getByRole('checkbox', { name: 'Compare Ramp races: predicting speed' }).check();
    await page.getByRole('checkbox', { name: 'Compare Balanced forces exit ticket' }).check();
    await page.getByRole('heading', { name: 'Balanced forces exit ticket' }).waitFor();
    await a.scan('researcher compare mode');
    await page.getByRole('checkbox', { name: 'Compare', exact: true }).uncheck();
    await page.getByRole('button', { name: 'Filter By' }).click();
    await page.getByRole('dialog', { name: 'Filter By' }).waitFor();
    await a.scan('researcher Filter By dialog');
    await page.getByRole('button', { name: 'Done' }).click();

    await a.visit('/shared-portfolios', 'researcher /shared-portfolios');
    await a.visit(`/shared-portfolios/${demo.plc}/artifacts/${demo.sharedRamp}`, 'researcher /shared-portfolios/{id}/artifacts/{id}');
    await a.visit('/shared-portfolios/new', 'researcher /shared-portfolios/new');
    await a.visit(`/shared-portfolios/${demo.plc}/edit`, 'researcher /shared-portfolios/{id}/edit');
    await a.visit(`/shared-portfolios/${demo.plc}/artifacts/${demo.sharedRamp}/edit`, 'researcher /shared-portfolios/{id}/artifacts/{id}/edit');

    await page.goto('/research-export');
    await page.getByRole('form', { name: 'Research export filters' }).waitFor();
    await a.scan('researcher /research-export');
    await page.getByRole('radio', { name: /^Include identities/ }).check();
    await page.getByRole('button', { name: 'Download package' }).click();
    await page.getByText('Confirm that the people in this export consented to being identified.').waitFor();
    await a.scan('researcher /research-export, consent not confirmed');

    await a.visit('/users', 'researcher /users');
    await page.getByRole('button', { name: 'Create New User' }).click();
    await page.getByRole('dialog', { name: 'Create New User' }).waitFor();
    await a.scan('researcher Create New User dialog');
    await page.getByRole('dialog').getByRole('button', { name: /create/i }).click();
    await page.getByText(/Field .* is required\./).first().waitFor();
    await a.scan('researcher Create New User with errors');
    a.assertClean();
  });
});

interface FocusReport {
  onBody: boolean;
  what: string;
  visible: boolean;
  why: string;
  inViewport: boolean;
}

/**
 * Where focus is and whether a sighted keyboard user can see it: the element matches
 * `:focus-visible` and draws an outline (or a box-shadow ring) of at least 2px whose colour has
 * a 3:1 contrast with what surrounds it, and it lies inside the viewport.
 */
async function focusReport(page: Page): Promise<FocusReport> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body || el === document.documentElement) return { onBody: true, what: 'body', visible: false, why: 'focus is on the body', inViewport: false };
    const name = (el.getAttribute('aria-label') ?? el.getAttribute('placeholder') ?? el.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 50);
    const what = `${el.tagName.toLowerCase()}${el.getAttribute('role') ? `[role=${el.getAttribute('role')}]` : ''} "${name}"`;
    const rgba = (css: string): number[] => (css.match(/[\d.]+/g) ?? []).map(Number);
    const luminance = ([r = 0, g = 0, b = 0]: number[]) => {
      const c = [r, g, b].map((v) => v / 255).map((v) => (v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
      return 0.2126 * c[0]! + 0.7152 * c[1]! + 0.0722 * c[2]!;
    };
    const contrast = (a: number[], b: number[]) => {
      const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
      return (hi! + 0.05) / (lo! + 0.05);
    };
    /** The opaque background behind a point of the page, from `from` outwards. */
    const backgroundOf = (from: Element | null): number[] => {
      for (let node = from; node; node = node.parentElement) {
        const bg = rgba(getComputedStyle(node).backgroundColor);
        if (bg.length >= 3 && (bg[3] ?? 1) > 0.5) return bg;
      }
      return [255, 255, 255];
    };
    const style = getComputedStyle(el);
    const rect = el.getBoundingClientRect();
    const inViewport = rect.width > 0 && rect.height > 0 && rect.bottom > 0 && rect.right > 0 && rect.top < innerHeight && rect.left < innerWidth;
    if (!el.matches(':focus-visible')) return { onBody: false, what, visible: false, why: 'not :focus-visible', inViewport };
    const outlineWidth = parseFloat(style.outlineWidth);
    if (style.outlineStyle !== 'none' && outlineWidth >= 2) {
      const offset = parseFloat(style.outlineOffset);
      const behind = backgroundOf(offset < 0 ? el : el.parentElement);
      const ratio = contrast(rgba(style.outlineColor), behind);
      return { onBody: false, what, visible: ratio >= 3, why: `outline ${style.outlineColor} on rgb(${behind.join(',')}) is ${ratio.toFixed(2)}:1`, inViewport };
    }
    if (style.boxShadow !== 'none' && /\b[2-9]px\b/.test(style.boxShadow)) return { onBody: false, what, visible: true, why: `box-shadow ${style.boxShadow}`, inViewport };
    return { onBody: false, what, visible: false, why: `no focus indicator (outline ${style.outlineStyle} ${style.outlineWidth})`, inViewport };
  });
}

/** Every stop of the keyboard journey: focus is somewhere visible, never lost to the body. */
async function expectVisibleFocus(page: Page, step: string): Promise<FocusReport> {
  const report = await focusReport(page);
  expect(report.onBody, `${step}: focus fell to the body`).toBe(false);
  expect(report.visible, `${step}: focus on ${report.what} is not visible (${report.why})`).toBe(true);
  expect(report.inViewport, `${step}: focus on ${report.what} is outside the viewport`).toBe(true);
  return report;
}

/**
 * Once an action has settled, focus is somewhere in the page (the main region at least) and not
 * on the body. A control disabled while its action runs may give it back a moment later.
 */
async function expectFocusKept(page: Page, step: string): Promise<FocusReport> {
  await expect.poll(async () => (await focusReport(page)).onBody, { message: `${step}: focus fell to the body`, timeout: 3_000 }).toBe(false);
  return focusReport(page);
}

const isFocused = (target: Locator) => target.evaluate((el) => el === document.activeElement, undefined, { timeout: 5_000 });

/** Presses Tab (or Shift+Tab) until `target` has focus, checking every stop on the way. */
async function tabTo(page: Page, target: Locator, step: string, { back = false, max = 80 } = {}): Promise<void> {
  await target.waitFor({ state: 'attached' });
  const trail: string[] = [];
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    trail.push((await focusReport(page)).what);
    await expectVisibleFocus(page, `${step} (stop ${i + 1}; after ${trail.slice(-6, -1).join(' → ') || 'the start'})`);
    if (await isFocused(target)) return;
  }
  throw new Error(`${step}: ${max} presses of ${back ? 'Shift+Tab' : 'Tab'} never reached the target: ${trail.join(' → ')}`);
}

describe('keyboard only', () => {
  it('logs in, creates, parks, submits an artifact, comments and reacts with visible focus throughout', async () => {
    const page = await browser.newPage('/login');
    const name = `Keyboard kites ${Date.now()}`;
    const comment = `Typed without a mouse at ${Date.now()}.`;

    // Login.
    await page.getByRole('heading', { name: 'Login' }).waitFor();
    await tabTo(page, page.getByRole('link', { name: 'Skip to main content' }), 'skip link');
    await tabTo(page, page.getByLabel('Email'), 'email');
    await page.keyboard.type(DEMO.teacher.email);
    await tabTo(page, page.getByLabel('Password', { exact: true }), 'password');
    await page.keyboard.type(DEMO.password);
    await page.keyboard.press('Enter');
    await page.waitForURL('**/dashboard');
    await page.getByRole('heading', { name: 'PORTFOLIO DASHBOARD' }).waitFor();
    await expectFocusKept(page, 'after logging in');

    // My Portfolios → a portfolio → Create New Artifact.
    const nav = page.getByRole('navigation', { name: 'Main' });
    await tabTo(page, nav.getByRole('link', { name: 'MY PORTFOLIOS' }), 'MY PORTFOLIOS', { back: true });
    await page.keyboard.press('Enter');
    await page.waitForURL('**/my-portfolios');
    await expectVisibleFocus(page, 'after opening My Portfolios');
    const portfolioSelect = page.getByLabel('Select Portfolio');
    await tabTo(page, portfolioSelect, 'portfolio select');
    await page.keyboard.type('Forces');
    await page.waitForURL(/\/my-portfolios\/\d+$/);
    await expectVisibleFocus(page, 'after choosing a portfolio');
    const create = page.getByRole('button', { name: 'Create New Artifact' });
    await tabTo(page, create, 'Create New Artifact', { back: true });
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/artifacts\/\d+\/edit$/);
    await page.getByRole('button', { name: 'Save to Parking Lot' }).waitFor();
    await expectFocusKept(page, 'after Create New Artifact');

    // The required questions, then Save to Parking Lot.
    await tabTo(page, page.getByLabel('Artifact Name'), 'Artifact Name');
    await page.keyboard.type(name);
    await tabTo(page, page.getByLabel('What were students working to learn?'), 'learning goal');
    await page.keyboard.type('Students notice how the wind lifts a kite.');
    await tabTo(page, page.getByRole('checkbox', { name: 'Student work' }), 'Student work checkbox', { back: true });
    await page.keyboard.press('Space');
    expect(await page.getByRole('checkbox', { name: 'Student work' }).isChecked()).toBe(true);
    await tabTo(page, page.getByRole('button', { name: 'Save to Parking Lot' }), 'Save to Parking Lot');
    await page.keyboard.press('Enter');
    await page.getByText('Successfully edited artifact').waitFor();
    await page.waitForURL(/\/my-portfolios\/\d+\/artifacts\/\d+$/, { timeout: 10_000 });
    await page.getByRole('heading', { name }).waitFor();
    await expectFocusKept(page, 'after Save to Parking Lot');

    // Complete it: Complete Artifact → Submit to Portfolio.
    await tabTo(page, page.getByRole('link', { name: 'Complete Artifact' }), 'Complete Artifact');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/edit$/);
    await page.getByRole('button', { name: 'Submit to Portfolio' }).waitFor();
    await expectFocusKept(page, 'after Complete Artifact');
    await tabTo(page, page.getByRole('button', { name: 'Submit to Portfolio' }), 'Submit to Portfolio');
    await page.keyboard.press('Enter');
    await page.getByText('Successfully edited artifact').first().waitFor();
    await page.waitForURL(/\/my-portfolios\/\d+\/artifacts\/\d+$/, { timeout: 10_000 });
    await page.getByRole('link', { name: 'EDIT', exact: true }).waitFor();
    await expectFocusKept(page, 'after Submit to Portfolio');

    // Shared Portfolios → the demo shared portfolio → an artifact.
    await tabTo(page, nav.getByRole('link', { name: 'SHARED PORTFOLIOS' }), 'SHARED PORTFOLIOS', { back: true, max: 120 });
    await page.keyboard.press('Enter');
    await page.waitForURL('**/shared-portfolios');
    await tabTo(page, page.getByLabel('Select Shared Portfolio'), 'shared portfolio select');
    await page.keyboard.type('Grades');
    await page.waitForURL(/\/shared-portfolios\/\d+$/);
    const table = artifactsTable(page);
    await table.getByText('Ramp races: predicting speed').waitFor();
    await tabTo(page, table.getByRole('row').filter({ has: page.getByRole('gridcell') }).first(), 'artifacts table');
    for (let i = 0; i < 5 && !((await page.evaluate(() => document.activeElement?.textContent)) ?? '').includes('Ramp races'); i++) {
      await page.keyboard.press('ArrowDown');
      await expectVisibleFocus(page, 'moving in the table');
    }
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/shared-portfolios\/\d+\/artifacts\/\d+$/);
    await page.getByRole('heading', { name: 'Ramp races: predicting speed' }).waitFor();
    await expectVisibleFocus(page, 'after choosing the artifact');

    // A comment.
    const box = page.getByLabel('Add a comment');
    await tabTo(page, box, 'comment box');
    await page.keyboard.type(comment);
    await tabTo(page, page.getByRole('button', { name: 'Post Comment' }), 'Post Comment');
    await page.keyboard.press('Enter');
    await page.getByText(comment).waitFor();
    await expectFocusKept(page, 'after posting the comment');

    // A reaction through the picker: arrow keys, Enter; focus returns to the picker's button.
    const add = page.getByRole('button', { name: 'Add reaction' });
    await tabTo(page, add, 'Add reaction', { back: true });
    await page.keyboard.press('Enter');
    const picker = page.getByRole('dialog', { name: 'ADD REACTION' });
    await picker.waitFor();
    await expectVisibleFocus(page, 'picker opened');
    await page.keyboard.press('ArrowRight');
    const chosen = await expectVisibleFocus(page, 'picker: next reaction');
    await page.keyboard.press('Enter');
    await picker.waitFor({ state: 'detached' });
    const meaning = /"(.*)"/.exec(chosen.what)?.[1] ?? '';
    await page.getByRole('button', { name: new RegExp(`^${meaning}, \\d+$`), pressed: true }).waitFor();
    await page.waitForFunction(() => !document.querySelector('[aria-busy="true"]'));
    await expectFocusKept(page, 'after reacting');
    await expectVisibleFocus(page, 'after reacting');
    expect(await isFocused(add)).toBe(true);

    // Dialogs give focus back: Filter By opens, Escape closes it, focus is on its button again.
    const filter = page.getByRole('button', { name: 'Filter By' });
    await tabTo(page, filter, 'Filter By', { back: true, max: 120 });
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: 'Filter By' }).waitFor();
    await expectVisibleFocus(page, 'Filter By open');
    await page.keyboard.press('Escape');
    await page.getByRole('dialog', { name: 'Filter By' }).waitFor({ state: 'detached' });
    await expectVisibleFocus(page, 'Filter By closed');
    expect(await isFocused(filter)).toBe(true);
  });
});

/** axe's `target-size` (WCAG 2.2, 2.5.8) and `scrollable-region-focusable` on the page as it is; one line per node. */
async function auditTargets(page: Page, where: string): Promise<string[]> {
  await settle(page);
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const result = await window.axe.run(document, { runOnly: { type: 'rule', values: ['target-size', 'scrollable-region-focusable'] }, resultTypes: ['violations'] });
    return result.violations.flatMap((v) => v.nodes.map((n) => `${v.id} ${n.target.join(' ')} — ${(n.failureSummary ?? '').replace(/\s+/g, ' ').trim()}`));
  });
  return violations.map((v) => `[${where}] ${v}`);
}

describe('at 390 px: targets of at least 24 × 24 px and scrollable regions reachable by keyboard', () => {
  let demo: Demo;
  beforeAll(async () => {
    demo = await findDemo();
  });

  it('every role’s main screens pass axe target-size and scrollable-region-focusable', async () => {
    const found: string[] = [];
    const phone = { width: 390, height: 844 };
    const anonymous = await browser.newPage('/login', phone);
    found.push(...(await auditTargets(anonymous, 'login')));

    const pages: [string, string[]][] = [
      [DEMO.teacher.email, ['/dashboard', `/my-portfolios/${demo.forces}`, `/my-portfolios/${demo.forces}/artifacts/${demo.ramp}`, `/shared-portfolios/${demo.plc}`, `/shared-portfolios/${demo.plc}/artifacts/${demo.sharedRamp}`]],
      [DEMO.lead.email, ['/dashboard', '/shared-portfolios/new', `/shared-portfolios/${demo.plc}/edit`]],
      [DEMO.researcher.email, ['/dashboard', `/teacher-portfolios`, '/users', '/research-export']],
    ];
    for (const [email, paths] of pages) {
      const page = await browser.newPage('/login', phone);
      await login(page, email);
      await page.waitForURL('**/dashboard');
      for (const pathname of paths) {
        await page.goto(pathname);
        found.push(...(await auditTargets(page, `${email} ${pathname}`)));
      }
    }
    expect(found, found.join('\n')).toEqual([]);
  });
});
