import { describe, expect, it } from 'vitest';
import { artifactToEdit, behindDropProxy, MiB, storedSha256, videoFile } from './resumable/kit.ts';
// The browser talks to the portal through the proxy, which breaks its connections.
const portal = behindDropProxy('pf-e2e-resumable-');
const { work, browser } = portal;

describe('resumable uploads through a connection that breaks', () => {
  it('a 512 MiB video survives three drops by itself, each resume within 2 s, byte for byte', async () => {
    const size = 512 * MiB;
    const { file, sha256 } = videoFile(work, 'lesson.mp4', size);
    const { page, token, artifactId } = await artifactToEdit(browser, 'Three drops');
    await page.getByLabel('Choose files').setInputFiles(file);
    const row = page.getByRole('listitem', { name: 'lesson.mp4' });
    await row.getByRole('progressbar', { name: 'Uploading lesson.mp4' }).waitFor();
    const resumes: number[] = [];
    const start = portal.proxy.clientBytes;
    for (const fraction of [0.2, 0.45, 0.7]) {
      await portal.proxy.sent(start + fraction * size);
      const back = await portal.proxy.cut(800);
      // tus-js-client asks the offset (HEAD), then sends from there (PATCH).
      const resumed = await portal.proxy.firstRequestAfter(back, /^(HEAD|PATCH) \/api\/v1\/uploads\/tus\//, 10_000);
      resumes.push(resumed - back);
    }
    await row.getByText('Uploaded').waitFor({ timeout: 120_000 });
    expect(
      resumes.every((ms) => ms < 2000),
      `resumed ${resumes.join(', ')} ms after the connection was back`,
    ).toBe(true);
    expect(await storedSha256(token, artifactId, 'lesson.mp4')).toBe(sha256);
  }, 180_000);

  it('a reload at half way, then the same file chosen again, resumes from where it stopped', async () => {
    const size = 64 * MiB;
    const { file, sha256 } = videoFile(work, 'lesson-part.mp4', size);
    const { page, token, artifactId } = await artifactToEdit(browser, 'Reloaded');
    const start = portal.proxy.clientBytes;
    await page.getByLabel('Choose files').setInputFiles(file);
    await portal.proxy.sent(start + 0.55 * size);
    portal.proxy.hold();
    await page.reload();
    portal.proxy.release();
    const offer = page.getByRole('listitem', { name: 'Unfinished: lesson-part.mp4' });
    await offer.waitFor();
    expect(await offer.textContent()).toMatch(/Stopped at (5\d|[6-9]\d)%/);
    const head = page.waitForResponse((r) => r.request().method() === 'HEAD' && r.url().includes('/uploads/tus/'));
    await page.getByLabel('Choose files').setInputFiles(file);
    const offset = Number((await head).headers()['upload-offset']);
    expect(offset / size).toBeGreaterThanOrEqual(0.5);
    await page.getByRole('listitem', { name: 'lesson-part.mp4' }).getByText('Uploaded').waitFor({ timeout: 60_000 });
    expect(await offer.count()).toBe(0);
    expect(await storedSha256(token, artifactId, 'lesson-part.mp4')).toBe(sha256);
  }, 120_000);
});
