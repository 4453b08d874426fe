import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { api, DEMO, login, setupBrowser, tokenFor } from './fixtures.ts';

/**
 * The image viewer opened from a bare link, as the mobile apps open a photo
 * (`/images/uploads/<capability>/<file>.html`, no history state): it is titled with the file's
 * name as it was uploaded and leads back to the artifact the photo belongs to.
 */
const browser = setupBrowser();
const SCREENSHOTS = path.resolve('e2e/screenshots');

interface Artifact {
  id: number;
  responses: Record<string, unknown>;
  images: { name: string; url: string }[];
}

async function demoPhoto() {
  const tess = await tokenFor(DEMO.teacher.email);
  const portfolios = (await api<{ id: number; name: string }[]>('GET', '/portfolios', undefined, tess)).body;
  const forces = portfolios.find((p) => p.name === 'Forces and Motion')!;
  const artifacts = (await api<{ artifacts: Artifact[] }>('GET', `/portfolios/${forces.id}`, undefined, tess)).body
    .artifacts;
  const ramp = artifacts.find((a) => a.responses['artifactName'] === 'Ramp races: predicting speed')!;
  const photo = ramp.images[0]!;
  return {
    forces: forces.id,
    ramp: ramp.id,
    title: String(ramp.responses['artifactName']),
    photo,
    address: photo.url.replace('/uploads/', ''),
  };
}

async function signedIn(width: number): Promise<Page> {
  const page = await browser.newPage('/login', { width, height: width === 390 ? 844 : 900 });
  await login(page, DEMO.teacher.email);
  await page.waitForURL('**/dashboard');
  return page;
}

describe('the image viewer opened from a bare link', () => {
  for (const width of [1280, 390]) {
    it(`is titled with the file's name and leads back to its artifact (${width} px)`, async () => {
      const demo = await demoPhoto();
      const page = await signedIn(width);
      await page.goto(`/images/uploads/${demo.address}.html`);
      await expect
        .poll(() =>
          page.locator('[data-file] img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth),
        )
        .toBeGreaterThan(0);
      const heading = page.getByRole('heading', { level: 1 });
      await expect.poll(() => heading.textContent()).toBe(demo.photo.name);
      expect(await page.title()).toContain(demo.photo.name);
      const back = page.getByRole('link', { name: `← Back to ${demo.title}` });
      expect(await back.getAttribute('href')).toBe(`/my-portfolios/${demo.forces}/artifacts/${demo.ramp}`);
      // The way back is on screen, not below the image.
      const box = (await back.boundingBox())!;
      expect(box.y + box.height).toBeLessThanOrEqual(page.viewportSize()!.height);
      mkdirSync(SCREENSHOTS, { recursive: true });
      await page.screenshot({ path: path.join(SCREENSHOTS, `image-viewer-bare-link-${width}.png`) });
      await back.click();
      await page.waitForURL(`**/my-portfolios/${demo.forces}/artifacts/${demo.ramp}`);
    });
  }

  it('a link that is no longer valid still offers a way back', async () => {
    const demo = await demoPhoto();
    const page = await signedIn(390);
    await page.goto('/dashboard');
    await page.goto(`/images/uploads/${demo.address.replace(/^[^/]+\//, 'x.y.zzzzzzzzzzzzzzzzzzzzzz/')}.html`);
    await page.getByText('This image could not be shown.').waitFor();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Image');
    await page.getByRole('button', { name: '← Back' }).click();
    await page.waitForURL('**/dashboard');
  });
});
