import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { animationsDone } from '../fixtures.ts';
import { artifactToEdit, behindDropProxy, MiB, videoFile } from '../resumable/kit.ts';
import { audit, expectFits, resize, shoot, WIDTHS } from './support.ts';

// A slow connection (the proxy passes a few MiB a second) keeps an upload in progress long enough to look at.
const portal = behindDropProxy('pf-e2e-upload-states-');
const { work, browser } = portal;

/** The upload row at every width: fitting, accessible, photographed. */
async function checkWidths(page: Page, name: string, found: string[]): Promise<void> {
  for (const width of WIDTHS) {
    await resize(page, width);
    await animationsDone(page);
    await expectFits(page, `${name} at ${width}`);
    found.push(...(await audit(page, `${name} at ${width}`)));
    await shoot(page, name);
  }
}

describe('an upload’s row on every width', () => {
  it('in progress (bytes, speed, time left), paused, and refused: fitting and accessible', async () => {
    const { file } = videoFile(work, 'lesson-states.mp4', 96 * MiB);
    const { page } = await artifactToEdit(browser, 'Upload states');
    const found: string[] = [];
    portal.proxy.throttle(6 * MiB);
    const start = portal.proxy.clientBytes;
    await page.getByLabel('Choose files').setInputFiles(file);
    const row = page.getByRole('listitem', { name: 'lesson-states.mp4' });
    await portal.proxy.sent(start + 24 * MiB);
    await row.getByText(/MB\/s · .* left$/).waitFor();
    portal.proxy.hold();
    await checkWidths(page, 'upload-in-progress', found);
    portal.proxy.release();
    await row.getByRole('button', { name: 'Pause upload of lesson-states.mp4' }).click();
    await row.getByRole('progressbar', { name: 'Paused lesson-states.mp4' }).waitFor();
    await checkWidths(page, 'upload-paused', found);
    await row.getByRole('button', { name: 'Cancel upload of lesson-states.mp4' }).click();
    await row.waitFor({ state: 'detached' });
    portal.proxy.throttle(null);
    // Text named as a video: refused when its last bytes arrive (the type is read from the bytes).
    const notVideo = path.join(work, 'notes.mp4');
    writeFileSync(notVideo, 'Lesson notes, not a video.');
    await page.getByLabel('Choose files').setInputFiles(notVideo);
    const refused = page.getByRole('listitem', { name: 'notes.mp4' }).getByRole('alert');
    await refused.waitFor();
    expect(await refused.textContent()).toMatch(/not a video/);
    await checkWidths(page, 'upload-failed', found);
    expect(found).toEqual([]);
  }, 120_000);
});
