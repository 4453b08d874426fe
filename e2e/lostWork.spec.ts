import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it, onTestFinished } from 'vitest';
import { api, DEMO, login, setupBrowser, tokenFor } from './fixtures.ts';

/**
 * No typed word lost: every box with typed text is guarded like the artifact form, a local draft
 * survives what a guard cannot stop, an expired session is signed in again over the page, and an
 * invitation opened signed out survives the sign-in.
 */
const browser = setupBrowser();
const stamp = Date.now();
const SCREENSHOTS = path.resolve('e2e/screenshots');

interface Named {
  id: number;
  name: string;
}

/** A screenshot of what the window shows (a dialog or an offer over the page). */
async function shoot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}-${page.viewportSize()!.width}.png`) });
}

async function signedIn(email: string, viewport = { width: 1280, height: 900 }): Promise<Page> {
  const page = await browser.newPage('/login', viewport);
  await login(page, email);
  await page.waitForURL('**/dashboard');
  return page;
}

/**
 * This journey's own objects, so that the demo data other journeys read stays as seeded: two
 * artifacts of Tess's own, and a shared portfolio of its own (the PLC lead's, Tess a member)
 * holding her copies of them.
 */
async function arrange(label: string) {
  const tess = await tokenFor(DEMO.teacher.email);
  const portfolios = (await api<Named[]>('GET', '/portfolios', undefined, tess)).body;
  const forces = portfolios.find((p) => p.name === 'Forces and Motion')!;
  const lead = await tokenFor(DEMO.lead.email);
  const plc = await api<{ id: number }>('POST', '/shared-portfolios', { name: `${label} PLC ${stamp}`, topic: 'Drafts', structure: [] }, lead);
  expect(plc.status).toBe(200);
  onTestFinished(async () => {
    expect((await api('POST', `/shared-portfolios/${plc.body.id}/leave`, {}, tess)).status).toBe(200);
  });
  const me = (await api<{ id: number }>('GET', '/users/me', undefined, tess)).body;
  const invitation = await api<{ id: number }>('POST', '/invitations', { to: me.id, sharedPortfolio: plc.body.id }, lead);
  expect((await api('POST', `/invitations/${invitation.body.id}/accept`, undefined, tess)).status).toBe(200);
  const copies: number[] = [];
  for (const name of [`${label}: first ramp ${stamp}`, `${label}: second ramp ${stamp}`]) {
    const artifact = await api<{ id: number }>('POST', `/portfolios/${forces.id}/artifacts/responses`, { responses: { artifactName: name, learningGoal: 'Compare two ramps.' }, parkingLot: false }, tess);
    expect(artifact.status).toBe(200);
    const copy = await api<{ id: number }>('POST', `/artifacts/${artifact.body.id}/share`, { sharedPortfolioId: plc.body.id }, tess);
    expect(copy.status).toBe(200);
    copies.push(copy.body.id);
  }
  return { tess, plc: plc.body.id, first: copies[0]!, second: copies[1]! };
}

describe('a typed comment is guarded like the artifact form', () => {
  it('another row or a header link asks first; Stay keeps the text, Leave goes on', async () => {
    const { plc, first } = await arrange('Guard');
    const page = await signedIn(DEMO.teacher.email);
    await page.goto(`/shared-portfolios/${plc}/artifacts/${first}`);
    const box = page.getByLabel('Add a comment');
    const text = `A comment typed but not sent ${stamp}`;
    await box.fill(text);

    // Another row: the question; Stay keeps the text and the artifact.
    await page.getByRole('row', { name: /second ramp/ }).click();
    const question = page.getByRole('alertdialog', { name: 'Leave this page?' });
    await question.waitFor();
    await question.getByRole('button', { name: 'Stay on this page' }).click();
    await question.waitFor({ state: 'detached' });
    expect(new URL(page.url()).pathname).toBe(`/shared-portfolios/${plc}/artifacts/${first}`);
    expect(await box.inputValue()).toBe(text);

    // A header link: the question again; Leave without saving goes on.
    await page.getByRole('link', { name: 'PORTFOLIO DASHBOARD', exact: true }).click();
    await question.waitFor();
    expect(new URL(page.url()).pathname).toBe(`/shared-portfolios/${plc}/artifacts/${first}`);
    await question.getByRole('button', { name: 'Leave without saving' }).click();
    await page.waitForURL('**/dashboard');

    // Nothing typed: another row opens at once.
    await page.goto(`/shared-portfolios/${plc}/artifacts/${first}`);
    await page.getByLabel('Add a comment').waitFor();
    await page.getByRole('row', { name: /second ramp/ }).click();
    await page.waitForURL(`**/shared-portfolios/${plc}/artifacts/*`);
    await expect.poll(() => new URL(page.url()).pathname).not.toBe(`/shared-portfolios/${plc}/artifacts/${first}`);
    expect(await question.count()).toBe(0);
  });
});

describe('local drafts survive what a guard cannot stop', () => {
  for (const width of [1280, 390]) {
    it(`a typed comment survives a reload and is offered back; Restore puts it in the box (${width} px)`, async () => {
      const { plc, first } = await arrange(`Draft ${width}`);
      const page = await signedIn(DEMO.teacher.email, { width, height: width === 390 ? 844 : 900 });
      await page.goto(`/shared-portfolios/${plc}/artifacts/${first}`);
      const text = `Typed before the tab crashed ${stamp} ${width}`;
      await page.getByLabel('Add a comment').fill(text);
      // Reloading asks the browser's question; leaving anyway.
      page.on('dialog', (dialog) => void dialog.accept());
      await page.reload();
      const offer = page.getByRole('group', { name: 'Unsaved comment' });
      await offer.waitFor();
      expect(await offer.textContent()).toMatch(/Restore your unsaved text from \d\d:\d\d\?/);
      expect(await page.getByLabel('Add a comment').inputValue()).toBe('');
      await offer.scrollIntoViewIfNeeded();
      await shoot(page, 'draft-restore-offer');
      await offer.getByRole('button', { name: 'Restore' }).click();
      expect(await page.getByLabel('Add a comment').inputValue()).toBe(text);
      await offer.waitFor({ state: 'detached' });

      // Posted: the draft is gone, nothing is offered after another reload.
      await page.getByRole('button', { name: 'Post Comment' }).click();
      await page.getByRole('article', { name: 'Comment by Tess Teacher' }).filter({ hasText: text }).waitFor();
      await page.reload();
      await page.getByLabel('Add a comment').waitFor();
      await page.waitForTimeout(300);
      expect(await offer.count()).toBe(0);
      expect(await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('practicefolio.draft:')))).toEqual([]);
    });
  }

  it('Discard forgets the draft: nothing is offered again', async () => {
    const { plc, first } = await arrange('Discard');
    const page = await signedIn(DEMO.teacher.email);
    await page.goto(`/shared-portfolios/${plc}/artifacts/${first}`);
    await page.getByLabel('Add a comment').fill('A thought I will not keep');
    page.on('dialog', (dialog) => void dialog.accept());
    await page.reload();
    const offer = page.getByRole('group', { name: 'Unsaved comment' });
    await offer.getByRole('button', { name: 'Discard' }).click();
    await offer.waitFor({ state: 'detached' });
    expect(await page.getByLabel('Add a comment').inputValue()).toBe('');
    await page.reload();
    await page.getByLabel('Add a comment').waitFor();
    await page.waitForTimeout(300);
    expect(await offer.count()).toBe(0);
  });
});
