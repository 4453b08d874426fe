import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, DEMO, findDemo, tokenFor, type DemoPlaces } from './fixtures.ts';
import { audit, check, resize, setupResponsive, WIDTHS } from './responsive/support.ts';

/**
 * The history of an artifact in Chromium: two edits, the history with its word-level
 * differences, a restore of the older version; then the panel, the shared artifact's history and
 * the compare mode's differences at the widths teachers use (accessible, photographed).
 */
const { signedIn } = setupResponsive();

const GOALS = [
  'Students find out which ramp sends a car furthest.',
  'Students find out which ramp height sends a toy car furthest.',
  'Students measure which ramp height sends a toy car furthest, in three trials.',
];

/** A new portfolio of the demo teacher with one completed artifact (saved through the API: its version 1). */
async function arrange(): Promise<{ portfolio: number; artifact: number }> {
  const token = await tokenFor(DEMO.teacher.email);
  const portfolio = await api<{ id: number }>('POST', '/portfolios', { name: `History ${Date.now()}` }, token);
  const created = await api<{ id: number }>(
    'POST',
    `/portfolios/${portfolio.body.id}/artifacts/responses`,
    {
      responses: { artifactName: 'Ramp heights', learningGoal: GOALS[0], artifactCategory: ['Student work'] },
      parkingLot: false,
    },
    token,
  );
  expect(created.status).toBe(200);
  return { portfolio: portfolio.body.id, artifact: created.body.id };
}

async function editGoal(page: Page, where: string, goal: string): Promise<void> {
  await page.goto(`${where}/edit`);
  const field = page.getByLabel('What were students working to learn?');
  await field.fill(goal);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByText('Successfully edited artifact').waitFor();
  await page.waitForURL((url) => url.pathname === where, { timeout: 10_000 });
}

/** Presses Tab until `target` has the focus (at most `max` times). */
async function tabUntil(page: Page, target: Locator, max = 80): Promise<void> {
  await target.waitFor();
  for (let i = 0; i < max; i += 1) {
    await page.keyboard.press('Tab');
    if (await target.evaluate((el) => el === document.activeElement)) return;
  }
  throw new Error(`${max} presses of Tab never reached the target`);
}

const history = (page: Page) => page.getByRole('region', { name: 'History' });

async function openHistory(page: Page): Promise<void> {
  await history(page).getByRole('button', { name: 'Show history' }).click();
  await history(page).getByRole('list', { name: 'Versions, newest first' }).waitFor();
}

describe('the history of an artifact', () => {
  let demo: DemoPlaces;
  beforeAll(async () => {
    demo = await findDemo();
  });

  it('a teacher edits twice, compares, sees the words that changed and restores the older version', async () => {
    const { portfolio, artifact } = await arrange();
    const where = `/my-portfolios/${portfolio}/artifacts/${artifact}`;
    const page = await signedIn(DEMO.teacher.email);
    await editGoal(page, where, GOALS[1]!);
    await editGoal(page, where, GOALS[2]!);

    // Keyboard only: Tab to Show history, Enter.
    await tabUntil(page, history(page).getByRole('button', { name: 'Show history' }));
    await page.keyboard.press('Enter');
    const versions = history(page).getByRole('list', { name: 'Versions, newest first' }).getByRole('listitem');
    await expect.poll(() => versions.count()).toBe(3);
    expect(await versions.nth(0).textContent()).toContain('Version 3 (current) · Tess Teacher');
    expect(await versions.nth(0).textContent()).toContain('on the web');
    expect(await versions.nth(0).textContent()).toContain('What were students working to learn');

    // The newest against the one before it: word by word.
    const latest = history(page).getByRole('region', { name: 'Changes from version 2 to version 3' });
    await latest.locator('ins').first().waitFor();
    expect(await latest.locator('ins').allTextContents()).toEqual(['[added: measure]', '[added: , in three trials]']);
    expect(await latest.locator('del').allTextContents()).toEqual(['[removed: find out]']);

    // A version against the one before it (keyboard), then any two versions.
    await tabUntil(page, history(page).getByRole('button', { name: 'Show changes of version 2' }));
    await page.keyboard.press('Enter');
    const second = history(page).getByRole('region', { name: 'Changes from version 1 to version 2' });
    await expect.poll(() => second.locator('ins').allTextContents()).toEqual(['[added: height]', '[added: toy]']);
    await history(page).getByLabel('From version', { exact: true }).selectOption('1');
    await history(page).getByLabel('To version', { exact: true }).selectOption('3');
    await history(page).getByRole('button', { name: 'Compare' }).click();
    const both = history(page).getByRole('region', { name: 'Changes from version 1 to version 3' });
    await expect
      .poll(() => both.locator('ins').allTextContents())
      .toEqual(['[added: measure]', '[added: height]', '[added: toy]', '[added: , in three trials]']);

    // Restore version 2: it is the artifact's text again, and the newest version of its history.
    await versions.nth(1).getByRole('button', { name: 'Restore version 2' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Restore version 2?' });
    await dialog.getByRole('button', { name: 'Restore version 2' }).click();
    await history(page).getByText('Version 2 was restored: it is now the newest version.').waitFor();
    const details = page.getByRole('region', { name: 'Artifact details' });
    await details.getByText(GOALS[1]!, { exact: true }).waitFor();
    expect(await details.getByText(GOALS[2]!, { exact: true }).count()).toBe(0);
    await expect.poll(() => versions.count()).toBe(4);
    expect(await versions.nth(0).textContent()).toContain('Version 4 (current) · Tess Teacher');
    expect(await versions.nth(0).textContent()).toContain('restored from version 2');
    const restored = history(page).getByRole('region', { name: 'Changes from version 3 to version 4' });
    await expect
      .poll(() => restored.locator('del').allTextContents())
      .toEqual(['[removed: measure]', '[removed: , in three trials]']);

    // After a reload the page reads it so from the server.
    await page.reload();
    await page.getByRole('region', { name: 'Artifact details' }).getByText(GOALS[1]!, { exact: true }).waitFor();
    expect(await audit(page, 'artifact after a restore')).toEqual([]);
  });

  it('the history panel, the shared artifact’s history and the compare mode’s differences at every width', async () => {
    const { portfolio, artifact } = await arrange();
    const token = await tokenFor(DEMO.teacher.email);
    await api(
      'PUT',
      `/artifacts/${artifact}`,
      { responses: { artifactName: 'Ramp heights', learningGoal: GOALS[2], artifactCategory: ['Assessment'] } },
      token,
    );
    const second = await api<{ id: number }>(
      'POST',
      `/portfolios/${portfolio}/artifacts/responses`,
      { responses: { artifactName: 'Ramp angles', learningGoal: GOALS[1] }, parkingLot: false },
      token,
    );
    const page = await signedIn(DEMO.teacher.email);
    const found: string[] = [];
    for (const width of WIDTHS) {
      await resize(page, width);
      await page.goto(`/my-portfolios/${portfolio}/artifacts/${artifact}`);
      await openHistory(page);
      await history(page)
        .getByRole('region', { name: 'Changes from version 1 to version 2' })
        .locator('ins')
        .first()
        .waitFor();
      await check(page, 'history-personal', found);

      await page.goto(`/shared-portfolios/${demo.plc}/artifacts/${demo.sharedRamp}`);
      await openHistory(page);
      await check(page, 'history-shared', found);

      await page.goto(`/my-portfolios/${portfolio}`);
      await page.getByRole('checkbox', { name: 'Compare', exact: true }).check();
      await page.getByRole('checkbox', { name: 'Compare Ramp heights' }).check();
      await page.getByRole('checkbox', { name: 'Compare Ramp angles' }).check();
      const differences = page.getByRole('region', { name: 'Differences from “Ramp heights” to “Ramp angles”' });
      await differences.locator('ins').first().waitFor();
      await check(page, 'compare-differences', found);
      await page.getByRole('checkbox', { name: 'Compare', exact: true }).uncheck();
    }
    expect(second.status).toBe(200);
    expect(found).toEqual([]);
  });

  it('a researcher reads a teacher’s history without Restore', async () => {
    const { portfolio, artifact } = await arrange();
    const token = await tokenFor(DEMO.teacher.email);
    await api(
      'PUT',
      `/artifacts/${artifact}`,
      { responses: { artifactName: 'Ramp heights', learningGoal: GOALS[1] } },
      token,
    );
    const name = (await api<{ name: string }>('GET', `/portfolios/${portfolio}`, undefined, token)).body.name;
    const page = await signedIn(DEMO.researcher.email);
    await page.goto('/teacher-portfolios');
    await page.getByLabel('Select Teacher').selectOption({ label: 'Teacher, Tess' });
    await page.getByLabel('Select Portfolio').selectOption({ label: name });
    await page.getByRole('grid', { name: 'Artifacts' }).getByText('Ramp heights').click();
    await openHistory(page);
    const versions = history(page).getByRole('list', { name: 'Versions, newest first' }).getByRole('listitem');
    await expect.poll(() => versions.count()).toBe(2);
    await history(page)
      .getByRole('region', { name: 'Changes from version 1 to version 2' })
      .locator('ins')
      .first()
      .waitFor();
    expect(
      await history(page)
        .getByRole('button', { name: /^Restore/ })
        .count(),
    ).toBe(0);
  });
});
