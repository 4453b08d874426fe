import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it, onTestFinished } from 'vitest';
import { api, DEMO, login, setupBrowser, tokenFor } from './fixtures.ts';

/**
 * Local drafts of the forms with many fields: the artifact form and the shared-portfolio form
 * keep what is typed in the browser, so a reload (which no guard can stop) loses nothing: the
 * form opens again with "Restore your unsaved text from 10:42am?", Restore puts the answers back,
 * and saving forgets the draft.
 */
const browser = setupBrowser();
const stamp = Date.now();
const SCREENSHOTS = path.resolve('e2e/screenshots');

const viewport = (width: number) => ({ width, height: width === 390 ? 844 : 900 });

async function signedIn(email: string, width: number): Promise<Page> {
  const page = await browser.newPage('/login', viewport(width));
  await login(page, email);
  await page.waitForURL('**/dashboard');
  return page;
}

/** Reloads as a crash or a closed tab would end the page: the browser's own question is answered "leave". */
async function reload(page: Page): Promise<void> {
  page.on('dialog', (dialog) => void dialog.accept());
  await page.reload();
}

/** The offer, in view, photographed as the window shows it. */
async function shootOffer(page: Page, offer: ReturnType<Page['getByRole']>, name: string): Promise<void> {
  await offer.scrollIntoViewIfNeeded();
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}-${page.viewportSize()!.width}.png`) });
}

const draftKeys = (page: Page) =>
  page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('practicefolio.draft:')));

describe('the artifact form keeps a local draft', () => {
  for (const width of [1280, 390]) {
    it(`answers typed survive a reload: offered back, restored and saved (${width} px)`, async () => {
      const tess = await tokenFor(DEMO.teacher.email);
      const portfolios = (await api<{ id: number; name: string }[]>('GET', '/portfolios', undefined, tess)).body;
      const forces = portfolios.find((p) => p.name === 'Forces and Motion')!;
      const name = `Draft journey ${stamp} ${width}`;
      const created = await api<{ id: number }>(
        'POST',
        `/portfolios/${forces.id}/artifacts/responses`,
        { responses: { artifactName: name, learningGoal: 'Compare two ramps.' }, parkingLot: false },
        tess,
      );
      expect(created.status).toBe(200);
      onTestFinished(async () => {
        await api('DELETE', `/artifacts/${created.body.id}`, undefined, tess);
      });

      const page = await signedIn(DEMO.teacher.email, width);
      const edit = `/my-portfolios/${forces.id}/artifacts/${created.body.id}/edit`;
      await page.goto(edit);
      const typed = `Try the carpet ramp next (${width} px).`;
      await page.getByLabel('What would you do next, or differently?').fill(typed);
      await reload(page);

      const offer = page.getByRole('group', { name: 'Unsaved answers' });
      await offer.waitFor();
      expect(await offer.textContent()).toMatch(/Restore your unsaved text from \d{1,2}:\d\d[ap]m\?/);
      // Nothing goes into the form before the user says so.
      expect(await page.getByLabel('What would you do next, or differently?').inputValue()).toBe('');
      await shootOffer(page, offer, 'draft-artifact-offer');
      await offer.getByRole('button', { name: 'Restore' }).click();
      await offer.waitFor({ state: 'detached' });
      expect(await page.getByLabel('What would you do next, or differently?').inputValue()).toBe(typed);

      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.waitForURL(`**/my-portfolios/${forces.id}/artifacts/${created.body.id}`);
      const saved = await api<{ responses: Record<string, unknown> }>(
        'GET',
        `/artifacts/${created.body.id}`,
        undefined,
        tess,
      );
      expect(saved.body.responses['nextSteps']).toBe(typed);
      // Saved: the draft is gone; the form opens again without an offer.
      // Forgotten when the form goes away, which may wait for the next page's code to arrive.
      await expect.poll(() => draftKeys(page)).toEqual([]);
      await page.goto(edit);
      // The offer is decided as the form opens and rendered with its fields: with a field shown, it would show.
      await page.getByLabel('What would you do next, or differently?').waitFor();
      expect(await offer.count()).toBe(0);
    });
  }
});

describe('the shared-portfolio form keeps a local draft', () => {
  for (const width of [1280, 390]) {
    it(`a new shared portfolio typed survives a reload: offered back, restored and saved (${width} px)`, async () => {
      const lead = await tokenFor(DEMO.lead.email);
      const page = await signedIn(DEMO.lead.email, width);
      await page.goto('/shared-portfolios/new');
      const name = `Drafted PLC ${stamp} ${width}`;
      const goals = 'Compare how each class explains friction.';
      await page.getByLabel('Shared Portfolio Name').fill(name);
      await page.getByLabel('PLC Goals for Shared Portfolio').fill(goals);
      await reload(page);

      const offer = page.getByRole('group', { name: 'Unsaved shared portfolio' });
      await offer.waitFor();
      expect(await offer.textContent()).toMatch(/Restore your unsaved text from \d{1,2}:\d\d[ap]m\?/);
      expect(await page.getByLabel('Shared Portfolio Name').inputValue()).toBe('');
      await shootOffer(page, offer, 'draft-shared-portfolio-offer');
      await offer.getByRole('button', { name: 'Restore' }).click();
      await offer.waitFor({ state: 'detached' });
      expect(await page.getByLabel('Shared Portfolio Name').inputValue()).toBe(name);
      expect(await page.getByLabel('PLC Goals for Shared Portfolio').inputValue()).toBe(goals);

      await page.getByRole('button', { name: 'SAVE' }).click();
      await page.waitForURL(/\/shared-portfolios\/\d+$/);
      const id = Number(new URL(page.url()).pathname.split('/').pop());
      onTestFinished(async () => {
        await api('DELETE', `/shared-portfolios/${id}`, undefined, lead);
      });
      const saved = await api<{ name: string; plcGoals: string | null }>(
        'GET',
        `/shared-portfolios/${id}`,
        undefined,
        lead,
      );
      expect(saved.body).toMatchObject({ name, plcGoals: goals });
      // Forgotten when the form goes away, which may wait for the next page's code to arrive.
      await expect.poll(() => draftKeys(page)).toEqual([]);
    });
  }
});
