import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { readZip } from '../server/test/zipReader.ts';
import { DEMO, login, setupBrowser } from './fixtures.ts';

const browser = setupBrowser();
const PSEUDONYM = /^P-[0-9a-f]{20}$/;

describe('a researcher takes the research package', () => {
  it('opens Research Export from the navigation, downloads the ZIP, and finds it in the export log', async () => {
    const page = await browser.newPage('/login');
    await login(page, DEMO.researcher.email);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'RESEARCH EXPORT' }).click();
    await page.waitForURL('**/research-export');
    await page.getByRole('heading', { name: 'Research Export' }).waitFor();
    await page.getByRole('form', { name: 'Research export filters' }).waitFor();

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download package' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^practicefolio-research-\d{4}-\d{2}-\d{2}-export-\d+\.zip$/);
    const file = await download.path();
    const files = readZip(readFileSync(file));
    for (const name of [
      'teachers.csv',
      'portfolios.csv',
      'artifacts.csv',
      'responses.csv',
      'comments.csv',
      'codebook.md',
      'README.md',
    ]) {
      expect(files.has(name), name).toBe(true);
    }
    const teachers = parse(files.get('teachers.csv')!, { columns: true }) as Record<string, string>[];
    expect(teachers.length).toBeGreaterThan(0);
    for (const row of teachers) expect(row['teacher_id']).toMatch(PSEUDONYM);
    // Pseudonymous by default: no demo account's name or address anywhere in the package.
    for (const [name, content] of files) {
      const text = content.toString('utf8').toLowerCase();
      for (const who of [DEMO.researcher, DEMO.lead, DEMO.teacher, DEMO.teacher2]) {
        expect(text, `${who.email} in ${name}`).not.toContain(who.email.toLowerCase());
        expect(text, `${who.username} in ${name}`).not.toContain(who.username.toLowerCase());
      }
    }

    // The page reads the log again: the export is in it, by this researcher.
    const log = page.getByRole('table', { name: 'Export log' });
    await expect
      .poll(async () => log.getByRole('row').filter({ hasText: 'Completed' }).count(), { timeout: 10_000 })
      .toBeGreaterThan(0);
    expect(await log.getByRole('row').nth(1).textContent()).toContain(DEMO.researcher.username);
  });
});
