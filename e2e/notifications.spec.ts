import { describe, expect, it, onTestFinished } from 'vitest';
import type { Page } from 'playwright-core';
import { api, DEMO, login, outboxFor, setupBrowser, tokenFor } from './fixtures.ts';

const browser = setupBrowser();
const stamp = Date.now();

interface Named {
  id: number;
  name: string;
}
type Preferences = { email: Record<string, string> };

async function loggedIn(email: string): Promise<Page> {
  const page = await browser.newPage('/login');
  await login(page, email);
  await page.waitForURL('**/dashboard');
  return page;
}

/**
 * This journey's own objects, so that the demo data other journeys read stays as seeded: an artifact
 * of its own in Tess's "Forces and Motion", and a shared portfolio of its own (the PLC lead's, Tess
 * and Theo members) holding Tess's copy of it, in which Theo comments.
 */
async function arrange(tessToken: string) {
  const portfolios = (await api<Named[]>('GET', '/portfolios', undefined, tessToken)).body;
  const forces = portfolios.find((p) => p.name === 'Forces and Motion');
  if (!forces) throw new Error('No demo portfolio');
  const responses = {
    artifactName: `Notified: two cars on a ramp ${stamp}`,
    learningGoal: 'Students compare how two cars roll down the same ramp.',
  };
  const artifact = await api<{ id: number }>(
    'POST',
    `/portfolios/${forces.id}/artifacts/responses`,
    { responses, parkingLot: false },
    tessToken,
  );
  expect(artifact.status).toBe(200);

  const lead = await tokenFor(DEMO.lead.email);
  const plc = await api<{ id: number }>(
    'POST',
    '/shared-portfolios',
    { name: `Notifications PLC ${stamp}`, topic: 'Feedback', structure: [] },
    lead,
  );
  expect(plc.status).toBe(200);
  const members = [tessToken, await tokenFor(DEMO.teacher2.email)];
  // Tess and Theo leave it when the journey is over, so that their lists of shared portfolios are as seeded.
  onTestFinished(async () => {
    for (const token of members)
      expect((await api('POST', `/shared-portfolios/${plc.body.id}/leave`, {}, token)).status).toBe(200);
  });
  for (const token of members) {
    const me = (await api<{ id: number }>('GET', '/users/me', undefined, token)).body;
    const invitation = await api<{ id: number }>(
      'POST',
      '/invitations',
      { to: me.id, sharedPortfolio: plc.body.id },
      lead,
    );
    expect(invitation.status).toBe(200);
    expect((await api('POST', `/invitations/${invitation.body.id}/accept`, undefined, token)).status).toBe(200);
  }
  const copy = await api<{ id: number }>(
    'POST',
    `/artifacts/${artifact.body.id}/share`,
    { sharedPortfolioId: plc.body.id },
    tessToken,
  );
  expect(copy.status).toBe(200);
  return { plc: plc.body.id, ramp: copy.body.id };
}

const bellOf = (page: Page) => page.getByRole('banner').getByRole('button', { name: /^Notifications/ });

describe('notifications: page weight', () => {
  it('/login loads no notification code; a signed-in page loads the bell (with the user menu) after the shell', async () => {
    const page = await browser.newPage('about:blank');
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    await page.goto('/login');
    await page.getByRole('button', { name: 'LOGIN' }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(scripts.length).toBeGreaterThan(0);
    expect(scripts.filter((file) => /otification|Mention|Unsubscribe|AccountTools/.test(file))).toEqual([]);
    await login(page, DEMO.teacher.email);
    await bellOf(page).waitFor();
    // The signed-in end of the header bar, bell and user menu in one chunk (decision 042).
    expect(scripts.some((file) => /\/AccountTools-[^/]+\.js$/.test(file))).toBe(true);
  });
});

describe('notifications: feedback reaches the teacher', () => {
  it('teacher2 comments → the teacher’s bell rises without a reload, the item opens the comment; the e-mail’s links work, signed out too', async () => {
    const tessToken = await tokenFor(DEMO.teacher.email);
    const { plc, ramp } = await arrange(tessToken);
    const place = `/shared-portfolios/${plc}/artifacts/${ramp}`;
    const unreadBefore = (await api<{ unread: number }>('GET', '/notifications/unread', undefined, tessToken)).body
      .unread;
    const mailsBefore = outboxFor(DEMO.teacher.email).length;

    // Tess is on her dashboard; the bell shows her count, kept live by the event stream.
    const tess = await loggedIn(DEMO.teacher.email);
    const bell = bellOf(tess);
    await expect
      .poll(() => bell.getAttribute('aria-label'))
      .toBe(unreadBefore > 0 ? `Notifications, ${unreadBefore} unread` : 'Notifications');
    // A mark that a reload would wipe out.
    await tess.evaluate(() => Object.assign(window, { __notReloaded: true }));

    // Theo comments on Tess's shared artifact, mentioning her: the suggestions hold the PLC's members only.
    const theo = await loggedIn(DEMO.teacher2.email);
    await theo.goto(place);
    const text = `Tried your ramps with two cars ${stamp}`;
    const box = theo.getByLabel('Add a comment');
    await box.fill(`${text} — `);
    await box.pressSequentially('@Te');
    const suggestions = theo.getByRole('listbox', { name: 'Mention a member' });
    await expect.poll(() => suggestions.getByRole('option').allTextContents()).toEqual(['@Tess Teacher']);
    await box.press('Enter');
    await box.pressSequentially('what do you think?');
    expect(await box.inputValue()).toBe(`${text} — @Tess Teacher what do you think?`);
    await theo.getByRole('button', { name: 'Post Comment' }).click();
    await theo.getByRole('article', { name: 'Comment by Theo Teacher' }).filter({ hasText: text }).waitFor();

    // Tess's bell rises on the same page, without a reload.
    await expect
      .poll(() => bell.getAttribute('aria-label'), { timeout: 15_000 })
      .toBe(`Notifications, ${unreadBefore + 1} unread`);
    expect(await tess.evaluate(() => (window as unknown as { __notReloaded?: boolean }).__notReloaded)).toBe(true);
    expect(new URL(tess.url()).pathname).toBe('/dashboard');

    // She opens the item and lands on the comment, highlighted and in view.
    await bell.click();
    const panel = tess.getByRole('dialog', { name: 'Notifications' });
    const item = panel.getByRole('link', { name: /Theo Teacher/ }).first();
    await item.waitFor();
    expect(await item.getAttribute('data-unread')).toBe('true');
    await item.click();
    await tess.waitForURL((url) => url.pathname === place && /^#comment-\d+$/.test(url.hash));
    const commentId = new URL(tess.url()).hash.slice(1);
    const comment = tess.locator(`#${commentId}`);
    await expect.poll(() => comment.getAttribute('aria-current')).toBe('true');
    expect(await comment.textContent()).toContain(text);
    await expect
      .poll(() =>
        comment.evaluate(
          (el) => el.getBoundingClientRect().top >= 0 && el.getBoundingClientRect().top < window.innerHeight,
        ),
      )
      .toBe(true);
    // Read now: the count goes back down.
    await expect
      .poll(() => bell.getAttribute('aria-label'))
      .toBe(unreadBefore > 0 ? `Notifications, ${unreadBefore} unread` : 'Notifications');

    // An e-mail arrived at once, with a working link to the comment.
    // (The invitations of the arranging steps may have mailed her too: waited for is the mail about the comment.)
    await expect
      .poll(
        () =>
          outboxFor(DEMO.teacher.email)
            .slice(mailsBefore)
            .some((m) => m.text.includes(`${place}#${commentId}`)),
        { timeout: 15_000 },
      )
      .toBe(true);
    const mails = outboxFor(DEMO.teacher.email).slice(mailsBefore);
    const mail = mails.find((m) => m.text.includes(`${place}#${commentId}`));
    expect(mail, `an e-mail linking to the comment among: ${mails.map((m) => m.text).join('\n====\n')}`).toBeDefined();
    expect(mail!.text).toContain('Theo Teacher');
    const link = new URL(/https?:\/\/\S+#comment-\d+/.exec(mail!.text)![0]);
    const fromMail = await loggedIn(DEMO.teacher.email);
    await fromMail.goto(`${link.pathname}${link.hash}`);
    const mailed = fromMail.locator(`#${commentId}`);
    await expect.poll(() => mailed.getAttribute('aria-current')).toBe('true');
    expect(await mailed.textContent()).toContain(text);

    // Its unsubscribe link works signed out and names what it turned off.
    const unsubscribe = /https?:\/\/\S+\/unsubscribe\?token=[^\s"<>]+/.exec(mail!.text);
    expect(unsubscribe, 'an unsubscribe link in the e-mail').not.toBeNull();
    const settings = (await api<Preferences>('GET', '/notification-preferences', undefined, tessToken)).body;
    const signedOut = await browser.newPage(new URL(unsubscribe![0]).pathname + new URL(unsubscribe![0]).search);
    await signedOut.getByRole('heading', { name: 'You are unsubscribed' }).waitFor();
    expect(await signedOut.getByText(/^You will no longer receive e-mail about/).textContent()).toMatch(
      / at t\*+@example\.org\.$/,
    );
    const after = (await api<Preferences>('GET', '/notification-preferences', undefined, tessToken)).body;
    expect(Object.values(after.email)).toContain('off');
    // Tess's settings as they were, for the journeys that follow.
    expect((await api('PUT', '/notification-preferences', settings, tessToken)).status).toBe(200);
  });
});
