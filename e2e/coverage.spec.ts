import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEMO, findDemo } from './fixtures.ts';
import { auditor, setupAudits, signedIn } from './accessibility/support.ts';

/**
 * The coverage map (decision 056) in Chromium against the real server and the demo data: the
 * researcher opens it from the navigation, chooses a cell with the mouse and with the keyboard,
 * and lands on the artifacts behind it; the teacher's dashboard section and the shared portfolio's
 * section show their own maps; axe finds nothing at 390 and 1280 px.
 */
setupAudits();

/** Screenshots (git-ignored) of what the researcher sees, at the four widths we look at. */
async function shoot(page: Page, name: string) {
  const dir = path.resolve('e2e/screenshots');
  mkdirSync(dir, { recursive: true });
  for (const width of [390, 768, 1024, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: path.join(dir, `${name}-${width}.png`), fullPage: true });
  }
}

const map = (page: Page) => page.getByRole('table', { name: /^Coverage of science and engineering practices/ });
const cell = (page: Page, row: string, code: string) =>
  map(page).getByRole('button', { name: new RegExp(`^\\d+( L\\d/\\d)? — ${row}, ${code} `) });

describe('coverage map', () => {
  it('researcher: from the navigation to a cell, then to the artifact behind it', async () => {
    const page = await signedIn(DEMO.researcher.email);
    // The map is the second tab of INSIGHTS.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'INSIGHTS' }).click();
    await page.waitForURL('**/insights');
    await page.getByRole('navigation', { name: 'Insights' }).getByRole('link', { name: 'Standards coverage' }).click();
    await page.waitForURL('**/coverage');
    expect(
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'INSIGHTS' })
        .getAttribute('aria-current'),
    ).toBe('page');
    await map(page).waitFor();
    // Tess's ramp races are tagged with planning investigations and scored Proficient by the lead.
    const planning = cell(page, DEMO.teacher.username, 'SEP3');
    await expect
      .poll(() => planning.getAttribute('aria-label'))
      .toMatch(/1 artifact, .*highest Proficient \(level 3 of 4\)/);
    expect(await planning.innerText()).toContain('L3/4');
    await planning.click();
    expect(await planning.getAttribute('aria-pressed')).toBe('true');
    const list = page.getByRole('region', {
      name: `${DEMO.teacher.username} · SEP3 Planning and carrying out investigations`,
    });
    await list.getByText('1 of 1 artifact').waitFor();
    await shoot(page, 'coverage-cell');
    await page.setViewportSize({ width: 1280, height: 900 });
    await list.getByRole('link', { name: 'Ramp races: predicting speed' }).click();
    await page.waitForURL(/\/teacher-portfolios\?teacher=\d+&portfolio=\d+&artifact=\d+$/);
    await page.getByRole('heading', { name: 'Ramp races: predicting speed' }).first().waitFor();
  });

  it('researcher: the keyboard moves between cells and opens one; a name opens that row’s own map', async () => {
    const page = await signedIn(DEMO.researcher.email, '/coverage');
    await map(page).waitFor();
    const first = map(page).locator('button[tabindex="0"]');
    expect(await first.count()).toBe(1);
    await first.focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('End');
    const focused = await page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? '');
    expect(focused).toMatch(/, SEP8 Obtaining, evaluating, and communicating information: /);
    await page.keyboard.press('Enter');
    await page.getByRole('region', { name: /· SEP8 Obtaining/ }).waitFor();
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('H3');

    await page.getByLabel('Columns').selectOption('coreIdeas');
    const ideas = page.getByRole('table', { name: /^Coverage of disciplinary core ideas/ });
    await ideas.waitFor();
    expect(await ideas.getByRole('columnheader').allInnerTexts()).toEqual(
      expect.arrayContaining([expect.stringContaining('PS2'), expect.stringContaining('ETS1')]),
    );
    await page.getByRole('link', { name: DEMO.teacher.username }).click();
    await page.waitForURL(/\/coverage\?teacher=\d+$/);
    await page
      .getByRole('table', { name: `Coverage of science and engineering practices: ${DEMO.teacher.username}` })
      .waitFor();
    await page.getByRole('rowheader', { name: 'Forces and Motion' }).waitFor();
  });

  it('axe: the coverage page and sections at 390 and 1280 px', async () => {
    for (const width of [390, 1280]) {
      const researcher = await signedIn(DEMO.researcher.email, '/coverage');
      await researcher.setViewportSize({ width, height: 900 });
      const a = auditor(() => researcher);
      await map(researcher).waitFor();
      await a.scan(`researcher /coverage at ${width}`);
      await cell(researcher, DEMO.teacher.username, 'SEP3').click();
      await researcher.getByText('1 of 1 artifact').waitFor();
      await a.scan(`researcher /coverage, a cell's artifacts, at ${width}`);
      await researcher.getByLabel('Rows').selectOption('portfolios');
      await researcher.getByRole('rowheader', { name: 'Grades 5–7 Science PLC' }).waitFor();
      await a.scan(`researcher /coverage by shared portfolio at ${width}`);
      a.assertClean();

      const teacher = await signedIn(DEMO.teacher.email);
      await teacher.setViewportSize({ width, height: 900 });
      const t = auditor(() => teacher);
      await teacher.getByRole('region', { name: 'Standards coverage' }).getByRole('table').waitFor();
      await t.scan(`teacher /dashboard with its coverage at ${width}`);
      a.assertClean();
      t.assertClean();

      const lead = await signedIn(DEMO.lead.email, `/shared-portfolios/${(await findDemo()).plc}`);
      await lead.setViewportSize({ width, height: 900 });
      const l = auditor(() => lead);
      const section = lead.getByRole('region', { name: 'Standards coverage' });
      await section.getByRole('table').waitFor();
      await section.getByRole('button', { name: new RegExp(`^1 L3/4 — ${DEMO.teacher2.username}, SEP2 `) }).click();
      await section.getByRole('link', { name: 'Food web card sort' }).waitFor();
      await l.scan(`lead /shared-portfolios/{id} with its coverage at ${width}`);
      l.assertClean();
    }
  });
});
