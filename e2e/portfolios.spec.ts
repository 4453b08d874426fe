import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { DEMO, login, setupBrowser } from './fixtures.ts';

const browser = setupBrowser();

/** A real photo-sized PNG on disk (about 1 MB, so that the upload shows its progress). */
async function photo(): Promise<string> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pf-e2e-files-'));
  const file = path.join(dir, 'magnet-maze.png');
  const noise = Buffer.alloc(700 * 500 * 3);
  for (let i = 0; i < noise.length; i++) noise[i] = (i * 7919) % 251;
  writeFileSync(
    file,
    await sharp(noise, { raw: { width: 700, height: 500, channels: 3 } })
      .png({ compressionLevel: 0 })
      .toBuffer(),
  );
  return file;
}

describe('a teacher works in a personal portfolio; a researcher reads it', () => {
  const portfolioName = `Magnetism ${Date.now()}`;

  it('creates a portfolio and an artifact, meets the validation, uploads, submits, finds, compares, deletes', async () => {
    const page = await browser.newPage('/login');
    await login(page, DEMO.teacher.email);
    await page.waitForURL('**/dashboard');

    // Inline Add Portfolio row on the dashboard.
    await page.getByRole('button', { name: 'Add Portfolio' }).click();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('A name is required.').waitFor();
    await page.getByLabel('Portfolio Name').fill(`  ${portfolioName}  `);
    await page.getByLabel('Subject').selectOption('Science');
    await page.getByLabel('Portfolio Topic').fill('Magnets and fields');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('link', { name: portfolioName }).click();
    await page.waitForURL(/\/my-portfolios\/\d+$/);
    const portfolioPath = new URL(page.url()).pathname;

    // A new artifact starts in the parking lot; submitting needs the core questions.
    await page.getByRole('button', { name: 'Create New Artifact' }).click();
    await page.waitForURL(/\/artifacts\/\d+\/edit$/);
    await page.getByRole('button', { name: 'Submit to Portfolio' }).click();
    await page.getByText('There were errors in your form, please review and resubmit').waitFor();
    expect(await page.getByText('Field Artifact Name is required.').count()).toBe(1);
    expect(await page.getByText('Field What were students working to learn? is required.').count()).toBe(1);

    await page.getByLabel('Artifact Name').fill('Magnet maze');
    await page
      .getByLabel('What were students working to learn?')
      .fill('Students discover that magnetic force acts at a distance.');
    await page.getByRole('checkbox', { name: 'Student work' }).check();

    // Upload an image on a slow line: the progress bar shows, then the thumbnail with its caption.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 20,
      downloadThroughput: -1,
      uploadThroughput: 256 * 1024,
    });
    await page.locator('input[type="file"]').setInputFiles(await photo());
    await page.getByRole('progressbar', { name: /Uploading magnet-maze\.png/ }).waitFor();
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    const tile = page.getByRole('list', { name: 'Uploaded files' }).getByText('magnet maze');
    await tile.waitFor({ timeout: 60_000 });
    const thumbnail = page.getByRole('list', { name: 'Uploaded files' }).locator('img').first();
    await expect
      .poll(() => thumbnail.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBeGreaterThan(0);

    await page.getByRole('button', { name: 'Submit to Portfolio' }).click();
    await page.getByText('Successfully edited artifact').waitFor();
    await page.waitForURL(/\/my-portfolios\/\d+\/artifacts\/\d+$/, { timeout: 10_000 });
    await page.getByRole('heading', { name: 'Magnet maze' }).waitFor();

    // A second artifact, left in the parking lot.
    await page.goto(portfolioPath);
    await page.getByRole('button', { name: 'Create New Artifact' }).click();
    await page.waitForURL(/\/edit$/);
    await page.getByLabel('Artifact Name').fill('Compass walk');
    await page.getByRole('button', { name: 'Save to Parking Lot' }).click();
    await page.getByText('Successfully edited artifact').waitFor();
    await page.waitForURL(/\/artifacts\/\d+$/, { timeout: 10_000 });

    // Find by keyword and by filter.
    await page.goto(portfolioPath);
    const table = page.getByRole('grid', { name: 'Artifacts' }).or(page.getByRole('table', { name: 'Artifacts' }));
    await table.getByText('Compass walk').waitFor();
    await page.getByLabel('Search artifacts').fill('MAGNETIC FORCE');
    await expect.poll(() => table.getByText('Compass walk').count()).toBe(0);
    expect(await table.getByText('Magnet maze').count()).toBe(1);
    await page.getByLabel('Search artifacts').fill('');
    await page.getByRole('button', { name: 'Filter By' }).click();
    await page.getByRole('dialog', { name: 'Filter By' }).getByRole('checkbox', { name: 'Student work' }).check();
    await page.getByRole('button', { name: 'Done' }).click();
    await expect.poll(() => table.getByText('Compass walk').count()).toBe(0);
    await page.getByRole('button', { name: 'Remove filter Student work' }).click();
    await table.getByText('Compass walk').waitFor();

    // Compare two artifacts side by side.
    await page.getByRole('checkbox', { name: 'Compare', exact: true }).check();
    await page.getByRole('checkbox', { name: 'Compare Magnet maze' }).check();
    await page.getByRole('checkbox', { name: 'Compare Compass walk' }).check();
    await page.getByRole('heading', { name: 'Magnet maze', exact: true }).waitFor();
    await page.getByRole('heading', { name: 'Compass walk', exact: true }).waitFor();
    await page.getByRole('checkbox', { name: 'Compare', exact: true }).uncheck();

    // A parking-lot artifact offers Complete Artifact; its form deletes it.
    await table.getByText('Compass walk').click();
    await page.waitForURL(/\/artifacts\/\d+$/);
    await page.getByRole('link', { name: 'Complete Artifact' }).click();
    await page.waitForURL(/\/edit$/);
    await page.getByRole('button', { name: 'Delete Artifact' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'YES' }).click();
    await page.getByText('Successfully deleted artifact').waitFor();
    await page.waitForURL((url) => url.pathname === portfolioPath, { timeout: 10_000 });
    await table.getByText('Magnet maze').waitFor();
    expect(await table.getByText('Compass walk').count()).toBe(0);
  });

  it('a researcher browses that portfolio read-only and downloads the CSV', async () => {
    const page = await browser.newPage('/login');
    await login(page, DEMO.researcher.email);
    await page.goto('/teacher-portfolios');
    await page.getByLabel('Select Teacher').selectOption({ label: 'Teacher, Tess' });
    await page.getByLabel('Select Portfolio').selectOption({ label: portfolioName });
    const table = page.getByRole('grid', { name: 'Artifacts' }).or(page.getByRole('table', { name: 'Artifacts' }));
    await table.getByText('Magnet maze').click();
    await page.getByRole('heading', { name: 'Magnet maze' }).waitFor();
    for (const name of ['EDIT', 'COPY TO', 'Delete Artifact', 'Create New Artifact']) {
      expect(await page.getByRole('button', { name }).or(page.getByRole('link', { name })).count(), name).toBe(0);
    }
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Export portfolios summary' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('teacher portfolios.csv');
    const csv = await (await download.createReadStream()).toArray();
    const text = Buffer.concat(csv as Buffer[]).toString('utf8');
    const [header, ...rows] = parse(text) as string[][];
    // The spec's 12 columns first, in their order; ids and text columns for research follow.
    expect(header!.slice(0, 12)).toEqual([
      'Teacher',
      'Portfolio',
      'Artifacts',
      'Parking Lot Artifacts',
      'Completed Artifacts',
      'Artifacts with Documents',
      'Artifacts with Images',
      'Artifacts with Videos',
      'Documents',
      'Images',
      'Videos',
      'Last Updated',
    ]);
    const row = rows.find((r) => r[1] === portfolioName)!;
    expect(row.slice(0, 11)).toEqual(['Tess Teacher', portfolioName, '1', '0', '1', '0', '1', '0', '0', '1', '0']);
    expect(row[11]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
  });
});
