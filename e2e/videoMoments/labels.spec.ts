import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Comment } from '#schemas/sharedArtifact';
import { api, DEMO, login } from '../fixtures.ts';
import { audit, setupMoments } from './journey.ts';

/** Words, times and labels around videos and comments. */
const journey = setupMoments();
const { browser, stamp } = journey;

describe('words, times and labels', () => {
  it('files read by their names and videos show a play badge and their length; comments show when, "edited" and @mentions; one Add reaction', async () => {
    // A copy of its own: no comments or reactions from the other journeys.
    const copy = await api<{ id: number }>(
      'POST',
      `/artifacts/${journey.setup.ramp}/share`,
      { sharedPortfolioId: journey.setup.plc },
      journey.tess,
    );
    expect(copy.status).toBe(200);
    const posted = await api<{ id: number }>(
      'POST',
      '/comments',
      { sharedArtifact: copy.body.id, text: `@${DEMO.lead.username}  could you look at the finish? ${stamp}` },
      journey.tess,
    );
    expect(posted.status).toBe(200);
    const plain = await api(
      'POST',
      '/comments',
      { sharedArtifact: copy.body.id, text: `A second look, not changed ${stamp}` },
      journey.tess,
    );
    expect(plain.status).toBe(200);
    // Edited once the server's stamps say so (the SPA's EDITED_AFTER_MS: more than 1 s apart); the same edit until then.
    const isEdited = (c: Comment) => Date.parse(c.updated_at) - Date.parse(c.created_at) > 1000;
    const edit = () =>
      api<Comment>(
        'PUT',
        `/comments/${posted.body.id}`,
        { text: `@${DEMO.lead.username}  could you look at the finish line? ${stamp}` },
        journey.tess,
      );
    await expect
      .poll(
        async () => {
          const edited = await edit();
          expect(edited.status).toBe(200);
          return isEdited(edited.body);
        },
        { interval: 250, timeout: 10_000 },
      )
      .toBe(true);

    for (const width of [390, 1280]) {
      const page = await browser.newPage('/login', { width, height: 900 });
      await login(page, DEMO.teacher.email);
      await page.waitForURL('**/dashboard');

      // The personal artifact: tiles named as people name the files, the video with a badge and its length.
      await page.goto(`/my-portfolios/${journey.setup.forces}/artifacts/${journey.setup.ramp}`);
      const video = page.getByRole('link', { name: 'ramp race (video, 0:06)' });
      await video.waitFor();
      expect(await video.locator('[data-play-badge]').isVisible()).toBe(true);
      expect(await video.locator('[data-duration]').textContent()).toBe('0:06');
      // Its name ends with the file's label (an alt text set by another journey comes first).
      await page.getByRole('link', { name: /(^|\s)ramp setup$/ }).waitFor();
      expect(await page.getByText(/^[A-Z]{1,2}\. \S+\.(png|webm)$/).count()).toBe(0);
      // The badge and the length sit inside the picture.
      const [tile, badge, length] = await Promise.all([
        video.locator('img').boundingBox(),
        video.locator('[data-play-badge] span').boundingBox(),
        video.locator('[data-duration]').boundingBox(),
      ]);
      for (const box of [badge!, length!]) {
        expect(box.x).toBeGreaterThanOrEqual(tile!.x);
        expect(box.x + box.width).toBeLessThanOrEqual(tile!.x + tile!.width + 1);
        expect(box.y + box.height).toBeLessThanOrEqual(tile!.y + tile!.height + 1);
      }
      await page.screenshot({ path: path.resolve(`e2e/screenshots/file-tiles-${width}.png`), fullPage: true });

      // The shared copy: the comments, and the empty reactions bar.
      await page.goto(`/shared-portfolios/${journey.setup.plc}/artifacts/${copy.body.id}`);
      const comments = page.getByRole('region', { name: 'Comments' });
      const mentioned = comments.getByRole('article').filter({ hasText: 'finish line' });
      await mentioned.waitFor();
      expect(await mentioned.locator('[data-mention]').textContent()).toBe(`@${DEMO.lead.username}`);
      // No doubled space after the name, and no markup: one text run, as written.
      expect((await mentioned.locator('p').textContent())!).toContain(`@${DEMO.lead.username} could you`);
      expect(await mentioned.locator('time').first().textContent()).toMatch(/^(just now|\d+ minutes? ago)$/);
      expect(await mentioned.locator('[data-edited]').textContent()).toBe('edited');
      const other = comments.getByRole('article').filter({ hasText: 'not changed' });
      expect(await other.locator('[data-edited]').count()).toBe(0);
      const reactions = page.getByRole('region', { name: 'Reactions' });
      await reactions.getByText('No reactions yet.').waitFor();
      expect(await reactions.getByText(/→/).count()).toBe(0);
      expect(await reactions.getByRole('button', { name: /add reaction/i }).count()).toBe(1);
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
      ).toBeLessThanOrEqual(0);
      await mentioned.scrollIntoViewIfNeeded();
      await page.screenshot({ path: path.resolve(`e2e/screenshots/comment-words-${width}.png`) });
      expect(await audit(page)).toEqual([]);
      await page.close();
    }
  });
});
