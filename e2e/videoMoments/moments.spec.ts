import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { api, DEMO, layoutSettled, tokenFor } from '../fixtures.ts';
import { audit, currentTime, setupMoments } from './journey.ts';

/** Comments at a moment of a video: posting one, its notification, private notes, and toasts that keep clear. */
const journey = setupMoments();
const { signedIn, stamp } = journey;

describe('video moments', () => {
  it('a comment at a moment: play, pause there, comment, see the marker, reload, click it and the video seeks there', async () => {
    const page = await signedIn(`/shared-portfolios/${journey.setup.plc}/artifacts/${journey.setup.shared}`);
    const video = page.locator('video');
    await video.waitFor();
    await page.waitForFunction(() => document.querySelector('video')!.readyState >= 1, undefined, { timeout: 20_000 });
    // Play (muted, as autoplay rules allow) and let it run past two seconds.
    await page.evaluate(async () => {
      const v = document.querySelector('video')!;
      v.muted = true;
      await v.play();
    });
    await page.waitForFunction(() => document.querySelector('video')!.currentTime > 2, undefined, { timeout: 20_000 });
    await page.getByRole('button', { name: /^Comment at 0:0\d$/ }).click();
    // "Comment at" paused the video and anchored the composer at that time.
    const composer = page.getByRole('form', { name: /^Comment at 0:0\d$/ });
    await composer.waitFor();
    expect(await page.evaluate(() => document.querySelector('video')!.paused)).toBe(true);
    const paused = await currentTime(page);
    await composer.getByRole('textbox').fill('Here the ball passes the second mark.');
    await composer.getByRole('button', { name: 'Post Comment' }).click();
    await page.getByText('Comment added at').waitFor();

    const detail = (
      await api<{ comments: { text: string; moment: { media: number; start: number; end: number | null } | null }[] }>(
        'GET',
        `/shared-artifacts/${journey.setup.shared}`,
        undefined,
        journey.tess,
      )
    ).body;
    const moment = detail.comments.find((c) => c.text === 'Here the ball passes the second mark.')!.moment!;
    expect(moment.media).toBe(journey.setup.video);
    expect(Math.abs(moment.start - paused)).toBeLessThan(0.25);
    const label = `Comment by ${DEMO.teacher.username} at 0:0${Math.floor(moment.start)}`;
    await page.getByRole('button', { name: label }).waitFor();

    // After a reload the marker is there; clicking it seeks the video and highlights the comment.
    await page.reload();
    await page.waitForFunction(() => (document.querySelector('video')?.readyState ?? 0) >= 1, undefined, {
      timeout: 20_000,
    });
    expect(await currentTime(page)).toBeLessThan(0.25);
    await page.getByRole('button', { name: label }).click();
    await page.waitForFunction(
      (start) => Math.abs(document.querySelector('video')!.currentTime - start) < 0.25,
      moment.start,
      { timeout: 10_000 },
    );
    expect(Math.abs((await currentTime(page)) - moment.start)).toBeLessThan(0.25);
    const comment = page
      .getByRole('article', { name: `Comment by ${DEMO.teacher.username}` })
      .filter({ hasText: 'Here the ball passes the second mark.' });
    expect(await comment.getAttribute('aria-current')).toBe('true');
    // The timeline is announced.
    expect(await page.getByText('1 moment on the timeline.').count()).toBe(1);

    // Keyboard: from the start again, the marker is reached with Tab and operated with Enter.
    await page.evaluate(() => {
      document.querySelector('video')!.currentTime = 0;
    });
    await page.getByRole('button', { name: label }).focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction(
      (start) => Math.abs(document.querySelector('video')!.currentTime - start) < 0.25,
      moment.start,
      { timeout: 10_000 },
    );

    // The video's comments at moments export as CSV and as WebVTT cues.
    const csvHref = await page
      .getByRole('link', { name: /^Download the comments at moments of .* \(CSV\)$/ })
      .getAttribute('href');
    const csv = await page.request.get(csvHref!);
    expect(csv.status()).toBe(200);
    expect(await csv.text()).toContain('Here the ball passes the second mark.');
    const vtt = await page.request.get(
      (await page.getByRole('link', { name: 'Download them as WebVTT captions' }).getAttribute('href'))!,
    );
    expect(vtt.headers()['content-type']).toContain('text/vtt');
    expect(await vtt.text()).toContain(`<v ${DEMO.teacher.username}>Here the ball passes the second mark.`);

    // Filter and order of the thread.
    await page.getByRole('combobox', { name: 'Show' }).selectOption({ label: 'Comments at moments' });
    await comment.waitFor();

    // The player with its markers has no WCAG 2.1 AA violations.
    expect(await audit(page), 'WCAG 2.1 AA violations on the player').toEqual([]);
  });

  it('a moment notification opens with the player in view at the moment, the comment highlighted', async () => {
    const lead = await tokenFor(DEMO.lead.email);
    const text = `At this moment ${stamp}`;
    const posted = await api<{ id: number }>(
      'POST',
      '/comments',
      { sharedArtifact: journey.setup.shared, text, moment: { media: journey.setup.video, start: 4 } },
      lead,
    );
    expect(posted.status).toBe(200);
    const page = await signedIn('/dashboard');
    await page
      .getByRole('banner')
      .getByRole('button', { name: /^Notifications/ })
      .click();
    const panel = page.getByRole('dialog', { name: 'Notifications' });
    const item = panel.getByRole('link', { name: /commented at/ }).first();
    await item.waitFor();
    await item.click();
    await page.waitForURL(
      (url) =>
        /^\/shared-portfolios\/\d+\/artifacts\/\d+$/.test(url.pathname) && url.hash === `#comment-${posted.body.id}`,
    );
    const comment = page.locator(`#comment-${posted.body.id}`);
    await expect.poll(() => comment.getAttribute('aria-current')).toBe('true');
    const player = page.locator('video').first();
    await expect
      .poll(() =>
        player.evaluate((el) => {
          const box = el.getBoundingClientRect();
          return box.top >= 0 && box.bottom <= window.innerHeight;
        }),
      )
      .toBe(true);
    await page.close();
  });

  it('private notes: a note at a moment of her own video, copied to a shared portfolio only when ticked', async () => {
    const page = await signedIn(`/my-portfolios/${journey.setup.forces}/artifacts/${journey.setup.ramp}`);
    const notes = page.getByRole('region', { name: 'My private notes on the video' });
    await notes.waitFor();
    await page.waitForFunction(() => (document.querySelector('video')?.readyState ?? 0) >= 1, undefined, {
      timeout: 20_000,
    });
    await page.evaluate(() => {
      document.querySelector('video')!.currentTime = 4;
    });
    await notes.getByRole('button', { name: 'Note at 0:04' }).click();
    const box = notes.getByRole('form', { name: 'Note at 0:04' });
    await box.getByRole('textbox').fill('Ask them why the heavier car wins.');
    await box.getByRole('button', { name: 'Post Note' }).click();
    await notes.getByRole('listitem', { name: 'Note at 0:04' }).waitFor();
    await notes.getByRole('button', { name: 'Your note at 0:04' }).waitFor();

    // Copied without the box ticked: no comment on the copy; ticked: the note is her comment at that moment.
    const copyOnce = async (tick: boolean): Promise<number> => {
      await page.goto(`/my-portfolios/${journey.setup.forces}/artifacts/${journey.setup.ramp}/copy`);
      await page.getByRole('radio', { name: new RegExp(journey.setup.plcName) }).check();
      const choice = page.getByRole('checkbox', { name: /^Include my private notes/ });
      expect(await choice.isChecked()).toBe(false);
      if (tick) await choice.check();
      await page.getByRole('button', { name: 'COMPLETE COPY' }).click();
      await page.waitForURL(/\/shared-portfolios\/\d+\/artifacts\/\d+/);
      return Number(/\/artifacts\/(\d+)/.exec(page.url())![1]);
    };
    const without = await copyOnce(false);
    const withNotes = await copyOnce(true);
    type Detail = { comments: { text: string; username: string; moment: { start: number } | null }[] };
    expect((await api<Detail>('GET', `/shared-artifacts/${without}`, undefined, journey.tess)).body.comments).toEqual(
      [],
    );
    const copied = (await api<Detail>('GET', `/shared-artifacts/${withNotes}`, undefined, journey.tess)).body.comments;
    expect(copied.map((c) => [c.text, c.username, c.moment?.start])).toEqual([
      ['Ask them why the heavier car wins.', DEMO.teacher.username, 4],
    ]);
  });

  it('on a phone (390 px) no toast covers the moment composer (by their boxes), also with the composer at the bottom of the window', async () => {
    const page = await signedIn(`/shared-portfolios/${journey.setup.plc}/artifacts/${journey.setup.shared}`);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForFunction(() => (document.querySelector('video')?.readyState ?? 0) >= 1, undefined, {
      timeout: 20_000,
    });
    const commentAt = page.getByRole('button', { name: /^Comment at \d+:\d\d$/ });
    await commentAt.click();
    const composer = page.getByRole('form', { name: /^Comment at \d+:\d\d$/ });
    await composer.getByRole('textbox').fill('Toasts step aside on phones.');
    await composer.getByRole('button', { name: 'Post Comment' }).click();
    const toasts = page.getByRole('region', { name: 'Notifications' }).locator('[role="status"], [role="alert"]');
    await toasts.getByText(/^Comment added at /).waitFor();
    // The next comment at a moment while the confirmation still shows.
    await commentAt.click();
    await composer.getByRole('textbox').click();
    const apart = async (where: string) => {
      // The messages are placed again in the frame after a focus, a scroll or a change of the page.
      await layoutSettled(page);
      const box = (await composer.boundingBox())!;
      expect(await toasts.count(), `${where}: the confirmation still shows`).toBeGreaterThan(0);
      for (const toast of await toasts.all()) {
        const t = (await toast.boundingBox())!;
        const clear =
          t.x + t.width <= box.x || box.x + box.width <= t.x || t.y + t.height <= box.y || box.y + box.height <= t.y;
        expect(clear, `${where}: a toast ${JSON.stringify(t)} covers the composer ${JSON.stringify(box)}`).toBe(true);
      }
    };
    await apart('the composer as it opened');
    await page.evaluate(() => {
      const form = document.querySelector('form[data-keep-clear]')!;
      window.scrollBy(0, form.getBoundingClientRect().bottom - window.innerHeight + 4);
    });
    await apart('the composer at the bottom of the window');
    await page.screenshot({ path: path.resolve('e2e/screenshots/moment-composer-toast-390.png') });
  });
});
