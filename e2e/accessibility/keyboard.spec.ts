import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEMO } from '../fixtures.ts';
import { artifactsTable, setupAudits } from './support.ts';

const browser = setupAudits();

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
    if (!el || el === document.body || el === document.documentElement)
      return { onBody: true, what: 'body', visible: false, why: 'focus is on the body', inViewport: false };
    const name = (el.getAttribute('aria-label') ?? el.getAttribute('placeholder') ?? el.textContent ?? '')
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, 50);
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
    const inViewport =
      rect.width > 0 &&
      rect.height > 0 &&
      rect.bottom > 0 &&
      rect.right > 0 &&
      rect.top < innerHeight &&
      rect.left < innerWidth;
    // In a player's own controls (the browser's shadow tree), the player is the focused element.
    const inPlayerControls = el instanceof HTMLMediaElement && el.matches(':focus-within') && !el.matches(':focus');
    if (!el.matches(':focus-visible') && !inPlayerControls)
      return { onBody: false, what, visible: false, why: 'not :focus-visible', inViewport };
    const outlineWidth = parseFloat(style.outlineWidth);
    if (style.outlineStyle !== 'none' && outlineWidth >= 2) {
      const offset = parseFloat(style.outlineOffset);
      const behind = backgroundOf(offset < 0 ? el : el.parentElement);
      const ratio = contrast(rgba(style.outlineColor), behind);
      return {
        onBody: false,
        what,
        visible: ratio >= 3,
        why: `outline ${style.outlineColor} on rgb(${behind.join(',')}) is ${ratio.toFixed(2)}:1`,
        inViewport,
      };
    }
    if (style.boxShadow !== 'none' && /\b[2-9]px\b/.test(style.boxShadow))
      return { onBody: false, what, visible: true, why: `box-shadow ${style.boxShadow}`, inViewport };
    return {
      onBody: false,
      what,
      visible: false,
      why: `no focus indicator (outline ${style.outlineStyle} ${style.outlineWidth})`,
      inViewport,
    };
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
  await expect
    .poll(async () => (await focusReport(page)).onBody, { message: `${step}: focus fell to the body`, timeout: 3_000 })
    .toBe(false);
  return focusReport(page);
}

const isFocused = (target: Locator) =>
  target.evaluate((el) => el === document.activeElement, undefined, { timeout: 5_000 });

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
  throw new Error(
    `${step}: ${max} presses of ${back ? 'Shift+Tab' : 'Tab'} never reached the target: ${trail.join(' → ')}`,
  );
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
    await tabTo(page, nav.getByRole('link', { name: 'SHARED PORTFOLIOS' }), 'SHARED PORTFOLIOS', {
      back: true,
      max: 120,
    });
    await page.keyboard.press('Enter');
    await page.waitForURL('**/shared-portfolios');
    await tabTo(page, page.getByLabel('Select Shared Portfolio'), 'shared portfolio select');
    await page.keyboard.type('Grades');
    await page.waitForURL(/\/shared-portfolios\/\d+$/);
    const table = artifactsTable(page);
    await table.getByText('Ramp races: predicting speed').waitFor();
    await tabTo(
      page,
      table
        .getByRole('row')
        .filter({ has: page.getByRole('gridcell') })
        .first(),
      'artifacts table',
    );
    for (
      let i = 0;
      i < 5 && !((await page.evaluate(() => document.activeElement?.textContent)) ?? '').includes('Ramp races');
      i++
    ) {
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
