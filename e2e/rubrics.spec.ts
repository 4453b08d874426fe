import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { api, DEMO, findDemo, login, setupBrowser, tokenFor } from './fixtures.ts';
import { audit } from './videoMoments/journey.ts';

/** The researchers' page of installation-wide rubrics (decision 058). */
const browser = setupBrowser();
/** Where the screenshots go (git-ignored), at four widths. */
const SHOTS = path.resolve('e2e/screenshots');
const WIDTHS = [390, 768, 1024, 1280];

async function shoot(page: Page, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: path.join(SHOTS, `${name}-${width}.png`), fullPage: true });
    expect(await audit(page), `axe of ${name} at ${width} px`).toEqual([]);
  }
}

/** A shared portfolio of the demo lead holding one of his artifacts, scoring with the rubric `named`. */
async function scoredWith(named: string, stamp: number) {
  const lead = await tokenFor(DEMO.lead.email);
  const plcName = `Walkthrough PLC ${stamp}`;
  const plc = await api<{ id: number }>(
    'POST',
    '/shared-portfolios',
    { name: plcName, topic: 'Walkthroughs', structure: [] },
    lead,
  );
  expect(plc.status).toBe(200);
  const notebook = (await api<{ id: number }[]>('GET', '/portfolios', undefined, lead)).body[0]!;
  const artifact = (await api<{ artifacts: { id: number }[] }>('GET', `/portfolios/${notebook.id}`, undefined, lead))
    .body.artifacts[0]!;
  const copy = await api<{ id: number }>(
    'POST',
    `/artifacts/${artifact.id}/share`,
    { sharedPortfolioId: plc.body.id },
    lead,
  );
  expect(copy.status).toBe(200);
  const rubrics = await api<{ id: number; name: string; criteria: { id: number; levels: { id: number }[] }[] }[]>(
    'GET',
    '/rubrics?scope=installation',
    undefined,
    lead,
  );
  const rubric = rubrics.body.find((r) => r.name === named)!;
  expect((await api('PUT', `/shared-portfolios/${plc.body.id}/rubric`, { rubric: rubric.id }, lead)).status).toBe(200);
  const score = await api(
    'POST',
    '/scores',
    {
      sharedArtifact: copy.body.id,
      rubric: rubric.id,
      criterion: rubric.criteria[0]!.id,
      level: rubric.criteria[0]!.levels[1]!.id,
    },
    lead,
  );
  expect(score.status).toBe(200);
  return { plcName, stopUsing: () => api('PUT', `/shared-portfolios/${plc.body.id}/rubric`, { rubric: null }, lead) };
}

describe('the installation’s rubrics', () => {
  it('a researcher makes one from the NGSS practices, edits it into version 2 once scored, and deletes only unused ones', async () => {
    const stamp = Date.now();
    const walkthrough = `District walkthrough ${stamp}`;
    const spare = `Spare practices ${stamp}`;
    const page = await browser.newPage('/login');
    await login(page, DEMO.researcher.email);
    await page.waitForURL('**/dashboard');
    // The installation's rubrics sit in the user menu, beside Manage Users.
    await page.getByRole('button', { name: DEMO.researcher.username }).click();
    await page.getByRole('menuitem', { name: 'Rubrics' }).click();
    await page.waitForURL('**/rubrics');
    await page.getByRole('heading', { level: 1, name: 'Rubrics' }).waitFor();
    const panel = page.getByRole('region', { name: 'Installation-wide rubrics' });
    // Nothing to choose here: the portfolios' leads choose.
    expect(await panel.getByLabel('Members score with').count()).toBe(0);

    for (const name of [walkthrough, spare]) {
      await panel.getByRole('button', { name: 'New rubric from the NGSS practices' }).click();
      const editor = panel.getByRole('form', { name: 'New rubric' });
      expect(await editor.getByRole('group').count()).toBe(8);
      await editor.getByLabel('Name').fill(name);
      if (name === walkthrough) await shoot(page, 'rubrics-new');
      await editor.getByRole('button', { name: 'Save rubric' }).click();
      await panel.getByText(`“${name}” created.`).waitFor();
    }
    const list = panel.getByRole('list', { name: 'Installation-wide rubrics' });
    const item = (name: string) => list.getByRole('listitem').filter({ hasText: name });
    expect(await item(walkthrough).textContent()).toContain(
      '8 criteria · version 1No scores yet · no shared portfolio scores with it',
    );
    await shoot(page, 'rubrics-list');

    // A lead scores with it in her shared portfolio; the page then tells so.
    const used = await scoredWith(walkthrough, stamp);
    await page.reload();
    await item(walkthrough).getByText(`1 score given · chosen by “${used.plcName}”`).waitFor();

    // Editing it now makes version 2, and the page says so before and after.
    await item(walkthrough)
      .getByRole('button', { name: `Edit ${walkthrough}` })
      .click();
    const editor = panel.getByRole('form', { name: `Edit “${walkthrough}”` });
    await editor.getByText('Saving makes version 2; the scores given so far keep version 1.').waitFor();
    await editor.getByLabel('Label', { exact: true }).first().fill('Asking questions');
    await editor.getByRole('button', { name: 'Save rubric' }).click();
    await panel.getByText(`“${walkthrough}” saved as version 2.`).waitFor();
    expect(await item(walkthrough).textContent()).toContain('8 criteria · version 2');

    // Deleting it is refused: the score keeps it; the message says where to stop using it.
    await item(walkthrough)
      .getByRole('button', { name: `Delete ${walkthrough}` })
      .click();
    const confirm = panel.getByRole('group', { name: `Delete “${walkthrough}”?` });
    await confirm.waitFor();
    await shoot(page, 'rubrics-confirm');
    await confirm.getByRole('button', { name: 'Delete rubric' }).click();
    const refusal = panel.getByRole('alert');
    await refusal.waitFor();
    expect(await refusal.textContent()).toBe(
      `A score was given with this rubric, and it keeps it: it cannot be deleted. To stop using it, choose another rubric (or none) in “${used.plcName}”.`,
    );
    expect(await item(walkthrough).count()).toBe(1);
    await shoot(page, 'rubrics-refused');

    // An unused one goes.
    await item(spare)
      .getByRole('button', { name: `Delete ${spare}` })
      .click();
    await panel
      .getByRole('group', { name: `Delete “${spare}”?` })
      .getByRole('button', { name: 'Delete rubric' })
      .click();
    await panel.getByText(`“${spare}” deleted.`).waitFor();
    expect(await item(spare).count()).toBe(0);

    // The portfolio stops using it: it stays (its score keeps it), and says it is no longer chosen.
    expect((await used.stopUsing()).status).toBe(200);
    await page.reload();
    await item(walkthrough).getByText('1 score given · no shared portfolio scores with it').waitFor();
  });

  it('is not offered to teachers, and tells them whose page it is', async () => {
    const page = await browser.newPage('/login');
    await login(page, DEMO.teacher.email);
    await page.waitForURL('**/dashboard');
    await page.getByRole('button', { name: DEMO.teacher.username }).click();
    await page.getByRole('menuitem', { name: 'Notification Settings' }).waitFor();
    expect(await page.getByRole('menuitem', { name: 'Rubrics' }).count()).toBe(0);
    await page.keyboard.press('Escape');
    await page.goto('/rubrics');
    await page.getByText('Only researchers manage the installation’s rubrics.').waitFor();
    expect(await audit(page)).toEqual([]);
  });

  it('the demo: Tess sees the lead’s and Theo’s scores as markers on the lesson clip of the PLC’s “Ramp races”', async () => {
    const demo = await findDemo();
    const page = await browser.newPage('/login');
    await login(page, DEMO.teacher.email);
    await page.waitForURL('**/dashboard');
    await page.goto(`/shared-portfolios/${demo.plc}/artifacts/${demo.sharedRamp}`);
    await page.waitForFunction(() => (document.querySelector('video')?.readyState ?? 0) >= 1, undefined, {
      timeout: 20_000,
    });
    // Two people scored the same two moments: those markers hold both scores.
    const names = [
      '2 moments from 0:01: Score Proficient on Asking questions and defining problems by Lee Lead at 0:01–0:03; Score Proficient on Asking questions and defining problems by Theo Teacher at 0:01–0:03',
      '2 moments from 0:05: Score Developing on Planning and carrying out investigations by Lee Lead at 0:05; Score Proficient on Planning and carrying out investigations by Theo Teacher at 0:05',
      'Score Exemplary on Engaging in argument from evidence by Lee Lead at 0:08–0:10',
    ];
    for (const name of names) await page.getByRole('button', { name, exact: true }).waitFor();
    // And in the list beside the discussion, with the notes.
    const list = page.getByRole('region', { name: 'Rubric scores' });
    await list.getByText('Two groups argue from their distances.').waitFor();
    expect(await list.locator('li[id^="score-"]').count()).toBe(5);
    await shoot(page, 'rubrics-demo-scores');
  });
});
