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

/** The texts of the local drafts the browser keeps (of every form). */
const draftTexts = (page: Page) =>
  page.evaluate(() =>
    Object.entries(localStorage)
      .filter(([key]) => key.startsWith('practicefolio.draft:'))
      .map(([, value]) => (JSON.parse(value) as { text: string }).text),
  );

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
  const plc = await api<{ id: number }>(
    'POST',
    '/shared-portfolios',
    { name: `${label} PLC ${stamp}`, topic: 'Drafts', structure: [] },
    lead,
  );
  expect(plc.status).toBe(200);
  onTestFinished(async () => {
    expect((await api('POST', `/shared-portfolios/${plc.body.id}/leave`, {}, tess)).status).toBe(200);
  });
  const me = (await api<{ id: number }>('GET', '/users/me', undefined, tess)).body;
  const invitation = await api<{ id: number }>(
    'POST',
    '/invitations',
    { to: me.id, sharedPortfolio: plc.body.id },
    lead,
  );
  expect((await api('POST', `/invitations/${invitation.body.id}/accept`, undefined, tess)).status).toBe(200);
  const copies: number[] = [];
  for (const name of [`${label}: first ramp ${stamp}`, `${label}: second ramp ${stamp}`]) {
    const artifact = await api<{ id: number }>(
      'POST',
      `/portfolios/${forces.id}/artifacts/responses`,
      { responses: { artifactName: name, learningGoal: 'Compare two ramps.' }, parkingLot: false },
      tess,
    );
    expect(artifact.status).toBe(200);
    const copy = await api<{ id: number }>(
      'POST',
      `/artifacts/${artifact.body.id}/share`,
      { sharedPortfolioId: plc.body.id },
      tess,
    );
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
      expect(await offer.textContent()).toMatch(/Restore your unsaved text from \d{1,2}:\d\d[ap]m\?/);
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
      // The offer is decided as the box opens and rendered with it: with the box shown, it would show.
      await page.getByLabel('Add a comment').waitFor();
      expect(await offer.count()).toBe(0);
      expect(
        await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('practicefolio.draft:'))),
      ).toEqual([]);
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
    // The offer is decided as the box opens and rendered with it: with the box shown, it would show.
    await page.getByLabel('Add a comment').waitFor();
    expect(await offer.count()).toBe(0);
  });
});

describe('an expired session is not a dead end', () => {
  for (const width of [1280, 390]) {
    it(`the session ends during an edit: Post asks to sign in over the page, then the comment is posted (${width} px)`, async () => {
      const { tess, plc, first } = await arrange(`Expiry ${width}`);
      const page = await signedIn(DEMO.teacher.email, { width, height: width === 390 ? 844 : 900 });
      await page.goto(`/shared-portfolios/${plc}/artifacts/${first}`);
      const text = `Typed while the session ran out ${stamp} ${width}`;
      const box = page.getByLabel('Add a comment');
      await box.fill(text);

      // The session ends: its cookies are gone.
      await page.context().clearCookies();
      await page.getByRole('button', { name: 'Post Comment' }).click();
      const dialog = page.getByRole('alertdialog', { name: 'Sign in again' });
      await dialog.waitFor();
      // The page and the text stay where they were.
      expect(new URL(page.url()).pathname).toBe(`/shared-portfolios/${plc}/artifacts/${first}`);
      expect(await box.inputValue()).toBe(text);
      expect(await dialog.getByLabel('Email').inputValue()).toBe(DEMO.teacher.email);

      // A wrong password: said in the dialog, which stays.
      await dialog.getByLabel('Password').fill('not-the-password');
      await dialog.getByRole('button', { name: 'Sign in' }).click();
      await dialog.getByRole('alert').filter({ hasText: 'Incorrect email or password.' }).waitFor();
      await dialog.getByLabel('Password').fill(DEMO.password);
      await shoot(page, 'session-expired-sign-in');
      await dialog.getByRole('button', { name: 'Sign in' }).click();
      await dialog.waitFor({ state: 'detached' });

      // The comment was posted once, with the typed text.
      await page.getByRole('article', { name: 'Comment by Tess Teacher' }).filter({ hasText: text }).waitFor();
      const stored = await api<{ comments: { text: string }[] }>('GET', `/shared-artifacts/${first}`, undefined, tess);
      expect(stored.body.comments.filter((c) => c.text === text)).toHaveLength(1);
      expect(new URL(page.url()).pathname).toBe(`/shared-portfolios/${plc}/artifacts/${first}`);
    });
  }

  it('Go to the sign-in page: signed in there, the user is back on the page and the draft is offered', async () => {
    const { plc, first } = await arrange('Gave up');
    const page = await signedIn(DEMO.teacher.email);
    await page.goto(`/shared-portfolios/${plc}/artifacts/${first}`);
    const text = `Kept through a sign-in on the sign-in page ${stamp}`;
    await page.getByLabel('Add a comment').fill(text);
    // Kept as a draft once the typing pauses.
    await expect.poll(() => draftTexts(page)).toContain(text);
    await page.context().clearCookies();
    await page.getByRole('button', { name: 'Post Comment' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Sign in again' });
    await dialog.getByRole('button', { name: 'Go to the sign-in page' }).click();
    await page.waitForURL('**/login');
    await login(page, DEMO.teacher.email);
    await page.waitForURL(`**/shared-portfolios/${plc}/artifacts/${first}`);
    const offer = page.getByRole('group', { name: 'Unsaved comment' });
    await offer.getByRole('button', { name: 'Restore' }).click();
    expect(await page.getByLabel('Add a comment').inputValue()).toBe(text);
  });
});

describe('an invitation link opened signed out', () => {
  it('goes to the sign-in page, which says why; after signing in the invitation opens, not Home', async () => {
    const tess = await tokenFor(DEMO.teacher.email);
    const lead = await tokenFor(DEMO.lead.email);
    const plc = await api<{ id: number }>(
      'POST',
      '/shared-portfolios',
      { name: `Invited PLC ${stamp}`, topic: 'Invitations', structure: [] },
      lead,
    );
    const me = (await api<{ id: number }>('GET', '/users/me', undefined, tess)).body;
    const invitation = await api<{ id: number }>(
      'POST',
      '/invitations',
      { to: me.id, sharedPortfolio: plc.body.id },
      lead,
    );
    expect(invitation.status).toBe(200);
    // Declined when the journey is over, so that Tess's pending invitations are as seeded.
    onTestFinished(async () => {
      await api('DELETE', `/invitations/${invitation.body.id}`, undefined, tess);
    });

    const page = await browser.newPage(`/invitation/${invitation.body.id}`);
    await page.waitForURL('**/login');
    await page.getByText('Log in to see your invitation to a shared portfolio').waitFor();
    await login(page, DEMO.teacher.email);
    await page.waitForURL(`**/invitation/${invitation.body.id}`);
    await page.getByText(`Invited PLC ${stamp}`).first().waitFor();
  });
});
