import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO, findDemo, type DemoPlaces as Demo } from '../fixtures.ts';
import { audit, check, expectInView, resize, setupResponsive, shoot, WIDTHS } from './support.ts';

/**
 * The main journeys of each role at the widths teachers use: a phone (390), an iPad upright
 * (768), an iPad on its side (1024) and a laptop (1280). One signed-in page per role is resized
 * through the widths. Each main screen is photographed into `e2e/screenshots/` for review.
 */
const { browser, signedIn } = setupResponsive();

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
      await expectInView(
        page.getByRole('heading', { level: 3, name: /^Ramp races/ }),
        `the chosen shared artifact at ${width}`,
      );
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
      await expectInView(
        page.getByRole('heading', { level: 3, name: /^Ramp races/ }),
        `the teacher's artifact at ${width}`,
      );
      await check(page, 'researcher-teacher-portfolios', found);
      await page.goto('/users');
      await page.getByRole('heading', { level: 1, name: 'Manage Users' }).waitFor();
      await check(page, 'researcher-manage-users', found);
    }
    expect(found, found.join('\n')).toEqual([]);
  });
});
