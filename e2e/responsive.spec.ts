import { mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import type { AxeResults } from 'axe-core';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { animationsDone, api, dataDir, DEMO, findDemo, login, setupBrowser, tokenFor, type DemoPlaces as Demo } from './fixtures.ts';

declare global {
  interface Window {
    axe: { run: (context: Document, options: unknown) => Promise<AxeResults> };
  }
}

/**
 * The main journeys of each role at the widths teachers use: a phone (390), an iPad upright
 * (768), an iPad on its side (1024) and a laptop (1280). One signed-in page per role is resized
 * through the widths. Each main screen is photographed into `e2e/screenshots/` for review.
 */
const browser = setupBrowser();
const WIDTHS = [390, 768, 1024, 1280] as const;
const HEIGHTS: Record<(typeof WIDTHS)[number], number> = { 390: 844, 768: 1024, 1024: 768, 1280: 900 };
const SCREENSHOTS = path.resolve('e2e/screenshots');
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const WCAG_21_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];


async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await page.waitForFunction(() => !document.querySelector('[aria-busy="true"], [role="status"][aria-label^="Loading"]')).catch(() => undefined);
  await animationsDone(page);
}

/** The page fits its width (no sideways scrolling) and nothing lies below the footer. */
async function expectFits(page: Page, where: string): Promise<void> {
  const layout = await page.evaluate(() => {
    const footer = document.querySelector('footer')!.getBoundingClientRect();
    return {
      scrollWidth: document.documentElement.scrollWidth,
      innerWidth: window.innerWidth,
      pageBottom: document.documentElement.scrollHeight,
      footerBottom: Math.ceil(footer.bottom + window.scrollY),
    };
  });
  expect(layout.scrollWidth, `${where}: no horizontal page scroll`).toBeLessThanOrEqual(layout.innerWidth);
  expect(layout.pageBottom, `${where}: no content below the footer`).toBeLessThanOrEqual(layout.footerBottom + 1);
}

/** The element's box lies within the window (geometry, not only the DOM). */
async function expectInView(locator: Locator, what: string): Promise<void> {
  await locator.waitFor();
  const box = await locator.boundingBox();
  const size = locator.page().viewportSize()!;
  expect(box, `${what} has a box`).not.toBeNull();
  expect(box!.y, `${what}: top in view (y=${box!.y})`).toBeGreaterThanOrEqual(0);
  expect(box!.y + Math.min(box!.height, 40), `${what}: in view (y=${box!.y}, window ${size.height})`).toBeLessThanOrEqual(size.height);
  expect(box!.x, `${what}: not off to the side`).toBeGreaterThanOrEqual(0);
  expect(box!.x + Math.min(box!.width, 40)).toBeLessThanOrEqual(size.width);
}

/** A screenshot of the whole page (`fullPage: false`: what the window shows, e.g. a dialog). */
async function shoot(page: Page, name: string, fullPage = true): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  // From the top, so that sticky headers sit where a reader expects them in a picture of the whole page.
  if (fullPage) await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}-${page.viewportSize()!.width}.png`), fullPage });
}

/** axe (WCAG 2.1 A and AA) on the page as it is; one line per offending node. */
async function audit(page: Page, where: string): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async (tags) => {
    const result = await window.axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    return result.violations.flatMap((v) => v.nodes.map((n) => `${v.id} ${n.target.join(' ')}`));
  }, WCAG_21_AA);
  return violations.map((v) => `[${where}] ${v}`);
}

/** A screen at one width: loaded, fitting, accessible and photographed. */
async function check(page: Page, name: string, found: string[]): Promise<void> {
  await settle(page);
  const width = page.viewportSize()!.width;
  await expectFits(page, `${name} at ${width}`);
  found.push(...(await audit(page, `${name} at ${width}`)));
  await shoot(page, name);
}

async function signedIn(email: string): Promise<Page> {
  const page = await browser.newPage('/login', { width: 1280, height: 900 });
  await login(page, email);
  await page.waitForURL('**/dashboard');
  return page;
}

const resize = (page: Page, width: (typeof WIDTHS)[number]) => page.setViewportSize({ width, height: HEIGHTS[width] });

/** The phone menu: opens, shows its links, Escape closes it and gives the focus back, a link closes it. */
async function usePhoneMenu(page: Page, found: string[]): Promise<void> {
  const menu = page.getByRole('button', { name: 'Menu' });
  await menu.click();
  expect(await menu.getAttribute('aria-expanded')).toBe('true');
  await expectInView(page.getByRole('link', { name: 'ABOUT', exact: true }), 'ABOUT in the menu');
  found.push(...(await audit(page, 'the phone menu open')));
  await page.keyboard.press('Escape');
  expect(await menu.getAttribute('aria-expanded')).toBe('false');
  expect(await page.evaluate(() => document.activeElement?.textContent)).toContain('Menu');
  await menu.click();
  await page.getByRole('link', { name: 'ABOUT', exact: true }).click();
  await page.waitForURL('**/about');
  expect(await menu.getAttribute('aria-expanded')).toBe('false');
}

/** Where the chosen artifact takes the table's place: the focus is on it, and Back to artifacts returns to its row. */
async function checkStackedChoice(page: Page, scroll: { before: number; after: number }, back: string): Promise<void> {
  expect(await page.evaluate(() => document.activeElement?.textContent)).toMatch(/^Ramp races/);
  expect(await page.getByRole('grid', { name: 'Artifacts' }).isVisible()).toBe(false);
  // No jump to the top of the page.
  expect(scroll.after).toBeGreaterThanOrEqual(Math.min(scroll.before, 1));
  await page.getByRole('button', { name: '← Back to artifacts' }).click();
  await page.waitForURL(`**${back}`);
  await expectInView(page.getByRole('row', { name: /Ramp races/ }), 'the row after Back to artifacts');
  expect(await page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('row');
}

describe('responsive journeys at 390, 768, 1024 and 1280 px', () => {
  let demo: Demo;
  beforeAll(async () => {
    demo = await findDemo();
  });

  it('anonymous: home, about, login; the phone header is a menu', async () => {
    const page = await browser.newPage('/home');
    const found: string[] = [];
    for (const width of WIDTHS) {
      await resize(page, width);
      await page.goto('/home');
      await check(page, 'home', found);
      await page.goto('/about');
      await check(page, 'about', found);
      await page.goto('/login');
      await check(page, 'login', found);
      // On a phone the navigation folds into a disclosure; wider, its links show.
      expect(await page.getByRole('button', { name: 'Menu' }).isVisible()).toBe(width < 768);
      expect(await page.getByRole('link', { name: 'ABOUT', exact: true }).isVisible()).toBe(width >= 768);
      if (width < 768) await usePhoneMenu(page, found);
    }
    expect(found, found.join('\n')).toEqual([]);
  });

  it('teacher: dashboard, My Portfolios (the chosen artifact in view, compare in view), an artifact’s edit page, a shared artifact', async () => {
    const page = await signedIn(DEMO.teacher.email);
    const found: string[] = [];
    for (const width of WIDTHS) {
      await resize(page, width);
      await page.goto('/dashboard');
      await check(page, 'teacher-dashboard', found);
      if (width < 768) {
        // The phone menu holds the navigation and the account's items.
        await page.getByRole('button', { name: 'Menu' }).click();
        await expectInView(page.getByRole('button', { name: 'Log Out' }), 'Log Out in the phone menu');
        await page.getByRole('link', { name: 'MY PORTFOLIOS', exact: true }).click();
        await page.waitForURL('**/my-portfolios');
      }

      // Choosing a row brings its artifact into view, wherever the table was scrolled to.
      await page.goto(`/my-portfolios/${demo.forces}`);
      const row = page.getByRole('row', { name: /Ramp races/ });
      await row.scrollIntoViewIfNeeded();
      const scrolledTo = await page.evaluate(() => window.scrollY);
      await row.click();
      await page.waitForURL(`**/my-portfolios/${demo.forces}/artifacts/${demo.ramp}`);
      const title = page.getByRole('heading', { level: 3, name: /^Ramp races/ });
      await expectInView(title, `the chosen artifact at ${width}`);
      const scroll = { before: scrolledTo, after: await page.evaluate(() => window.scrollY) };
      // Beside the table from 900 px; narrower, in its place.
      expect(await page.getByRole('grid', { name: 'Artifacts' }).isVisible()).toBe(width >= 900);
      await check(page, 'teacher-my-portfolios-artifact', found);
      if (width < 900) await checkStackedChoice(page, scroll, `/my-portfolios/${demo.forces}`);

      // Compare: two ticks, and the comparison is in view without a hunt.
      await page.goto(`/my-portfolios/${demo.forces}`);
      await page.getByLabel('Compare', { exact: true }).check();
      const boxes = page.getByRole('checkbox', { name: /^Compare / });
      await boxes.nth(0).check();
      await boxes.nth(1).check();
      await expectInView(page.getByRole('heading', { name: 'Compare Artifacts' }), `the comparison at ${width}`);
      await check(page, 'teacher-compare', found);

      await page.goto(`/my-portfolios/${demo.forces}/artifacts/${demo.ramp}/edit`);
      await page.getByRole('heading', { level: 1, name: 'Edit Artifact' }).waitFor();
      await check(page, 'teacher-edit-artifact', found);

      await page.goto(`/shared-portfolios/${demo.plc}/artifacts/${demo.sharedRamp}`);
      await page.getByRole('heading', { name: 'Comments' }).waitFor();
      await check(page, 'teacher-shared-artifact', found);

      await page.goto(`/my-portfolios/${demo.forces}`);
      await page.getByRole('button', { name: 'Filter By' }).click();
      await page.getByRole('dialog', { name: 'Filter By' }).waitFor();
      await expectInView(page.getByRole('button', { name: 'Done' }), `Done of Filter By at ${width}`);
      found.push(...(await audit(page, `filter by at ${width}`)));
      await shoot(page, 'teacher-filter-by', false);
      await page.getByRole('button', { name: 'Done' }).click();
    }
    expect(found, found.join('\n')).toEqual([]);
  });

  it('PLC lead: shared portfolios (the chosen artifact in view) and the shared portfolio form', async () => {
    const page = await signedIn(DEMO.lead.email);
    const found: string[] = [];
    for (const width of WIDTHS) {
      await resize(page, width);
      await page.goto(`/shared-portfolios/${demo.plc}`);
      const row = page.getByRole('row', { name: /Ramp races/ });
      await row.scrollIntoViewIfNeeded();
      await row.click();
      await expectInView(page.getByRole('heading', { level: 3, name: /^Ramp races/ }), `the chosen shared artifact at ${width}`);
      await page.getByRole('heading', { name: 'Comments' }).waitFor();
      await check(page, 'lead-shared-portfolios', found);
      await page.goto(`/shared-portfolios/${demo.plc}/edit`);
      await page.getByRole('heading', { level: 1, name: /Shared Portfolio/ }).waitFor();
      await check(page, 'lead-shared-portfolio-form', found);
    }
    expect(found, found.join('\n')).toEqual([]);
  });

  it('researcher: teacher portfolios (the chosen artifact in view) and Manage Users', async () => {
    const page = await signedIn(DEMO.researcher.email);
    const found: string[] = [];
    for (const width of WIDTHS) {
      await resize(page, width);
      await page.goto(`/teacher-portfolios?teacher=${demo.teacherId}&portfolio=${demo.forces}`);
      const row = page.getByRole('row', { name: /Ramp races/ });
      await row.scrollIntoViewIfNeeded();
      await row.click();
      await expectInView(page.getByRole('heading', { level: 3, name: /^Ramp races/ }), `the teacher's artifact at ${width}`);
      await check(page, 'researcher-teacher-portfolios', found);
      await page.goto('/users');
      await page.getByRole('heading', { level: 1, name: 'Manage Users' }).waitFor();
      await check(page, 'researcher-manage-users', found);
    }
    expect(found, found.join('\n')).toEqual([]);
  });
});

/** Files in the server's uploads folder (the stored files and their formats). */
const storedFiles = (): string[] => readdirSync(path.join(dataDir(), 'uploads')).filter((name) => !name.startsWith('.')).sort();

describe('no lost work: leaving a form, and a new artifact left before its first save', () => {
  let demo: Demo;
  let token: string;
  beforeAll(async () => {
    demo = await findDemo();
    token = await tokenFor(DEMO.teacher.email);
  });

  const listedIds = async (): Promise<number[]> =>
    (await api<{ artifacts: { id: number }[] }>('GET', `/portfolios/${demo.forces}`, undefined, token)).body.artifacts.map((a) => a.id).sort();

  it('asks before a header link, the Back button or a reload leaves typed answers behind', async () => {
    const page = await signedIn(DEMO.teacher.email);
    await page.goto(`/my-portfolios/${demo.forces}/artifacts/${demo.ramp}`);
    await page.getByRole('link', { name: 'EDIT', exact: true }).click();
    await page.waitForURL('**/edit');
    const field = page.getByLabel('What would you do next, or differently?');
    await field.fill('Try a steeper ramp with the same car.');

    // A header link: the question, Stay keeps the answers.
    await page.getByRole('link', { name: 'PORTFOLIO DASHBOARD', exact: true }).click();
    const question = page.getByRole('alertdialog', { name: 'Leave this page?' });
    await question.getByText('Your changes are not saved.').waitFor();
    await question.getByRole('button', { name: 'Stay on this page' }).click();
    expect(page.url()).toMatch(/\/edit$/);
    expect(await field.inputValue()).toBe('Try a steeper ramp with the same car.');

    // The Back button: held, the address stays, the question again.
    await page.goBack();
    await question.waitFor();
    expect(page.url()).toMatch(/\/edit$/);
    await question.getByRole('button', { name: 'Stay on this page' }).click();
    expect(await field.inputValue()).toBe('Try a steeper ramp with the same car.');

    // Reload: the browser's own question; dismissing it keeps the page.
    const asked: string[] = [];
    page.once('dialog', (dialog) => {
      asked.push(dialog.type());
      void dialog.dismiss();
    });
    await page.reload({ timeout: 3000 }).catch(() => undefined);
    expect(asked).toEqual(['beforeunload']);
    expect(await field.inputValue()).toBe('Try a steeper ramp with the same car.');

    // Back, and Leave without saving: the artifact view, nothing saved.
    await page.goBack();
    await question.getByRole('button', { name: 'Leave without saving' }).click();
    await page.waitForURL(`**/my-portfolios/${demo.forces}/artifacts/${demo.ramp}`);
    const artifact = (await api<{ responses: Record<string, unknown> }>('GET', `/artifacts/${demo.ramp}`, undefined, token)).body;
    expect(artifact.responses['nextSteps']).not.toBe('Try a steeper ramp with the same car.');
  });

  it('Create New Artifact → a file → Cancel leaves nothing behind (rows and files); so does leaving by a link', async () => {
    const page = await signedIn(DEMO.teacher.email);
    const before = { listed: await listedIds(), files: storedFiles() };
    const photo = path.join(mkdtempSync(path.join(os.tmpdir(), 'pf-e2e-cancel-')), 'cancelled-photo.png');
    const { default: sharp } = await import('sharp');
    await sharp({ create: { width: 320, height: 200, channels: 3, background: { r: 90, g: 140, b: 60 } } }).png().toFile(photo);

    await page.goto(`/my-portfolios/${demo.forces}`);
    await page.getByRole('button', { name: 'Create New Artifact' }).click();
    await page.waitForURL(/\/artifacts\/\d+\/edit$/);
    const newId = Number(/\/artifacts\/(\d+)\/edit$/.exec(page.url())![1]);
    await page.locator('input[type="file"]').setInputFiles(photo);
    await page.getByRole('list', { name: 'Uploaded files' }).getByText('cancelled photo').waitFor({ timeout: 60_000 });
    expect(storedFiles().length).toBeGreaterThan(before.files.length);
    // Until its first save it is listed nowhere.
    expect(await listedIds()).toEqual(before.listed);

    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    await page.waitForURL(`**/my-portfolios/${demo.forces}`);
    expect((await api('GET', `/artifacts/${newId}`, undefined, token)).status).toBe(404);
    expect(await listedIds()).toEqual(before.listed);
    expect(storedFiles()).toEqual(before.files);

    // Created again and left by a header link (nothing typed): removed on the way out.
    await page.getByRole('button', { name: 'Create New Artifact' }).click();
    await page.waitForURL(/\/artifacts\/\d+\/edit$/);
    const secondId = Number(/\/artifacts\/(\d+)\/edit$/.exec(page.url())![1]);
    await page.getByRole('heading', { level: 1, name: 'Edit Artifact' }).waitFor();
    await page.getByRole('link', { name: 'SHARED PORTFOLIOS', exact: true }).click();
    await page.waitForURL('**/shared-portfolios');
    await expect.poll(async () => (await api('GET', `/artifacts/${secondId}`, undefined, token)).status).toBe(404);
    expect(await listedIds()).toEqual(before.listed);
    expect(storedFiles()).toEqual(before.files);
  });
});

/** How many messages the toaster shows. */
const toastCount = (page: Page): Promise<number> => page.getByRole('region', { name: 'Notifications' }).locator('[role="status"], [role="alert"]').count();

/** No message of the toaster lies over `target` (by their boxes). */
async function expectNoToastOver(page: Page, target: Locator, what: string): Promise<void> {
  const box = (await target.boundingBox())!;
  const toasts = await page.getByRole('region', { name: 'Notifications' }).locator('[role="status"], [role="alert"]').all();
  for (const toast of toasts) {
    const t = await toast.boundingBox();
    if (!t) continue;
    const apart = t.x + t.width <= box.x || box.x + box.width <= t.x || t.y + t.height <= box.y || box.y + box.height <= t.y;
    expect(apart, `a toast (${JSON.stringify(t)}) covers ${what} (${JSON.stringify(box)})`).toBe(true);
  }
}

/** At this width every cell, control and message of the tables lies within the window, and no table scrolls sideways. */
async function expectTablesInView(page: Page, where: string): Promise<void> {
  await settle(page);
  const problems = await page.evaluate(() => {
    const found: string[] = [];
    for (const table of document.querySelectorAll('main table')) {
      const scroller = table.parentElement!;
      if (scroller.scrollWidth > scroller.clientWidth + 1) found.push(`a table scrolls sideways (${scroller.scrollWidth} > ${scroller.clientWidth}): ${table.querySelector('caption')?.textContent ?? ''}`);
      for (const el of table.querySelectorAll('tbody td, tbody td input, tbody td select, tbody td button, tbody td textarea, tbody td [role="switch"], tbody td p')) {
        const r = el.getBoundingClientRect();
        if (r.width === 0 || r.height === 0) continue;
        if (r.left < -1 || r.right > window.innerWidth + 1) found.push(`${el.tagName.toLowerCase()} "${(el.textContent ?? '').trim().slice(0, 30)}" out of view (${Math.round(r.left)}–${Math.round(r.right)})`);
      }
    }
    return found;
  });
  expect(problems, `${where}:\n${problems.join('\n')}`).toEqual([]);
}

/** No word of these elements is broken over two lines. */
async function expectWholeWords(locator: Locator, what: string): Promise<void> {
  const broken = await locator.evaluateAll((elements) =>
    elements.flatMap((el) => {
      const text = el.firstChild && el.firstChild.nodeType === Node.TEXT_NODE ? (el.firstChild as Text) : null;
      if (!text) return [];
      const out: string[] = [];
      let at = 0;
      for (const word of text.data.split(/(\s+)/)) {
        if (word.trim() !== '') {
          const range = document.createRange();
          range.setStart(text, at);
          range.setEnd(text, at + word.length);
          const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
          if (lines.size > 1) out.push(word);
        }
        at += word.length;
      }
      return out;
    }),
  );
  expect(broken, `${what}: words broken mid-word`).toEqual([]);
}

describe('layout and feedback on a fresh install (demo data, errors, toasts, phone tables, targets, words)', () => {
  let demo: Demo;
  beforeAll(async () => {
    demo = await findDemo();
  });

  it('the demo data: the PLC copy of "Ramp races" is listed under Shared to on its original', async () => {
    const page = await signedIn(DEMO.teacher.email);
    for (const width of [390, 1280] as const) {
      await resize(page, width);
      await page.goto(`/my-portfolios/${demo.forces}/artifacts/${demo.ramp}`);
      const shares = page.getByRole('region', { name: 'Shared to' });
      // Journeys that ran before may have copied this artifact again and commented on its copies:
      // the demo's own copy is the oldest share (listed last), seeded with two comments.
      const demoShare = shares
        .getByRole('listitem')
        .filter({ has: page.getByRole('link', { name: 'Grades 5–7 Science PLC', exact: true }) })
        .last();
      const counted = demoShare.getByText(/^Shared on .* · \d+ comments?$/);
      await counted.waitFor();
      const comments = Number(/(\d+) comments?$/.exec((await counted.textContent()) ?? '')?.[1]);
      expect(comments).toBeGreaterThanOrEqual(2);
      expect(await demoShare.getByRole('list', { name: 'Latest comments in Grades 5–7 Science PLC' }).getByRole('listitem').count()).toBe(Math.min(comments, 3));
      await settle(page);
      await shoot(page, 'teacher-artifact-shared-to');
    }
  });

  it('errors next to what caused them: the login error under the form, an error summary on Create Shared Portfolio; no toast covers SAVE', async () => {
    const page = await browser.newPage('/login');
    for (const width of [390, 1280] as const) {
      await resize(page, width);
      await page.goto('/login');
      await page.getByLabel('Email').fill(DEMO.teacher.email);
      await page.getByLabel('Password', { exact: true }).fill('not-the-password');
      await page.getByRole('button', { name: 'LOGIN' }).click();
      const failure = page.locator('form').getByRole('alert');
      await failure.getByText('Incorrect email or password.').waitFor();
      const login = (await page.getByRole('button', { name: 'LOGIN' }).boundingBox())!;
      const under = (await failure.boundingBox())!;
      expect(under.y, 'the error right under LOGIN').toBeGreaterThanOrEqual(login.y + login.height);
      expect(under.y - (login.y + login.height)).toBeLessThan(60);
      expect(await toastCount(page), 'no toast for a form error').toBe(0);
      await shoot(page, 'login-error');
    }

    await login(page, DEMO.lead.email);
    for (const width of [390, 1280] as const) {
      await resize(page, width);
      await page.goto('/shared-portfolios/new');
      await page.getByRole('heading', { level: 1, name: /Shared Portfolio/ }).waitFor();
      await page.getByRole('button', { name: 'Add Question' }).click();
      await page.getByRole('button', { name: 'SAVE' }).click();
      const summary = page.getByRole('alert', { name: 'There is a problem' });
      await summary.getByText('You have 1 invalid question. Please add the required info and re-submit.').waitFor();
      // The summary is at the top of the form, and each line takes the keyboard to its field.
      const form = (await page.locator('form').boundingBox())!;
      expect((await summary.boundingBox())!.y - form.y).toBeLessThan(40);
      await summary.getByRole('link', { name: 'Shared Portfolio Name: A name is required.' }).click();
      expect(await page.evaluate(() => document.activeElement?.id)).toBe(await page.getByLabel('Shared Portfolio Name').getAttribute('id'));
      await summary.getByRole('link', { name: /^Team question 1: / }).first().click();
      expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.id)).toMatch(/-text$/);
      await page.getByRole('button', { name: 'SAVE' }).click();
      await page.waitForTimeout(300);
      await expectNoToastOver(page, page.getByRole('button', { name: 'SAVE' }), 'SAVE');
      expect(await toastCount(page), 'validation is not told in toasts').toBe(0);
      await shoot(page, 'lead-shared-portfolio-form-errors');
    }
  });

  it('phone tables keep every control and message in view: Manage Users, Questions, dashboard tables, the export log', async () => {
    const researcher = await signedIn(DEMO.researcher.email);
    for (const width of [390, 1280] as const) {
      await resize(researcher, width);
      await researcher.goto('/users');
      await researcher.getByRole('heading', { level: 1, name: 'Manage Users' }).waitFor();
      await researcher.getByRole('cell', { name: 'Theo Teacher' }).first().waitFor();
      await expectTablesInView(researcher, `Manage Users at ${width}`);
      await expectWholeWords(researcher.locator('main tbody td'), `Manage Users at ${width}`);
      await shoot(researcher, 'researcher-manage-users');
      await researcher.goto('/research-export');
      await researcher.getByRole('heading', { level: 1 }).first().waitFor();
      await expectTablesInView(researcher, `the research export at ${width}`);
      await shoot(researcher, 'researcher-export');
      await researcher.goto('/dashboard');
      await expectTablesInView(researcher, `the researcher's dashboard at ${width}`);
    }

    const teacher = await signedIn(DEMO.teacher.email);
    for (const width of [390, 1280] as const) {
      await resize(teacher, width);
      await teacher.goto('/dashboard');
      await teacher.getByRole('link', { name: 'Forces and Motion' }).first().waitFor();
      await expectTablesInView(teacher, `the teacher's dashboard at ${width}`);
      await expectWholeWords(teacher.locator('main thead th'), `the dashboard's headers at ${width}`);
      await shoot(teacher, 'teacher-dashboard-tables');
    }

    const lead = await signedIn(DEMO.lead.email);
    for (const width of [390, 1280] as const) {
      await resize(lead, width);
      await lead.goto('/shared-portfolios/new');
      await lead.getByRole('button', { name: 'Add Question' }).click();
      await lead.getByLabel('Type of team question 1').selectOption({ label: 'Single Selection' });
      await lead.getByRole('button', { name: 'SAVE' }).click();
      await lead.locator('main table').getByText('You must enter at least one choice.').waitFor();
      await expectTablesInView(lead, `the Questions table with errors at ${width}`);
      await shoot(lead, 'lead-questions-table');
    }
  });

  it('words: a clear message for a missing role, and removing a participant names them properly', async () => {
    const researcher = await signedIn(DEMO.researcher.email);
    await researcher.goto('/users');
    await researcher.getByRole('button', { name: 'Create New User' }).click();
    const dialog = researcher.getByRole('dialog');
    await dialog.getByLabel('Email').fill(`someone-${Date.now()}@example.org`);
    await dialog.getByLabel('User Name').fill('Someone New');
    await dialog.locator('button[type="submit"]').click();
    await dialog.getByText('Choose a role: Teacher, PLC Lead or Researcher.').waitFor();
    expect(await dialog.getByText(/with value/).count()).toBe(0);

    const lead = await signedIn(DEMO.lead.email);
    await lead.goto(`/shared-portfolios/${demo.plc}/edit`);
    await lead.getByRole('button', { name: 'Edit Participants' }).click();
    await lead.getByRole('button', { name: 'Remove Theo Teacher' }).click();
    const question = lead.getByRole('alertdialog');
    await question.getByText('Remove Theo Teacher from this shared portfolio? They will no longer see or comment on its artifacts.').waitFor();
    await question.getByRole('button', { name: 'NO' }).click();
  });

  it('the archive is ready: its toast never covers Download', async () => {
    const page = await signedIn(DEMO.teacher.email);
    await resize(page, 390);
    await page.goto('/dashboard');
    const section = page.getByRole('region', { name: 'Download my archive' });
    await section.getByRole('button', { name: 'Prepare my archive' }).click();
    const download = section.getByRole('link', { name: /^Download the archive of / }).first();
    await download.waitFor({ timeout: 90_000 });
    await page.getByRole('region', { name: 'Notifications' }).getByText('Your archive is ready to download.').waitFor();
    await download.scrollIntoViewIfNeeded();
    await animationsDone(page);
    await expectNoToastOver(page, download, 'Download');
    // Also with Download at the bottom of the window, where the messages first go.
    await page.evaluate(() => {
      const link = [...document.querySelectorAll('a[download]')][0]!;
      window.scrollBy(0, link.getBoundingClientRect().bottom - window.innerHeight + 8);
    });
    await animationsDone(page);
    await expectNoToastOver(page, download, 'Download at the bottom');
    await shoot(page, 'teacher-archive-ready', false);
  });
});
