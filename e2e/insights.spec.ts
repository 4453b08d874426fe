import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, DEMO, login, tokenFor } from './fixtures.ts';
import { audit, expectFits, resize, settle, setupResponsive, shoot, WIDTHS } from './responsive/support.ts';

/**
 * The Insights page (decision 057), as a PLC lead: her own shared portfolio with a rubric, a
 * shared artifact that she and the teacher both scored, then the charts — each chart's table
 * holds the numbers its marks carry, each downloads as SVG, PNG and CSV, axe finds nothing at
 * 390 and 1280 px, and the page is photographed at every width.
 */
const { browser } = setupResponsive();
const stamp = Date.now();
const CHARTS = [
  'Activity per week',
  'Discussion per shared portfolio',
  'Rubric levels per criterion',
  'Inter-rater agreement',
];
let plc: { id: number; name: string };
let tess: string;

/** Arranging the journey's data: a refused call stops it with the call's status. */
function ok(status: number, what: string): void {
  if (status !== 200) throw new Error(`${what} failed: ${status}`);
}

interface Rubric {
  id: number;
  criteria: { id: number; levels: { id: number; label: string }[] }[];
}

beforeAll(async () => {
  tess = await tokenFor(DEMO.teacher.email);
  const lead = await tokenFor(DEMO.lead.email);
  const name = `Insights PLC ${stamp}`;
  const created = await api<{ id: number }>(
    'POST',
    '/shared-portfolios',
    { name, topic: 'Charts', structure: [] },
    lead,
  );
  ok(created.status, 'the shared portfolio');
  plc = { id: created.body.id, name };
  const me = (await api<{ id: number }>('GET', '/users/me', undefined, tess)).body;
  const invitation = await api<{ id: number }>('POST', '/invitations', { to: me.id, sharedPortfolio: plc.id }, lead);
  ok((await api('POST', `/invitations/${invitation.body.id}/accept`, undefined, tess)).status, 'the invitation');
  const portfolios = (await api<{ id: number; name: string }[]>('GET', '/portfolios', undefined, tess)).body;
  const forces = portfolios.find((p) => p.name === 'Forces and Motion')!;
  const artifact = await api<{ id: number }>(
    'POST',
    `/portfolios/${forces.id}/artifacts/responses`,
    { responses: { artifactName: `Charted lesson ${stamp}`, learningGoal: 'Forces.' }, parkingLot: false },
    tess,
  );
  const shared = await api<{ id: number }>(
    'POST',
    `/artifacts/${artifact.body.id}/share`,
    { sharedPortfolioId: plc.id },
    tess,
  );
  ok(shared.status, 'the share');
  const level = (label: string, score: number) => ({ label, score });
  const rubric = await api<Rubric>(
    'POST',
    '/rubrics',
    {
      sharedPortfolio: plc.id,
      name: 'Discourse',
      criteria: [
        { code: 'D1', label: 'Student talk', levels: [level('Low', 1), level('Some', 2), level('High', 3)] },
        { code: 'D2', label: 'Questioning', levels: [level('Closed', 1), level('Mixed', 2), level('Open', 3)] },
      ],
    },
    lead,
  );
  ok(rubric.status, 'the rubric');
  ok(
    (await api('PUT', `/shared-portfolios/${plc.id}/rubric`, { rubric: rubric.body.id }, lead)).status,
    'choosing the rubric',
  );
  const score = async (token: string, criterion: number, levelIndex: number) => {
    const c = rubric.body.criteria[criterion]!;
    const res = await api(
      'POST',
      '/scores',
      { sharedArtifact: shared.body.id, rubric: rubric.body.id, criterion: c.id, level: c.levels[levelIndex]!.id },
      token,
    );
    ok(res.status, 'a score');
  };
  // Both scorers agree on D1 (High); on D2 the lead says Closed and the teacher Mixed.
  await score(lead, 0, 2);
  await score(tess, 0, 2);
  await score(lead, 1, 0);
  await score(tess, 1, 1);
});

// The demo teacher leaves this journey's shared portfolio, so that her list is as seeded.
afterAll(async () => {
  if (plc) ok((await api('POST', `/shared-portfolios/${plc.id}/leave`, {}, tess)).status, 'leaving');
});

const panel = (page: Page, title: string): Locator =>
  page.locator('section').filter({ has: page.getByRole('heading', { name: title, level: 2 }) });

/** The lead's Insights page for her journey portfolio (or all of hers). */
async function openInsights(journeyOnly = true): Promise<Page> {
  const page = await browser.newPage('/login', { width: 1280, height: 900 });
  await login(page, DEMO.lead.email);
  await page.waitForURL('**/dashboard');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'INSIGHTS' }).click();
  await page.waitForURL('**/insights');
  await page.getByRole('form', { name: 'Chart filters' }).waitFor();
  if (!journeyOnly) return page;
  await page.getByLabel('Shared portfolio', { exact: true }).selectOption({ label: plc.name });
  await page.getByRole('button', { name: 'Show', exact: true }).click();
  await panel(page, 'Inter-rater agreement').getByText('2 pairs of scores on 2 criteria.', { exact: false }).waitFor();
  return page;
}

/** A chart's table as text rows (the header first). */
async function tableRows(section: Locator): Promise<string[][]> {
  const table = section.getByRole('table');
  await table.waitFor();
  return table
    .locator('tr')
    .evaluateAll((rows) =>
      rows.map((row) => [...row.querySelectorAll('th, td')].map((cell) => (cell.textContent ?? '').trim())),
    );
}

describe('Insights for a PLC lead', () => {
  it('each chart’s table holds the numbers of its marks; kappa and pairs as computed', async () => {
    const page = await openInsights();
    for (const title of CHARTS) {
      const section = panel(page, title);
      const marks = await section
        .locator('svg [data-mark]')
        .evaluateAll((nodes) => nodes.map((n) => n.getAttribute('aria-label')));
      await section.getByRole('button', { name: 'Show the data table' }).click();
      const [header, ...rows] = await tableRows(section);
      expect(rows.length, title).toBeGreaterThan(0);
      // Each mark is named by its row of the table, in words: the same numbers, in the same order.
      expect(marks, title).toEqual(
        rows.map(
          ([first, ...rest]) => `${header![0]} ${first}: ${rest.map((v, i) => `${header![i + 1]} ${v}`).join(', ')}`,
        ),
      );
      await section.getByRole('button', { name: 'Show the chart' }).click();
    }
    const agreement = panel(page, 'Inter-rater agreement');
    await agreement.getByRole('button', { name: 'Show the data table' }).click();
    const [, d1, d2] = await tableRows(agreement);
    expect(d1).toEqual(['Discourse (version 1)', 'D1 Student talk', '1', '1.00', '1.00', 'undefined']);
    expect(d2).toEqual(['Discourse (version 1)', 'D2 Questioning', '1', '0.00', '0.00', '0.00']);
    // The levels chart writes its counts (with the level's label where it fits) in the bars: each is in the table.
    const levels = panel(page, 'Rubric levels per criterion');
    const drawn = await levels.locator('svg [data-mark] text').allTextContents();
    await levels.getByRole('button', { name: 'Show the data table' }).click();
    const levelRows = (await tableRows(levels)).slice(1);
    expect(drawn.length).toBeGreaterThan(0);
    for (const text of drawn) {
      const [, label, n] = /^(?:(.+) )?(\d+)$/.exec(text)!;
      expect(
        levelRows.some((row) => row[4] === n && (label === undefined || row[2] === label)),
        text,
      ).toBe(true);
    }

    // The keyboard: one tab stop per chart, the arrow keys move between marks and the readout follows.
    const activity = panel(page, 'Activity per week');
    await activity.locator('svg [data-mark]').first().focus();
    await page.keyboard.press('End');
    const last = await activity.locator('svg [data-mark]').last().getAttribute('aria-label');
    await activity.getByText(last!, { exact: true }).waitFor();
  });

  it('downloads each chart as SVG and PNG and its data as CSV, the same numbers as its table', async () => {
    const page = await openInsights();
    const section = panel(page, 'Discussion per shared portfolio');
    const file = async (format: string) => {
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        section.getByRole('button', { name: `Download Discussion per shared portfolio as ${format}` }).click(),
      ]);
      expect(download.suggestedFilename()).toBe(`discussion-per-shared-portfolio.${format.toLowerCase()}`);
      return readFileSync((await download.path())!);
    };
    const svg = (await file('SVG')).toString('utf8');
    expect(svg).toMatch(/^<svg[^>]+xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(svg).toContain(plc.name);
    const png = await file('PNG');
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    const csv = parse(await file('CSV')) as string[][];
    await section.getByRole('button', { name: 'Show the data table' }).click();
    expect(csv).toEqual(await tableRows(section));
    await page.getByRole('status').filter({ hasText: 'Downloaded discussion-per-shared-portfolio.csv.' }).waitFor();
  });

  it('fits, passes axe at 390 and 1280 px, and is photographed at every width, chart and table', async () => {
    const page = await openInsights();
    const found: string[] = [];
    for (const width of WIDTHS) {
      await resize(page, width);
      await settle(page);
      await expectFits(page, `insights at ${width}`);
      if (width === 390 || width === 1280) found.push(...(await audit(page, `insights at ${width}`)));
      await shoot(page, 'insights');
    }
    for (const title of CHARTS) await panel(page, title).getByRole('button', { name: 'Show the data table' }).click();
    for (const width of [390, 1280] as const) {
      await resize(page, width);
      await settle(page);
      await expectFits(page, `insights tables at ${width}`);
      found.push(...(await audit(page, `insights tables at ${width}`)));
      await shoot(page, 'insights-tables');
    }
    // All of the lead's portfolios (the demo's discussion too).
    const all = await openInsights(false);
    for (const width of WIDTHS) {
      await resize(all, width);
      await settle(all);
      await expectFits(all, `all of the lead's insights at ${width}`);
      if (width === 390 || width === 1280) found.push(...(await audit(all, `all of the lead's insights at ${width}`)));
      await shoot(all, 'insights-all');
    }
    expect(found).toEqual([]);
  });
});
