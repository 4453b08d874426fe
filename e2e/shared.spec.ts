import { parse } from 'csv-parse/sync';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { api, DEMO, login, outboxFor, setupBrowser, tokenFor, waitForResetLink } from './fixtures.ts';

const browser = setupBrowser();
const stamp = Date.now();
const portfolioName = `Light and Shadow PLC ${stamp}`;
const teamQuestion = 'Which grade could use this next?';
const newcomer = `invited.${stamp}@example.org`;

async function loggedIn(email: string, password: string = DEMO.password): Promise<Page> {
  const page = await browser.newPage('/login');
  await login(page, email, password);
  await page.waitForURL('**/dashboard');
  return page;
}

describe('a PLC at work', () => {
  let sharedId = 0;
  let copyPath = '';

  it('a PLC lead creates a shared portfolio with a team question and invites one teacher by e-mail and another by search', async () => {
    const page = await loggedIn(DEMO.lead.email);
    await page.goto('/shared-portfolios');
    await page.getByRole('link', { name: 'CREATE NEW SHARED PORTFOLIO' }).click();
    await page.waitForURL('**/shared-portfolios/new');
    await page.getByLabel('Shared Portfolio Name').fill(portfolioName);
    await page.getByLabel('PLC Name').fill('Sunrise Elementary');
    await page.getByRole('button', { name: 'Add Question' }).click();
    await page.getByRole('button', { name: 'SAVE' }).click();
    await page.getByText('You have 1 invalid question. Please add the required info and re-submit.').waitFor();
    await page.getByLabel('Text of team question 1').fill(teamQuestion);
    await page.getByLabel('Type of team question 1').selectOption({ label: 'Long Text' });
    await page.getByRole('button', { name: 'SAVE' }).click();
    await page.waitForURL(/\/shared-portfolios\/\d+$/);
    sharedId = Number(new URL(page.url()).pathname.split('/').pop());

    await page.goto(`/shared-portfolios/${sharedId}/edit`);
    await page.getByRole('button', { name: 'Edit Participants' }).click();
    const dialog = page.getByRole('dialog');
    const email = dialog.getByLabel('Email');
    await email.fill('teacher@exam');
    await dialog.getByRole('button', { name: /^Invite Tess Teacher/ }).click();
    await dialog.getByText('(Pending)').first().waitFor();
    await email.fill(newcomer);
    await dialog.getByRole('button', { name: 'Invite', exact: true }).click();
    await expect.poll(() => dialog.getByText('(Pending)').count()).toBe(2);
    expect(outboxFor(newcomer).length).toBe(1);
    expect(outboxFor(DEMO.teacher.email).some((m) => m.subject === 'Invitation to join a shared portfolio')).toBe(true);
  });

  it('the invited teachers accept; one copies an artifact and answers the team question', async () => {
    // The newcomer sets a password through the e-mailed link and accepts.
    const link = await waitForResetLink(newcomer);
    const fresh = await browser.newPage(new URL(link).pathname);
    await fresh.getByLabel('New Password', { exact: true }).fill('newcomer-pass-1');
    await fresh.getByLabel('Confirm New Password').fill('newcomer-pass-1');
    await fresh.getByRole('button', { name: 'SUBMIT' }).click();
    await fresh.waitForURL('**/dashboard');
    await fresh.getByRole('link', { name: portfolioName }).click();
    await fresh.getByRole('heading', { name: `Invitation to Join ${portfolioName}` }).waitFor();
    await fresh.getByRole('button', { name: 'Accept Invitation' }).click();
    await fresh.waitForURL('**/dashboard');

    const page = await loggedIn(DEMO.teacher.email);
    await page.getByRole('link', { name: portfolioName }).click();
    await page.getByRole('button', { name: 'Accept Invitation' }).click();
    await page.waitForURL('**/dashboard');

    const token = await tokenFor(DEMO.teacher.email);
    const portfolios = (await api<{ id: number; name: string }[]>('GET', '/portfolios', undefined, token)).body;
    const forces = portfolios.find((p) => p.name === 'Forces and Motion')!;
    const full = (
      await api<{ artifacts: { id: number; parkingLot: boolean; responses: { artifactName?: string } }[] }>(
        'GET',
        `/portfolios/${forces.id}`,
        undefined,
        token,
      )
    ).body;
    const ramp = full.artifacts.find((a) => a.responses.artifactName === 'Ramp races: predicting speed')!;
    await page.goto(`/my-portfolios/${forces.id}/artifacts/${ramp.id}`);
    await page.getByRole('link', { name: 'COPY TO' }).click();
    await page.getByRole('heading', { name: 'Copy Artifact' }).waitFor();
    await page.getByRole('radio', { name: portfolioName }).check();
    await page.getByRole('button', { name: 'COMPLETE COPY' }).click();
    await page.getByText('Successfully copied artifact').waitFor();
    await page.waitForURL(/\/shared-portfolios\/\d+\/artifacts\/\d+\/edit$/);
    copyPath = new URL(page.url()).pathname.replace(/\/edit$/, '');
    await page.getByRole('heading', { name: 'Team questions for shared portfolio' }).waitFor();
    await page.getByLabel(teamQuestion).fill('Seventh graders could graph distance against height.');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Successfully edited shared artifact').waitFor();
    await page.waitForURL((url) => url.pathname === copyPath);
    await page.getByText('Seventh graders could graph distance against height.').waitFor();
    const saved = await api<{ responses: Record<string, unknown> }>(
      'GET',
      `/shared-artifacts/${copyPath.split('/').pop()}`,
      undefined,
      token,
    );
    expect(JSON.stringify(saved.body.responses)).toContain('Seventh graders could graph distance against height.');
  });

  it('two members edit different questions at the same time: both changes are kept, without a dialog', async () => {
    const tess = await loggedIn(DEMO.teacher.email);
    const lee = await loggedIn(DEMO.lead.email);
    await tess.goto(`${copyPath}/edit`);
    await lee.goto(`${copyPath}/edit`);
    const leeTitle = lee.getByRole('textbox', { name: 'Artifact Name', exact: true });
    const title = `${await leeTitle.inputValue()}, revisited`;
    await tess.getByLabel(teamQuestion).fill('Tess: sixth grade, with ramps of two heights.');
    await leeTitle.fill(title);
    await tess.getByRole('button', { name: 'Save', exact: true }).click();
    await tess.getByText('Successfully edited shared artifact').waitFor();
    await lee.getByRole('button', { name: 'Save', exact: true }).click();
    await lee.getByText('Successfully edited shared artifact').waitFor();
    // Lee is told whose change to which question the save kept.
    await lee.getByText(`Saved with ${DEMO.teacher.username}'s changes to “${teamQuestion}”.`).waitFor();
    expect(await lee.getByRole('alertdialog').count()).toBe(0);
    await lee.waitForURL((url) => url.pathname === copyPath);
    const token = await tokenFor(DEMO.lead.email);
    const stored = await api<{ responses: Record<string, unknown> }>(
      'GET',
      `/shared-artifacts/${copyPath.split('/').pop()}`,
      undefined,
      token,
    );
    expect(stored.body.responses['artifactName']).toBe(title);
    expect(Object.values(stored.body.responses)).toContain('Tess: sixth grade, with ramps of two heights.');
  });

  it('two members edit the same question: the second chooses per field in the Edit Conflict dialog, and both versions are in the history', async () => {
    const artifactId = copyPath.split('/').pop();
    const tess = await loggedIn(DEMO.teacher.email);
    const lee = await loggedIn(DEMO.lead.email);
    await tess.goto(`${copyPath}/edit`);
    await lee.goto(`${copyPath}/edit`);
    const before = await tess.getByLabel(teamQuestion).inputValue();
    await tess.getByLabel(teamQuestion).fill('Tess: fifth grade, timing three ramps.');
    await tess.getByRole('textbox', { name: 'Artifact Name', exact: true }).fill('Ramps by Tess');
    await lee.getByLabel(teamQuestion).fill('Lee: fourth grade, as a first fair test.');
    await lee.getByRole('textbox', { name: 'Artifact Name', exact: true }).fill('Ramps by Lee');
    await tess.getByRole('button', { name: 'Save', exact: true }).click();
    await tess.getByText('Successfully edited shared artifact').waitFor();
    await lee.getByRole('button', { name: 'Save', exact: true }).click();
    const conflict = lee.getByRole('alertdialog', { name: 'Edit Conflict' });
    await conflict.waitFor();
    expect(await conflict.textContent()).toContain(
      `${DEMO.teacher.username} saved this artifact after you opened it, and you both changed these answers.`,
    );
    const team = conflict.getByRole('group', { name: teamQuestion });
    expect(await team.getByLabel(`${teamQuestion}: before`).textContent()).toBe(`Before${before}`);
    expect(await team.getByLabel(`${teamQuestion}: theirs`).textContent()).toContain('Tess: fifth grade');
    expect(await team.getByLabel(`${teamQuestion}: mine`).textContent()).toContain('Lee: fourth grade');
    for (const [width, height] of [
      [390, 844],
      [768, 1024],
      [1024, 768],
      [1280, 900],
    ] as const) {
      await lee.setViewportSize({ width, height });
      await lee.screenshot({ path: path.resolve(`e2e/screenshots/edit-conflict-${width}.png`) });
    }
    await lee.setViewportSize({ width: 1280, height: 900 });
    await conflict
      .getByRole('radiogroup', { name: 'Keep for Artifact Name' })
      .getByRole('radio', { name: 'Keep theirs' })
      .check();
    await team.getByRole('radio', { name: 'Edit' }).check();
    await conflict
      .getByRole('textbox', { name: `Your text for ${teamQuestion}` })
      .fill('Lee and Tess: fourth and fifth grade.');
    await conflict.getByRole('button', { name: 'Save', exact: true }).click();
    await lee.getByText('Successfully edited shared artifact').waitFor();
    await lee.waitForURL((url) => url.pathname === copyPath);
    await lee.getByText('Lee and Tess: fourth and fifth grade.').waitFor();

    // Both saves are versions: Tess's as she saved it, then Lee's with the choices made.
    const token = await tokenFor(DEMO.lead.email);
    const list = await api<{ items: { number: number; author: { name: string } | null; client: string }[] }>(
      'GET',
      `/shared-artifacts/${artifactId}/versions?limit=2`,
      undefined,
      token,
    );
    expect(list.status).toBe(200);
    const [leeVersion, tessVersion] = list.body.items;
    expect([leeVersion?.author?.name, tessVersion?.author?.name]).toEqual([DEMO.lead.username, DEMO.teacher.username]);
    expect([leeVersion?.client, tessVersion?.client]).toEqual(['web', 'web']);
    const version = async (n: number) =>
      (
        await api<{ responses: Record<string, unknown> }>(
          'GET',
          `/shared-artifacts/${artifactId}/versions/${n}`,
          undefined,
          token,
        )
      ).body.responses;
    const tessSaved = await version(tessVersion!.number);
    expect(tessSaved['artifactName']).toBe('Ramps by Tess');
    expect(Object.values(tessSaved)).toContain('Tess: fifth grade, timing three ramps.');
    const leeSaved = await version(leeVersion!.number);
    expect(leeSaved['artifactName']).toBe('Ramps by Tess');
    expect(Object.values(leeSaved)).toContain('Lee and Tess: fourth and fifth grade.');

    // The history shows the choice: Lee's version against Tess's, word by word.
    const history = lee.getByRole('region', { name: 'History' });
    await history.getByRole('button', { name: 'Show history' }).click();
    const changes = history.getByRole('region', {
      name: `Changes from version ${tessVersion!.number} to version ${leeVersion!.number}`,
    });
    await changes.locator('ins').first().waitFor();
    const added = (await changes.locator('ins').allTextContents()).join(' ');
    const removed = (await changes.locator('del').allTextContents()).join(' ');
    expect(added).toContain('Lee');
    expect(added).toContain('fourth');
    expect(removed).toContain('timing');
    expect(removed).toContain('ramps');
    expect(await changes.textContent()).not.toContain('Artifact Name');
  });

  it('the mobile app on a phone and the web edit the same shared artifact: neither overwrites the other unseen', async () => {
    const [, , spId, , artifactId] = copyPath.split('/');
    const nested = `/shared-portfolios/${spId}/shared-artifacts/${artifactId}`;
    const lee = await loggedIn(DEMO.lead.email);
    await lee.goto(`${copyPath}/edit`);
    await lee.getByLabel(teamQuestion).fill('Lee: from the web, a fourth-grade version.');

    // Tess on her phone, as the app does it: the gate check with her copy's version, then the save without updated_at.
    const tess = await tokenFor(DEMO.teacher.email);
    const current = await api<{ updated_at: string; structure: { key: string; text: string }[] }>(
      'GET',
      `/shared-artifacts/${artifactId}`,
      undefined,
      tess,
    );
    const teamKey = current.body.structure.find((q) => q.text === teamQuestion)!.key;
    const gate = await api<{ type: string }>(
      'GET',
      `${nested}/gate-check?updated_at=${Date.parse(current.body.updated_at)}`,
      undefined,
      tess,
    );
    expect(gate.body.type).toBe('ok');
    const phoneSave = await api(
      'PUT',
      `${nested}/responses`,
      { responses: { [teamKey]: 'Tess: from the phone, on the bus.' } },
      tess,
    );
    expect(phoneSave.status).toBe(200);

    // The web save comes later: both changed the team answer, so the Edit Conflict dialog asks; never a silent overwrite.
    await lee.getByRole('button', { name: 'Save', exact: true }).click();
    const conflict = lee.getByRole('alertdialog', { name: 'Edit Conflict' });
    await conflict.waitFor();
    expect(await conflict.getByLabel(`${teamQuestion}: theirs`).textContent()).toContain('Tess: from the phone');
    await conflict.getByRole('radio', { name: 'Keep mine' }).check();
    await conflict.getByRole('button', { name: 'Save', exact: true }).click();
    await lee.getByText('Successfully edited shared artifact').waitFor();

    // The phone saves again without opening the artifact anew: refused (409), the web's text stays.
    const stale = await api(
      'PUT',
      `${nested}/responses`,
      { responses: { [teamKey]: 'Tess: once more from the phone.' } },
      tess,
    );
    expect(stale.status).toBe(409);
    const stored = await api<{ responses: Record<string, unknown> }>(
      'GET',
      `/shared-artifacts/${artifactId}`,
      undefined,
      tess,
    );
    expect(stored.body.responses[teamKey]).toBe('Lee: from the web, a fourth-grade version.');
  });

  it('members comment and react; a member leaves; a researcher exports the shared CSV', async () => {
    const tess = await loggedIn(DEMO.teacher.email);
    await tess.goto(copyPath);
    const comment = tess.getByLabel('Add a comment');
    await comment.fill('Our class tried this with toy trucks.');
    await tess.getByText('37/2500 characters used').waitFor();
    await tess.getByRole('button', { name: 'Post Comment' }).click();
    await tess
      .getByRole('article', { name: `Comment by ${DEMO.teacher.username}` })
      .getByText('Our class tried this with toy trucks.')
      .waitFor();
    await tess.getByRole('button', { name: 'Add reaction' }).click();
    await tess.getByRole('dialog', { name: 'ADD REACTION' }).getByRole('button', { name: 'Exemplar' }).click();
    await tess.getByRole('button', { name: 'Exemplar, 1' }).waitFor();
    expect(await tess.getByRole('button', { name: 'Exemplar, 1' }).getAttribute('aria-pressed')).toBe('true');

    const lee = await loggedIn(DEMO.lead.email);
    await lee.goto(copyPath);
    await lee.getByRole('article', { name: `Comment by ${DEMO.teacher.username}` }).waitFor();
    // Only the author may change a comment.
    expect(
      await lee
        .getByRole('article', { name: `Comment by ${DEMO.teacher.username}` })
        .getByRole('button', { name: 'Delete comment' })
        .count(),
    ).toBe(0);
    await lee.getByRole('button', { name: 'Exemplar, 1' }).click();
    await lee.getByRole('button', { name: 'Exemplar, 2' }).waitFor();

    // Tess leaves; the portfolio disappears from her list.
    await tess.goto(`/shared-portfolios/${sharedId}`);
    await tess.getByRole('button', { name: 'Leave' }).click();
    const confirm = tess.getByRole('alertdialog');
    expect(await confirm.textContent()).toContain(
      'Are you sure you want to end your membership in this Shared Portfolio? You will no longer be able to access artifacts or see comments uploaded to the portfolio.',
    );
    await confirm.getByRole('button', { name: 'YES' }).click();
    await tess.waitForURL((url) => url.pathname === '/shared-portfolios');
    const token = await tokenFor(DEMO.teacher.email);
    expect((await api('GET', `/shared-portfolios/${sharedId}`, undefined, token)).status).toBe(404);

    const rita = await loggedIn(DEMO.researcher.email);
    await rita.goto('/shared-portfolios');
    const [download] = await Promise.all([
      rita.waitForEvent('download'),
      rita.getByRole('link', { name: 'Export shared portfolios summary' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('shared portfolios.csv');
    const text = Buffer.concat((await (await download.createReadStream()).toArray()) as Buffer[]).toString('utf8');
    const [header, ...rows] = parse(text) as string[][];
    // The spec's 18 columns first, in their order; ids and text columns for research follow.
    expect(header!.slice(0, 18)).toEqual([
      'Shared Portfolio',
      'Owner',
      'Teachers Who Submitted Artifacts',
      'Artifacts',
      'Artifacts with Bonus Questions Answered',
      'Artifacts with Documents',
      'Artifacts with Images',
      'Artifacts with Videos',
      'Documents',
      'Images',
      'Videos',
      'Teachers Who Commented or Reacted',
      'Comments',
      'Reactions',
      'Tag Reactions',
      'Star Reactions',
      'Bridge Reactions',
      'Question Reactions',
    ]);
    const row = rows.find((r) => r[0] === portfolioName)!;
    expect(row.slice(1, 11)).toEqual([DEMO.lead.email, DEMO.teacher.email, '1', '1', '0', '1', '0', '0', '1', '0']);
    expect(row.slice(12, 18)).toEqual(['1', '2', '0', '2', '0', '0']);
  });
});
