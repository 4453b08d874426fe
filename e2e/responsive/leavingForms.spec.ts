import { mkdtempSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, dataDir, DEMO, findDemo, tokenFor, type DemoPlaces as Demo } from '../fixtures.ts';
import { setupResponsive } from './support.ts';

/**
 * No lost work at the widths teachers use: typed answers are asked about before a header link,
 * Back or a reload leaves them, and a new artifact left before its first save leaves no rows or files.
 */
const { signedIn } = setupResponsive();

/** Files in the server's uploads folder (the stored files and their formats). */
const storedFiles = (): string[] =>
  readdirSync(path.join(dataDir(), 'uploads'))
    .filter((name) => !name.startsWith('.'))
    .sort();

describe('no lost work: leaving a form, and a new artifact left before its first save', () => {
  let demo: Demo;
  let token: string;
  beforeAll(async () => {
    demo = await findDemo();
    token = await tokenFor(DEMO.teacher.email);
  });

  const listedIds = async (): Promise<number[]> =>
    (await api<{ artifacts: { id: number }[] }>('GET', `/portfolios/${demo.forces}`, undefined, token)).body.artifacts
      .map((a) => a.id)
      .sort();

  it('asks before a header link, the Back button or a reload leaves typed answers behind', async () => {
    const page = await signedIn(DEMO.teacher.email);
    await page.goto(`/my-portfolios/${demo.forces}/artifacts/${demo.ramp}`);
    await page.getByRole('link', { name: 'EDIT', exact: true }).click();
    await page.waitForURL('**/edit');
    const field = page.getByLabel('What would you do next, or differently?');
    await field.fill('Try a steeper ramp with the same car.');

    // A header link: the question, Stay keeps the answers.
    await page.getByRole('link', { name: 'PORTFOLIO DASHBOARD', exact: true }).click();
    const question = page.getByRole('alertdialog', { name: 'Leave this page?' });
    await question.getByText('Your changes are not saved.').waitFor();
    await question.getByRole('button', { name: 'Stay on this page' }).click();
    expect(page.url()).toMatch(/\/edit$/);
    expect(await field.inputValue()).toBe('Try a steeper ramp with the same car.');

    // The Back button: held, the address stays, the question again.
    await page.goBack();
    await question.waitFor();
    expect(page.url()).toMatch(/\/edit$/);
    await question.getByRole('button', { name: 'Stay on this page' }).click();
    expect(await field.inputValue()).toBe('Try a steeper ramp with the same car.');

    // Reload: the browser's own question; dismissing it keeps the page.
    const asked: string[] = [];
    page.once('dialog', (dialog) => {
      asked.push(dialog.type());
      void dialog.dismiss();
    });
    await page.reload({ timeout: 3000 }).catch(() => undefined);
    expect(asked).toEqual(['beforeunload']);
    expect(await field.inputValue()).toBe('Try a steeper ramp with the same car.');

    // Back, and Leave without saving: the artifact view, nothing saved.
    await page.goBack();
    await question.getByRole('button', { name: 'Leave without saving' }).click();
    await page.waitForURL(`**/my-portfolios/${demo.forces}/artifacts/${demo.ramp}`);
    const artifact = (
      await api<{ responses: Record<string, unknown> }>('GET', `/artifacts/${demo.ramp}`, undefined, token)
    ).body;
    expect(artifact.responses['nextSteps']).not.toBe('Try a steeper ramp with the same car.');
  });

  it('Create New Artifact → a file → Cancel leaves nothing behind (rows and files); so does leaving by a link', async () => {
    const page = await signedIn(DEMO.teacher.email);
    const before = { listed: await listedIds(), files: storedFiles() };
    const photo = path.join(mkdtempSync(path.join(os.tmpdir(), 'pf-e2e-cancel-')), 'cancelled-photo.png');
    const { default: sharp } = await import('sharp');
    await sharp({ create: { width: 320, height: 200, channels: 3, background: { r: 90, g: 140, b: 60 } } })
      .png()
      .toFile(photo);

    await page.goto(`/my-portfolios/${demo.forces}`);
    await page.getByRole('button', { name: 'Create New Artifact' }).click();
    await page.waitForURL(/\/artifacts\/\d+\/edit$/);
    const newId = Number(/\/artifacts\/(\d+)\/edit$/.exec(page.url())![1]);
    await page.locator('input[type="file"]').setInputFiles(photo);
    await page.getByRole('list', { name: 'Uploaded files' }).getByText('cancelled photo').waitFor({ timeout: 60_000 });
    expect(storedFiles().length).toBeGreaterThan(before.files.length);
    // Until its first save it is listed nowhere.
    expect(await listedIds()).toEqual(before.listed);

    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    await page.waitForURL(`**/my-portfolios/${demo.forces}`);
    expect((await api('GET', `/artifacts/${newId}`, undefined, token)).status).toBe(404);
    expect(await listedIds()).toEqual(before.listed);
    expect(storedFiles()).toEqual(before.files);

    // Created again and left by a header link (nothing typed): removed on the way out.
    await page.getByRole('button', { name: 'Create New Artifact' }).click();
    await page.waitForURL(/\/artifacts\/\d+\/edit$/);
    const secondId = Number(/\/artifacts\/(\d+)\/edit$/.exec(page.url())![1]);
    await page.getByRole('heading', { level: 1, name: 'Edit Artifact' }).waitFor();
    await page.getByRole('link', { name: 'SHARED PORTFOLIOS', exact: true }).click();
    await page.waitForURL('**/shared-portfolios');
    await expect.poll(async () => (await api('GET', `/artifacts/${secondId}`, undefined, token)).status).toBe(404);
    expect(await listedIds()).toEqual(before.listed);
    expect(storedFiles()).toEqual(before.files);
  });
});
