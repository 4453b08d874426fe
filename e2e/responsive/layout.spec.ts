import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { animationsDone, DEMO, findDemo, layoutSettled, login, type DemoPlaces as Demo } from '../fixtures.ts';
import { resize, settle, setupResponsive, shoot } from './support.ts';

/**
 * Layout and feedback on a fresh install, at a phone's width and a laptop's: the demo data as
 * seeded, errors next to what caused them, toasts that cover nothing, tables and words that fit.
 */
const { browser, signedIn } = setupResponsive();

/** How many messages the toaster shows. */
const toastCount = (page: Page): Promise<number> =>
  page.getByRole('region', { name: 'Notifications' }).locator('[role="status"], [role="alert"]').count();

/** No message of the toaster lies over `target` (by their boxes). */
async function expectNoToastOver(page: Page, target: Locator, what: string): Promise<void> {
  const box = (await target.boundingBox())!;
  const toasts = await page
    .getByRole('region', { name: 'Notifications' })
    .locator('[role="status"], [role="alert"]')
    .all();
  for (const toast of toasts) {
    const t = await toast.boundingBox();
    if (!t) continue;
    const apart =
      t.x + t.width <= box.x || box.x + box.width <= t.x || t.y + t.height <= box.y || box.y + box.height <= t.y;
    expect(apart, `a toast (${JSON.stringify(t)}) covers ${what} (${JSON.stringify(box)})`).toBe(true);
  }
}

/** At this width every cell, control and message of the tables lies within the window, and no table scrolls sideways. */
async function expectTablesInView(page: Page, where: string): Promise<void> {
  await settle(page);
  const problems = await page.evaluate(() => {
    const found: string[] = [];
    for (const table of document.querySelectorAll('main table')) {
      const scroller = table.parentElement!;
      // The coverage heat map is a two-dimensional grid: it scrolls within its own frame, which
      // stays within the window (its cells are reached by the arrow keys and scrolled into view).
      if (scroller.hasAttribute('data-two-dimensional')) {
        const frame = scroller.getBoundingClientRect();
        if (frame.left < -1 || frame.right > window.innerWidth + 1)
          found.push(`the heat map's frame is out of view (${Math.round(frame.left)}–${Math.round(frame.right)})`);
        continue;
      }
      if (scroller.scrollWidth > scroller.clientWidth + 1)
        found.push(
          `a table scrolls sideways (${scroller.scrollWidth} > ${scroller.clientWidth}): ${table.querySelector('caption')?.textContent ?? ''}`,
        );
      for (const el of table.querySelectorAll(
        'tbody td, tbody td input, tbody td select, tbody td button, tbody td textarea, tbody td [role="switch"], tbody td p',
      )) {
        const r = el.getBoundingClientRect();
        if (r.width === 0 || r.height === 0) continue;
        if (r.left < -1 || r.right > window.innerWidth + 1)
          found.push(
            `${el.tagName.toLowerCase()} "${(el.textContent ?? '').trim().slice(0, 30)}" out of view (${Math.round(r.left)}–${Math.round(r.right)})`,
          );
      }
    }
    return found;
  });
  expect(problems, `${where}:\n${problems.join('\n')}`).toEqual([]);
}

/** No word of these elements is broken over two lines. */
async function expectWholeWords(locator: Locator, what: string): Promise<void> {
  const broken = await locator.evaluateAll((elements) =>
    elements.flatMap((el) => {
      const text = el.firstChild && el.firstChild.nodeType === Node.TEXT_NODE ? (el.firstChild as Text) : null;
      if (!text) return [];
      const out: string[] = [];
      let at = 0;
      for (const word of text.data.split(/(\s+)/)) {
        if (word.trim() !== '') {
          const range = document.createRange();
          range.setStart(text, at);
          range.setEnd(text, at + word.length);
          const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
          if (lines.size > 1) out.push(word);
        }
        at += word.length;
      }
      return out;
    }),
  );
  expect(broken, `${what}: words broken mid-word`).toEqual([]);
}

describe('layout and feedback on a fresh install (demo data, errors, toasts, phone tables, targets, words)', () => {
  let demo: Demo;
  beforeAll(async () => {
    demo = await findDemo();
  });

  it('the demo data: the PLC copy of "Ramp races" is listed under Shared to on its original', async () => {
    const page = await signedIn(DEMO.teacher.email);
    for (const width of [390, 1280] as const) {
      await resize(page, width);
      await page.goto(`/my-portfolios/${demo.forces}/artifacts/${demo.ramp}`);
      const shares = page.getByRole('region', { name: 'Shared to' });
      // Journeys that ran before may have copied this artifact again and commented on its copies:
      // the demo's own copy is the oldest share (listed last), seeded with two comments.
      const demoShare = shares
        .getByRole('listitem')
        .filter({ has: page.getByRole('link', { name: 'Grades 5–7 Science PLC', exact: true }) })
        .last();
      const counted = demoShare.getByText(/^Shared on .* · \d+ comments?$/);
      await counted.waitFor();
      const comments = Number(/(\d+) comments?$/.exec((await counted.textContent()) ?? '')?.[1]);
      expect(comments).toBeGreaterThanOrEqual(2);
      expect(
        await demoShare
          .getByRole('list', { name: 'Latest comments in Grades 5–7 Science PLC' })
          .getByRole('listitem')
          .count(),
      ).toBe(Math.min(comments, 3));
      await settle(page);
      await shoot(page, 'teacher-artifact-shared-to');
    }
  });

  it('errors next to what caused them: the login error under the form, an error summary on Create Shared Portfolio; no toast covers SAVE', async () => {
    const page = await browser.newPage('/login');
    for (const width of [390, 1280] as const) {
      await resize(page, width);
      await page.goto('/login');
      await page.getByLabel('Email').fill(DEMO.teacher.email);
      await page.getByLabel('Password', { exact: true }).fill('not-the-password');
      await page.getByRole('button', { name: 'LOGIN' }).click();
      const failure = page.locator('form').getByRole('alert');
      await failure.getByText('Incorrect email or password.').waitFor();
      const login = (await page.getByRole('button', { name: 'LOGIN' }).boundingBox())!;
      const under = (await failure.boundingBox())!;
      expect(under.y, 'the error right under LOGIN').toBeGreaterThanOrEqual(login.y + login.height);
      expect(under.y - (login.y + login.height)).toBeLessThan(60);
      expect(await toastCount(page), 'no toast for a form error').toBe(0);
      await shoot(page, 'login-error');
    }

    await login(page, DEMO.lead.email);
    for (const width of [390, 1280] as const) {
      await resize(page, width);
      await page.goto('/shared-portfolios/new');
      await page.getByRole('heading', { level: 1, name: /Shared Portfolio/ }).waitFor();
      await page.getByRole('button', { name: 'Add Question' }).click();
      await page.getByRole('button', { name: 'SAVE' }).click();
      const summary = page.getByRole('alert', { name: 'There is a problem' });
      await summary.getByText('You have 1 invalid question. Please add the required info and re-submit.').waitFor();
      // The summary is at the top of the form, and each line takes the keyboard to its field.
      const form = (await page.locator('form').boundingBox())!;
      expect((await summary.boundingBox())!.y - form.y).toBeLessThan(40);
      await summary.getByRole('link', { name: 'Shared Portfolio Name: A name is required.' }).click();
      expect(await page.evaluate(() => document.activeElement?.id)).toBe(
        await page.getByLabel('Shared Portfolio Name').getAttribute('id'),
      );
      await summary
        .getByRole('link', { name: /^Team question 1: / })
        .first()
        .click();
      expect(
        await page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.id),
      ).toMatch(/-text$/);
      await page.getByRole('button', { name: 'SAVE' }).click();
      // Refused again: the keyboard goes to the first field to fix; a toast of the refusal would show by the next frames.
      const nameField = await page.getByLabel('Shared Portfolio Name').getAttribute('id');
      await page.waitForFunction((id) => document.activeElement?.id === id, nameField);
      await layoutSettled(page);
      await expectNoToastOver(page, page.getByRole('button', { name: 'SAVE' }), 'SAVE');
      expect(await toastCount(page), 'validation is not told in toasts').toBe(0);
      await shoot(page, 'lead-shared-portfolio-form-errors');
    }
  });

  it('phone tables keep every control and message in view: Manage Users, Questions, dashboard tables, the export log', async () => {
    const researcher = await signedIn(DEMO.researcher.email);
    for (const width of [390, 1280] as const) {
      await resize(researcher, width);
      await researcher.goto('/users');
      await researcher.getByRole('heading', { level: 1, name: 'Manage Users' }).waitFor();
      await researcher.getByRole('cell', { name: 'Theo Teacher' }).first().waitFor();
      await expectTablesInView(researcher, `Manage Users at ${width}`);
      await expectWholeWords(researcher.locator('main tbody td'), `Manage Users at ${width}`);
      await shoot(researcher, 'researcher-manage-users');
      await researcher.goto('/research-export');
      await researcher.getByRole('heading', { level: 1 }).first().waitFor();
      await expectTablesInView(researcher, `the research export at ${width}`);
      await shoot(researcher, 'researcher-export');
      await researcher.goto('/dashboard');
      await expectTablesInView(researcher, `the researcher's dashboard at ${width}`);
    }

    const teacher = await signedIn(DEMO.teacher.email);
    for (const width of [390, 1280] as const) {
      await resize(teacher, width);
      await teacher.goto('/dashboard');
      await teacher.getByRole('link', { name: 'Forces and Motion' }).first().waitFor();
      await expectTablesInView(teacher, `the teacher's dashboard at ${width}`);
      await expectWholeWords(teacher.locator('main thead th'), `the dashboard's headers at ${width}`);
      await shoot(teacher, 'teacher-dashboard-tables');
    }

    const lead = await signedIn(DEMO.lead.email);
    for (const width of [390, 1280] as const) {
      await resize(lead, width);
      await lead.goto('/shared-portfolios/new');
      await lead.getByRole('button', { name: 'Add Question' }).click();
      await lead.getByLabel('Type of team question 1').selectOption({ label: 'Single Selection' });
      await lead.getByRole('button', { name: 'SAVE' }).click();
      await lead.locator('main table').getByText('You must enter at least one choice.').waitFor();
      await expectTablesInView(lead, `the Questions table with errors at ${width}`);
      await shoot(lead, 'lead-questions-table');
    }
  });

  it('words: a clear message for a missing role, and removing a participant names them properly', async () => {
    const researcher = await signedIn(DEMO.researcher.email);
    await researcher.goto('/users');
    await researcher.getByRole('button', { name: 'Create New User' }).click();
    const dialog = researcher.getByRole('dialog');
    await dialog.getByLabel('Email').fill(`someone-${Date.now()}@example.org`);
    await dialog.getByLabel('User Name').fill('Someone New');
    await dialog.locator('button[type="submit"]').click();
    await dialog.getByText('Choose a role: Teacher, PLC Lead or Researcher.').waitFor();
    expect(await dialog.getByText(/with value/).count()).toBe(0);

    const lead = await signedIn(DEMO.lead.email);
    await lead.goto(`/shared-portfolios/${demo.plc}/edit`);
    await lead.getByRole('button', { name: 'Edit Participants' }).click();
    await lead.getByRole('button', { name: 'Remove Theo Teacher' }).click();
    const question = lead.getByRole('alertdialog');
    await question
      .getByText('Remove Theo Teacher from this shared portfolio? They will no longer see or comment on its artifacts.')
      .waitFor();
    await question.getByRole('button', { name: 'NO' }).click();
  });

  it('the archive is ready: its toast never covers Download', async () => {
    const page = await signedIn(DEMO.teacher.email);
    await resize(page, 390);
    await page.goto('/dashboard');
    const section = page.getByRole('region', { name: 'Download my archive' });
    await section.getByRole('button', { name: 'Prepare my archive' }).click();
    const download = section.getByRole('link', { name: /^Download the archive of / }).first();
    await download.waitFor({ timeout: 90_000 });
    await page.getByRole('region', { name: 'Notifications' }).getByText('Your archive is ready to download.').waitFor();
    await download.scrollIntoViewIfNeeded();
    await animationsDone(page);
    await expectNoToastOver(page, download, 'Download');
    // Also with Download at the bottom of the window, where the messages first go.
    await page.evaluate(() => {
      const link = [...document.querySelectorAll('a[download]')][0]!;
      window.scrollBy(0, link.getBoundingClientRect().bottom - window.innerHeight + 8);
    });
    await animationsDone(page);
    await expectNoToastOver(page, download, 'Download at the bottom');
    await shoot(page, 'teacher-archive-ready', false);
  });
});
