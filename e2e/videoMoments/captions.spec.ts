import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { mediaLabel } from '../../src/machines/artifactLifecycle/artifactSelectors.ts';
import { api, baseUrl, DEMO, layoutSettled, login } from '../fixtures.ts';
import { audit, setupMoments } from './journey.ts';

/** The texts of a video and an image: captions edited cue by cue and kept per artifact, and alt text. */
const journey = setupMoments();
const { browser, signedIn, work } = journey;

describe('video moments', () => {
  it('captions: upload a WebVTT file, the cue is rendered, edit it cue by cue, download it', async () => {
    const page = await signedIn(`/shared-portfolios/${journey.setup.plc}/artifacts/${journey.setup.shared}`);
    const panel = page.locator('details').filter({ has: page.getByText(/^Captions of /) });
    await panel.locator('summary').click();
    await panel.getByText('This video has no captions yet.').waitFor();
    await panel.getByLabel('Caption file (.vtt or .srt)').setInputFiles({
      name: 'ramp-race.vtt',
      mimeType: 'text/vtt',
      buffer: Buffer.from(
        'WEBVTT\n\n00:00.500 --> 00:03.000\nThe ball starts rolling.\n\n00:03.000 --> 00:05.500\nIt passes the <b>second</b> mark.\n',
      ),
    });
    await panel.getByRole('button', { name: 'Upload captions' }).click();
    await panel.getByText('English (en), 2 captions').waitFor();

    // The track is the shown one: at 1 s its first cue is active.
    await page.evaluate(() => {
      document.querySelector('video')!.currentTime = 1;
    });
    await page.waitForFunction(
      () => {
        const track = document.querySelector('video')!.textTracks[0];
        return (
          track?.mode === 'showing' &&
          [...(track.activeCues ?? [])].some((c) => (c as VTTCue).text === 'The ball starts rolling.')
        );
      },
      undefined,
      { timeout: 10_000 },
    );
    expect(await page.getByRole('combobox', { name: 'Captions' }).inputValue()).not.toBe('');

    // The caption editor: change the first cue, save; the file downloads with the change.
    await panel.getByRole('button', { name: 'Edit English captions' }).click();
    const editor = page.getByRole('form', { name: 'Edit captions: English' });
    await editor.waitFor();
    expect(await audit(page), 'WCAG 2.1 AA violations on the caption editor').toEqual([]);
    const first = editor.getByRole('group', { name: 'Caption 1' });
    await first.getByLabel('Text').fill('The ball starts to roll.');
    await editor.getByRole('button', { name: 'Save captions' }).click();
    await page.getByText('Captions saved').waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      panel.getByRole('link', { name: 'Download English captions' }).click(),
    ]);
    const file = path.join(work, 'captions.vtt');
    await download.saveAs(file);
    const text = readFileSync(file, 'utf8');
    expect(text.startsWith('WEBVTT')).toBe(true);
    expect(text).toContain('The ball starts to roll.');
    expect(text).toContain('<b>second</b>');
  });

  it('captions are per artifact: a colleague edits the copy’s track, the personal artifact’s track stays as it was', async () => {
    const personalUrl = `/artifacts/${journey.setup.ramp}/media/${journey.setup.video}/captions`;
    const source = 'WEBVTT\n\n00:00.500 --> 00:03.000\nMy own words.\n';
    const added = await api<{ id: number }>(
      'POST',
      personalUrl,
      { language: 'fr', label: 'Français', format: 'vtt', source },
      journey.tess,
    );
    expect(added.status).toBe(200);
    const copy = await api<{ id: number }>(
      'POST',
      `/artifacts/${journey.setup.ramp}/share`,
      { sharedPortfolioId: journey.setup.plc },
      journey.tess,
    );
    expect(copy.status).toBe(200);

    // The PLC lead edits the copy's French track in the browser.
    const page = await browser.newPage('/login');
    await login(page, DEMO.lead.email);
    await page.waitForURL('**/dashboard');
    await page.goto(`/shared-portfolios/${journey.setup.plc}/artifacts/${copy.body.id}`);
    const panel = page.locator('details').filter({ has: page.getByText(/^Captions of /) });
    await panel.locator('summary').click();
    await panel.getByRole('button', { name: 'Edit Français captions' }).click();
    const editor = page.getByRole('form', { name: 'Edit captions: Français' });
    await editor.getByRole('group', { name: 'Caption 1' }).getByLabel('Text').fill('Rewritten by a colleague.');
    await editor.getByRole('button', { name: 'Save captions' }).click();
    await page.getByText('Captions saved').waitFor();

    type Track = { id: number; label: string; url: string };
    const vttOf = async (track: Track) =>
      (await fetch(`${baseUrl()}/api/v1${track.url}`, { headers: { authorization: `Bearer ${journey.tess}` } })).text();
    const copyTracks = (
      await api<Track[]>(
        'GET',
        `/shared-artifacts/${copy.body.id}/media/${journey.setup.video}/captions`,
        undefined,
        journey.tess,
      )
    ).body;
    expect(await vttOf(copyTracks.find((t) => t.label === 'Français')!)).toContain('Rewritten by a colleague.');
    const personalTracks = (await api<Track[]>('GET', personalUrl, undefined, journey.tess)).body;
    const personal = await vttOf(personalTracks.find((t) => t.label === 'Français')!);
    expect(personal).toContain('My own words.');
    expect(personal).not.toContain('Rewritten');
    // The other copy never had the track.
    const other = (
      await api<Track[]>(
        'GET',
        `/shared-artifacts/${journey.setup.shared}/media/${journey.setup.video}/captions`,
        undefined,
        journey.tess,
      )
    ).body;
    expect(other.map((t) => t.label)).not.toContain('Français');
    // The teacher hears that her copy was edited.
    const feed = (
      await api<{ items: { kind: string; link: string }[] }>('GET', '/notifications', undefined, journey.tess)
    ).body.items;
    expect(feed.some((n) => n.kind === 'snapshot_edited' && n.link.endsWith(`/artifacts/${copy.body.id}`))).toBe(true);
    await page.close();
  });

  it('captions: the caption editor never makes the page scroll sideways, at 390, 768, 1024 and 1280 px', async () => {
    const source =
      'WEBVTT\n\n00:00.500 --> 00:03.000\nA long caption that has to wrap on a phone rather than push the page sideways.\n\n00:03.000 --> 00:05.500\nSecond.\n';
    const added = await api(
      'POST',
      `/shared-artifacts/${journey.setup.shared}/media/${journey.setup.video}/captions`,
      { language: 'de', label: 'Deutsch', format: 'vtt', source },
      journey.tess,
    );
    expect(added.status).toBe(200);
    const page = await signedIn(`/shared-portfolios/${journey.setup.plc}/artifacts/${journey.setup.shared}`);
    const panel = page.locator('details').filter({ has: page.getByText(/^Captions of /) });
    await panel.locator('summary').click();
    await panel.getByRole('button', { name: 'Edit Deutsch captions' }).click();
    const editor = page.getByRole('form', { name: 'Edit captions: Deutsch' });
    await editor.waitFor();
    for (const width of [390, 768, 1024, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await layoutSettled(page);
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow, `sideways scroll at ${width} px`).toBeLessThanOrEqual(0);
      for (const control of [
        editor.getByRole('group', { name: 'Caption 1' }).getByLabel('End (m:ss)'),
        editor.getByRole('button', { name: 'Remove caption 1' }),
      ]) {
        await control.scrollIntoViewIfNeeded();
        const box = (await control.boundingBox())!;
        expect(box.x, `left edge at ${width} px`).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width, `right edge at ${width} px`).toBeLessThanOrEqual(width);
      }
      if (width === 390 || width === 1280) {
        await editor.scrollIntoViewIfNeeded();
        await page.screenshot({ path: path.resolve(`e2e/screenshots/caption-editor-${width}.png`) });
      }
    }
    await page.close();
  });

  it('alt text: set on the edit page, then it is the image’s alt', async () => {
    const page = await signedIn(`/my-portfolios/${journey.setup.forces}/artifacts/${journey.setup.ramp}/edit`);
    // The image as people name it (its file name without the extension or separators), not its upload letter.
    const label = mediaLabel({ name: journey.setup.image.name, mime: 'image/png' });
    await page.getByRole('button', { name: `Add alt text of ${label}` }).click();
    const group = page.getByRole('group', { name: `Alt text and description of ${label}` });
    await group.getByLabel('Alt text').fill('Two toy cars at the top of a wooden ramp');
    await group.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('button', { name: `Edit alt text of ${label}` }).waitFor();

    await page.goto(`/my-portfolios/${journey.setup.forces}/artifacts/${journey.setup.ramp}`);
    const image = page.locator('img[alt="Two toy cars at the top of a wooden ramp"]');
    await image.first().waitFor();
    expect(await image.count()).toBeGreaterThan(0);
    // And in the image viewer it opens.
    await image.first().click();
    await page.waitForURL(/\/images\/uploads\//);
    await page
      .getByRole('group', { name: /^Image / })
      .locator('img[alt="Two toy cars at the top of a wooden ramp"]')
      .waitFor();
  });
});
