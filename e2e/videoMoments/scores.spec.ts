import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { NGSS_PRACTICES_TEMPLATE } from '../../src/schemas/rubricTemplates.ts';
import { api, DEMO, login } from '../fixtures.ts';
import { audit, setupMoments } from './journey.ts';

/** Rubric scores at moments of a shared video (decision 055): a lead scores, the teacher is told and sees the markers. */
const journey = setupMoments();
/** Where the screenshots of the scoring go (git-ignored), at four widths. */
const SHOTS = path.resolve('e2e/screenshots');

/** Puts the video at `seconds`, paused, and waits until the picker shows that time. */
async function pauseAt(page: Page, seconds: number) {
  await page.evaluate((t) => {
    const v = document.querySelector('video')!;
    v.pause();
    v.currentTime = t;
  }, seconds);
  await page.getByRole('group', { name: new RegExp(`^Score at 0:0${seconds} `) }).waitFor();
}

describe('rubric scores at video moments', () => {
  it('a lead scores two moments in two and three clicks; the teacher is told and sees both markers', async () => {
    const { plc, shared, video } = journey.setup;
    const page = await journey.browser.newPage('/login');
    await login(page, DEMO.lead.email);
    await page.waitForURL('**/dashboard');

    // The lead makes the portfolio's rubric from the NGSS practices in its settings, and chooses it.
    await page.goto(`/shared-portfolios/${plc}/edit`);
    const section = page.getByRole('region', { name: 'Rubric' });
    await section.getByRole('button', { name: 'New rubric from the NGSS practices' }).click();
    const editor = section.getByRole('form', { name: 'New rubric' });
    expect(await editor.getByRole('group').count()).toBe(8);
    mkdirSync(SHOTS, { recursive: true });
    for (const width of [390, 768, 1024, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await section.scrollIntoViewIfNeeded();
      await page.screenshot({ path: path.join(SHOTS, `rubric-editor-${width}.png`), fullPage: true });
      expect(await audit(page), `axe of the rubric editor at ${width} px`).toEqual([]);
    }
    await editor.getByRole('button', { name: 'Save rubric' }).click();
    await section.getByText(`“${NGSS_PRACTICES_TEMPLATE.name}” created.`).waitFor();
    await section.getByLabel('Members score with').selectOption({ label: NGSS_PRACTICES_TEMPLATE.name });
    await section.getByRole('button', { name: 'Use this rubric' }).click();
    await section.getByText(`Members now score with “${NGSS_PRACTICES_TEMPLATE.name}”.`).waitFor();
    for (const width of [390, 768, 1024, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await section.scrollIntoViewIfNeeded();
      await page.screenshot({ path: path.join(SHOTS, `rubric-section-${width}.png`) });
      expect(await audit(page), `axe of the Rubric section at ${width} px`).toEqual([]);
    }

    await page.goto(`/shared-portfolios/${plc}/artifacts/${shared}`);
    await page.waitForFunction(() => (document.querySelector('video')?.readyState ?? 0) >= 1, undefined, {
      timeout: 20_000,
    });

    // First moment: the criterion, then the level (two clicks).
    await pauseAt(page, 2);
    const picker = page.getByRole('group', { name: /^Score at 0:02 / });
    await picker.getByRole('button', { name: 'SEP1 Asking questions and defining problems' }).click();
    await picker.getByRole('button', { name: /^Proficient \(3\)/ }).click();
    const first = 'Score Proficient on Asking questions and defining problems by Lee Lead at 0:02';
    await page.getByRole('button', { name: first }).waitFor();

    // Second moment: the criterion, a note, then the level (three clicks with the note field).
    await pauseAt(page, 4);
    const again = page.getByRole('group', { name: /^Score at 0:04 / });
    await again.getByRole('button', { name: 'SEP7 Engaging in argument from evidence' }).click();
    await again.getByLabel('Note (optional)').click();
    await again.getByLabel('Note (optional)').fill('Two groups compare their ramps and disagree.');
    await again.getByRole('button', { name: /^Developing \(2\)/ }).click();
    const second = 'Score Developing on Engaging in argument from evidence by Lee Lead at 0:04';
    await page.getByRole('button', { name: second }).waitFor();
    const list = page.getByRole('region', { name: 'Rubric scores' });
    await list.getByText('Two groups compare their ramps and disagree.').waitFor();
    expect(await audit(page)).toEqual([]);

    // The teacher: two notifications (the demo data's scores on another video are not these), and the markers on her video.
    const items = (
      await api<{ items: { kind: string; summary: string; link: string }[] }>(
        'GET',
        '/notifications',
        undefined,
        journey.tess,
      )
    ).body.items.filter((n) => n.kind === 'score' && n.link.includes(`?media=${video}&`));
    expect(items.map((n) => n.summary)).toEqual([
      expect.stringMatching(
        /^Lee Lead scored at 0:04 of a video of your artifact .*: Engaging in argument from evidence — Developing$/,
      ),
      expect.stringMatching(
        /^Lee Lead scored at 0:02 of a video of your artifact .*: Asking questions and defining problems — Proficient$/,
      ),
    ]);
    expect(items[0]!.link).toContain(`?media=${video}&t=4#score-`);
    // She sees them under her bell, and the newest takes her to its moment.
    const tess = await journey.signedIn('/dashboard');
    const bell = tess.getByRole('banner').getByRole('button', { name: /^Notifications/ });
    await bell.click();
    const panel = tess.getByRole('dialog', { name: 'Notifications' });
    const told = panel.getByRole('link', {
      name: /Lee Lead scored at 0:0[24] of a video of your artifact “Video moments/,
    });
    await expect.poll(() => told.count(), { timeout: 15_000 }).toBe(2);
    await told.first().click();
    await tess.waitForURL((url) => url.search.includes(`media=${video}`) && url.hash.startsWith('#score-'));
    // The markers on her video's timeline.
    await tess.getByRole('button', { name: first }).waitFor();
    await tess.getByRole('button', { name: second }).waitFor();
    const theirs = tess.getByRole('region', { name: 'Rubric scores' });
    expect(await theirs.locator('li[id^="score-"]').count()).toBe(2);
    // The lead's scores are not hers to delete.
    expect(await theirs.getByRole('button', { name: /^Delete the score/ }).count()).toBe(0);
    expect(await audit(tess)).toEqual([]);

    for (const width of [390, 768, 1024, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await page
        .getByRole('group', { name: /^Score at / })
        .first()
        .scrollIntoViewIfNeeded();
      await page.screenshot({ path: path.join(SHOTS, `scores-${width}.png`), fullPage: true });
      expect(await audit(page), `axe at ${width} px`).toEqual([]);
    }
  });
});
