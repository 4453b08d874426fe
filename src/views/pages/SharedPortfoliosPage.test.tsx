import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SharedPortfolio } from '../../schemas/sharedPortfolio.ts';
import type { Me } from '../../schemas/user.ts';
import { signOut } from '../../services/session.ts';
import { artifactsGrid, BASIC_STRUCTURE, rowNames } from '../../test/portfolioHarness.tsx';
import {
  accounts,
  badRequest,
  detailPane,
  FakeSharedApi,
  makeComment,
  makeReaction,
  makeSharedArtifact,
  makeSharedPortfolio,
  people,
  renderSharedPortfolios,
  TEAM_QUESTION,
} from '../../test/sharedHarness.tsx';
import { clearToasts } from '../feedback/toastStore.ts';
import { exportNote } from '../shared/browser/SharedPortfolioSummary.tsx';

afterEach(() => {
  clearToasts();
  signOut();
});

const PLC = 9;
const LEAVE_TEXT =
  'Are you sure you want to end your membership in this Shared Portfolio? You will no longer be able to access artifacts or see comments uploaded to the portfolio.';

function plc(): SharedPortfolio {
  const base = { sharedPortfolio: { id: PLC } };
  return makeSharedPortfolio({
    id: PLC,
    members: [people.lee, people.tess, people.theo],
    sharedArtifacts: [
      makeSharedArtifact({
        ...base,
        id: 70,
        owner: people.tess,
        ownerUsername: people.tess.username,
        portfolioGrades: ['6th'],
        structure: [...BASIC_STRUCTURE, TEAM_QUESTION],
        created_at: '2026-03-02T10:00:00.000Z',
        responses: {
          artifactName: 'Ramp race',
          unitTiming: 'Beginning of unit',
          learningGoal: 'Forces',
          [TEAM_QUESTION.key]: 'Another school',
        },
      }),
      makeSharedArtifact({
        ...base,
        id: 71,
        owner: people.theo,
        ownerUsername: people.theo.username,
        portfolioGrades: ['5th'],
        created_at: '2026-03-05T10:00:00.000Z',
        responses: { artifactName: 'Food web', unitTiming: 'Middle of unit', learningGoal: 'Energy flows' },
      }),
      makeSharedArtifact({
        ...base,
        id: 72,
        owner: people.lee,
        ownerUsername: people.lee.username,
        portfolioGrades: ['7th'],
        created_at: '2026-02-20T10:00:00.000Z',
        responses: { artifactName: 'Magnet hunt', unitTiming: 'Middle of unit', learningGoal: 'Magnets' },
      }),
    ],
  });
}

const circle = () =>
  makeSharedPortfolio({
    id: 12,
    name: 'Engineering Design Circle',
    members: [people.lee, people.tess],
    sharedArtifacts: [],
  });

/** Comments and reactions of the PLC's artifacts. */
function discussions() {
  return {
    70: {
      comments: [
        makeComment({
          id: 31,
          sharedArtifact: 70,
          owner: people.theo.id,
          username: people.theo.username,
          text: 'Did anyone test two cars at once?',
          created_at: '2026-03-03T10:00:00.000Z',
          updated_at: '2026-03-03T10:00:00.000Z',
        }),
        makeComment({
          id: 32,
          sharedArtifact: 70,
          owner: people.tess.id,
          username: people.tess.username,
          text: 'We tried it with MARBLES.',
          created_at: '2026-03-04T10:00:00.000Z',
          updated_at: '2026-03-04T12:30:00.000Z',
        }),
      ],
      reactions: [
        makeReaction({ id: 41, sharedArtifact: 70, owner: people.lee.id, value: '⭐' }),
        makeReaction({ id: 42, sharedArtifact: 70, owner: people.theo.id, value: '🌉' }),
        makeReaction({ id: 43, sharedArtifact: 70, owner: people.tess.id, value: '⭐' }),
      ],
    },
    71: {
      comments: [
        makeComment({
          id: 33,
          sharedArtifact: 71,
          owner: people.tess.id,
          username: people.tess.username,
          text: 'My fifth graders mixed up arrows.',
        }),
      ],
      reactions: [makeReaction({ id: 44, sharedArtifact: 71, owner: people.lee.id, value: '🔖' })],
    },
  };
}

function setup({
  path = `/shared-portfolios/${PLC}`,
  user = accounts.tess,
  portfolios = [plc(), circle()],
  refetchDelay = 10,
}: { path?: string; user?: Me; portfolios?: SharedPortfolio[]; refetchDelay?: number } = {}) {
  const api = new FakeSharedApi(portfolios, discussions(), user);
  return { api, ...renderSharedPortfolios({ path, user, api, delays: { refetchDelay } }) };
}

const portfolioSelect = () => screen.getByRole('combobox', { name: 'Select Shared Portfolio' }) as HTMLSelectElement;
const summary = () => screen.getByRole('region', { name: 'Grades 5–7 Science PLC' });
const facts = (region: HTMLElement) =>
  Object.fromEntries(
    within(region)
      .getAllByRole('term')
      .map((dt) => [dt.textContent, dt.nextElementSibling?.textContent]),
  );
const reactionsOf = (pane: HTMLElement) => within(within(pane).getByRole('region', { name: 'Reactions' }));
const commentsOf = (pane: HTMLElement) => within(within(pane).getByRole('region', { name: 'Comments' }));

async function openFilters(ux: ReturnType<typeof userEvent.setup>) {
  await ux.click(screen.getByRole('button', { name: 'Filter By' }));
  return screen.getByRole('dialog', { name: 'Filter By' });
}

/** The pane of artifact `name` once its comments and reactions are there. */
async function openArtifact(ux: ReturnType<typeof userEvent.setup>, name: string) {
  await ux.click(await screen.findByRole('row', { name: new RegExp(name) }));
  const pane = detailPane();
  await waitFor(() => expect(within(pane).queryByText(/Loading (comments|reactions)/)).toBeNull());
  return pane;
}

describe('Shared Portfolios: the page', () => {
  it.each([
    ['a teacher', accounts.tess, false, false],
    ['a PLC lead', accounts.lee, true, false],
    ['a researcher', accounts.rita, true, true],
  ] as const)(
    'shows %s CREATE NEW SHARED PORTFOLIO (leads, researchers) and the summary export (researchers)',
    async (_, user, create, exportCsv) => {
      setup({ path: '/shared-portfolios', user });
      expect(await screen.findByRole('heading', { level: 1, name: 'Shared Portfolios' })).toBeTruthy();
      const createLink = screen.queryByRole('link', { name: 'CREATE NEW SHARED PORTFOLIO' });
      expect(createLink?.getAttribute('href') ?? null).toBe(create ? '/shared-portfolios/new' : null);
      const exportLink = screen.queryByRole('link', { name: 'Export shared portfolios summary' });
      expect(exportLink?.getAttribute('href') ?? null).toBe(
        exportCsv ? 'http://portal.test/api/v1/shared-portfolios/export' : null,
      );
      expect(exportLink?.getAttribute('download') ?? null).toBe(exportCsv ? 'shared portfolios.csv' : null);
      expect(document.title).toBe('Shared Portfolios · PracticeFolio');
    },
  );

  it('lists the shared portfolios by name after the placeholder; choosing one puts it in the address and shows its summary', async () => {
    const { location, ux, api } = setup({ path: '/shared-portfolios' });
    await screen.findByRole('combobox', { name: 'Select Shared Portfolio' });
    expect([...portfolioSelect().options].map((o) => o.textContent)).toEqual([
      'Select a shared portfolio',
      'Engineering Design Circle',
      'Grades 5–7 Science PLC',
    ]);
    expect(screen.getByText('Choose a shared portfolio to see its artifacts.')).toBeTruthy();
    await ux.selectOptions(portfolioSelect(), 'Grades 5–7 Science PLC');
    expect(location.history).toEqual(['/shared-portfolios', `/shared-portfolios/${PLC}`]);
    expect(facts(await screen.findByRole('region', { name: 'Grades 5–7 Science PLC' }))).toEqual({
      'Grade Levels': '5th Grade, 6th Grade',
      'PLC Name': 'Middle school science',
      Created: 'Lee Lead',
      Subject: 'Science',
      'Date Created': '02/03/26',
      'Portfolio Topic': 'Forces and motion',
      'Total Artifacts': '3',
      'PLC Goals': 'Notice student reasoning.',
    });
    expect(api.calls.filter((c) => c.startsWith('getPortfolio'))).toEqual([`getPortfolio ${PLC}`]);
  });

  it('shows the artifacts as Artifact Name, Author, Date and Number of Comments, newest first', async () => {
    setup();
    await screen.findByRole('grid', { name: 'Artifacts' });
    expect(
      within(artifactsGrid())
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Artifact Name', 'Author', 'Date', 'Number of Comments']);
    expect(within(artifactsGrid()).getByRole('columnheader', { name: 'Date' }).getAttribute('aria-sort')).toBe(
      'descending',
    );
    expect(rowNames()).toEqual(['Food web', 'Ramp race', 'Magnet hunt']);
    const ramp = within(screen.getByRole('row', { name: /Ramp race/ }))
      .getAllByRole('gridcell')
      .map((c) => c.textContent);
    expect(ramp).toEqual(['Ramp race', 'Tess Teacher', '03/02/26', '2']);
  });

  it.each([
    ['a teacher who is a member', accounts.tess, { leave: true, edit: false }],
    ['another teacher who is a member', accounts.theo, { leave: true, edit: false }],
    ['the owner (a PLC lead)', accounts.lee, { leave: false, edit: true }],
    ['a researcher', accounts.rita, { leave: false, edit: true }],
  ] as const)('offers %s the summary actions of spec §2: Leave %#', async (_, user, expected) => {
    setup({ user });
    const region = await screen.findByRole('region', { name: 'Grades 5–7 Science PLC' });
    expect(within(region).queryByRole('button', { name: 'Leave' }) !== null).toBe(expected.leave);
    const exportButton = within(region).getByRole('button', { name: 'Export' }) as HTMLButtonElement;
    expect(exportButton.disabled).toBe(true);
    // Why it is disabled, next to it and as its description.
    const why = document.getElementById(exportButton.getAttribute('aria-describedby')!)!;
    expect(why.textContent).toBe(exportNote(user === accounts.rita));
    expect(why.textContent).toMatch(/^Exporting one shared portfolio is not available yet/);
    const edit = within(region).queryByRole('link', { name: 'Edit' });
    expect(edit?.getAttribute('href') ?? null).toBe(expected.edit ? `/shared-portfolios/${PLC}/edit` : null);
  });

  it('Edit opens the shared portfolio form', async () => {
    const { ux, where } = setup({ user: accounts.lee });
    await ux.click(
      within(await screen.findByRole('region', { name: 'Grades 5–7 Science PLC' })).getByRole('link', { name: 'Edit' }),
    );
    expect(where()).toBe(`/shared-portfolios/${PLC}/edit`);
    expect(screen.getByRole('heading', { name: 'Edit Shared Portfolio' })).toBeTruthy();
  });

  it('Leave asks the question of spec §6; NO keeps the membership', async () => {
    const { ux, api } = setup();
    await ux.click(
      within(await screen.findByRole('region', { name: 'Grades 5–7 Science PLC' })).getByRole('button', {
        name: 'Leave',
      }),
    );
    const dialog = screen.getByRole('alertdialog', { name: 'Leave Shared Portfolio' });
    expect(dialog.textContent).toContain(LEAVE_TEXT);
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'NO' }));
    await ux.click(within(dialog).getByRole('button', { name: 'NO' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(api.calls.some((c) => c.startsWith('leaveSharedPortfolio'))).toBe(false);
  });

  it('Leave then YES ends the membership, says so, and shows the list without that portfolio', async () => {
    const { ux, api, where } = setup();
    await ux.click(
      within(await screen.findByRole('region', { name: 'Grades 5–7 Science PLC' })).getByRole('button', {
        name: 'Leave',
      }),
    );
    await ux.click(
      within(screen.getByRole('alertdialog', { name: 'Leave Shared Portfolio' })).getByRole('button', { name: 'YES' }),
    );
    expect(await screen.findByText('You left Grades 5–7 Science PLC.')).toBeTruthy();
    await waitFor(() => expect(where()).toBe('/shared-portfolios'));
    expect(api.calls).toContain(`leaveSharedPortfolio ${PLC}`);
    expect([...portfolioSelect().options].map((o) => o.textContent)).toEqual([
      'Select a shared portfolio',
      'Engineering Design Circle',
    ]);
    expect(screen.getByText('Choose a shared portfolio to see its artifacts.')).toBeTruthy();
  });

  it('a refused Leave alerts the server’s message and keeps the portfolio', async () => {
    const { ux, api, where } = setup();
    api.fail('leaveSharedPortfolio', badRequest('The owner cannot leave.'));
    await ux.click(
      within(await screen.findByRole('region', { name: 'Grades 5–7 Science PLC' })).getByRole('button', {
        name: 'Leave',
      }),
    );
    await ux.click(screen.getByRole('button', { name: 'YES' }));
    expect((await screen.findByRole('alert')).textContent).toContain('The owner cannot leave.');
    expect(where()).toBe(`/shared-portfolios/${PLC}`);
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(summary()).toBeTruthy();
  });
});

describe('Shared Portfolios: Filter By and search', () => {
  it('offers Show Only, Grade and Has Reactions (emoji named by their meaning) before the questions and the standards', async () => {
    const { ux } = setup();
    await screen.findByRole('grid', { name: 'Artifacts' });
    const dialog = await openFilters(ux);
    const sections = within(dialog)
      .getAllByRole('heading', { level: 3 })
      .map((h) => within(h).getByRole('button'));
    expect(sections.map((b) => b.textContent)).toEqual([
      'Recent',
      'Show Only',
      'Grade',
      'Has Reactions',
      'When in the unit was this?',
      TEAM_QUESTION.text,
      'Standards or Elements of Framework',
    ]);
    // Grades read by their names, as everywhere else (spec §3).
    const grade = within(dialog).getByRole('group', { name: 'Grade' });
    expect(
      within(grade)
        .getAllByRole('checkbox')
        .map((c) => c.closest('label')?.textContent),
    ).toEqual([
      'Pre-K',
      'Kindergarten',
      '1st Grade',
      '2nd Grade',
      '3rd Grade',
      '4th Grade',
      '5th Grade',
      '6th Grade',
      '7th Grade',
      '8th Grade',
      '9th Grade',
      '10th Grade',
      '11th Grade',
      '12th Grade',
    ]);
    const reactions = within(dialog).getByRole('group', { name: 'Has Reactions' });
    expect(
      within(reactions)
        .getAllByRole('checkbox')
        .map((c) => c.closest('label')?.textContent),
    ).toEqual(["🔖Let's talk about this", '⭐Exemplar', '🌉Bridges grade levels', '❓I have a question']);
    expect(within(reactions).getByRole('checkbox', { name: 'Exemplar' })).toBeTruthy();
  });

  it('My Artifacts keeps the viewer’s own; Grade matches the portfolio grades; Has Reactions the emoji given — AND across, OR within', async () => {
    const { ux } = setup();
    await screen.findByRole('grid', { name: 'Artifacts' });
    const dialog = await openFilters(ux);
    await ux.click(
      within(within(dialog).getByRole('group', { name: 'Show Only' })).getByRole('checkbox', { name: 'My Artifacts' }),
    );
    expect(rowNames()).toEqual(['Ramp race']);
    await ux.click(
      within(within(dialog).getByRole('group', { name: 'Show Only' })).getByRole('checkbox', { name: 'My Artifacts' }),
    );
    const grade = within(dialog).getByRole('group', { name: 'Grade' });
    await ux.click(within(grade).getByRole('checkbox', { name: '5th Grade' }));
    expect(rowNames()).toEqual(['Food web']);
    await ux.click(within(grade).getByRole('checkbox', { name: '7th Grade' }));
    expect(rowNames()).toEqual(['Food web', 'Magnet hunt']);
    await ux.click(within(grade).getByRole('checkbox', { name: '5th Grade' }));
    await ux.click(within(grade).getByRole('checkbox', { name: '7th Grade' }));
    const reactions = within(dialog).getByRole('group', { name: 'Has Reactions' });
    await ux.click(within(reactions).getByRole('checkbox', { name: 'Exemplar' }));
    expect(rowNames()).toEqual(['Ramp race']);
    await ux.click(within(reactions).getByRole('checkbox', { name: "Let's talk about this" }));
    expect(rowNames()).toEqual(['Food web', 'Ramp race']);
    await ux.click(within(grade).getByRole('checkbox', { name: '5th Grade' }));
    expect(rowNames()).toEqual(['Food web']);
    await ux.click(within(dialog).getByRole('button', { name: 'Done' }));
    const chips = screen.getByRole('list', { name: 'Filtered by:' });
    expect(
      within(chips)
        .getAllByRole('listitem')
        .map((c) => c.firstChild?.textContent),
    ).toEqual(['⭐ Exemplar', "🔖 Let's talk about this", '5th Grade']);
    await ux.click(screen.getByRole('button', { name: 'Remove filter ⭐ Exemplar' }));
    expect(rowNames()).toEqual(['Food web']);
    await ux.click(screen.getByRole('button', { name: 'Clear all' }));
    expect(rowNames()).toHaveLength(3);
  });

  it('keyword search looks in answers and in comment texts, ignoring case', async () => {
    const { ux } = setup();
    await screen.findByRole('grid', { name: 'Artifacts' });
    const search = screen.getByRole('searchbox', { name: 'Search artifacts' });
    await ux.type(search, 'marbles');
    await waitFor(() => expect(rowNames()).toEqual(['Ramp race']));
    await ux.clear(search);
    await ux.type(search, 'Fifth GRADERS');
    await waitFor(() => expect(rowNames()).toEqual(['Food web']));
    await ux.clear(search);
    await ux.type(search, 'another school');
    await waitFor(() => expect(rowNames()).toEqual(['Ramp race']));
    await ux.clear(search);
    await ux.type(search, 'volcano');
    await waitFor(() => expect(within(artifactsGrid()).getByText('No artifacts found')).toBeTruthy());
  });
});

describe('Shared Portfolios: the artifact', () => {
  it('choosing an artifact rewrites the address in place and shows it with Grade Levels, the team questions, EDIT and COPY TO', async () => {
    const { location, ux } = setup();
    const pane = await openArtifact(ux, 'Ramp race');
    expect(location.history).toEqual([`/shared-portfolios/${PLC}/artifacts/70`]);
    expect(within(pane).getByRole('heading', { name: 'Ramp race' })).toBeTruthy();
    expect(facts(pane)['Grade Levels']).toBe('6th Grade');
    const team = within(pane).getByRole('region', { name: 'Team questions for shared portfolio' });
    expect(within(team).getByText(TEAM_QUESTION.text)).toBeTruthy();
    expect(within(team).getByText('Another school')).toBeTruthy();
    expect(within(pane).getByRole('link', { name: 'EDIT' }).getAttribute('href')).toBe(
      `/shared-portfolios/${PLC}/artifacts/70/edit`,
    );
    expect(within(pane).getByRole('link', { name: 'COPY TO' }).getAttribute('href')).toBe(
      `/shared-portfolios/${PLC}/artifacts/70/copy`,
    );
    // With comments and reactions it cannot be deleted.
    expect(within(pane).queryByRole('button', { name: 'Delete Artifact' })).toBeNull();
    await ux.click(within(pane).getByRole('link', { name: 'COPY TO' }));
    expect(screen.getByRole('heading', { name: 'Copy Artifact' })).toBeTruthy();
  });

  it('opens on the artifact of the address with its comments and reactions', async () => {
    setup({ path: `/shared-portfolios/${PLC}/artifacts/70` });
    const pane = await screen.findByRole('region', { name: 'Artifact details' });
    const comments = await waitFor(() => commentsOf(pane).getAllByRole('article'));
    expect(
      comments.map((c) => [
        within(c).getByRole('time').textContent,
        within(c).getByText(/\S/, { selector: 'strong' }).textContent,
      ]),
    ).toEqual([
      ['03/03/26', 'Theo Teacher'],
      ['03/04/26', 'Tess Teacher'],
    ]);
    // When it was posted, and 'edited' (with when, in the title) once it was changed.
    expect(comments.map((c) => c.querySelector('[data-edited]')?.textContent ?? null)).toEqual([null, 'edited']);
    expect(comments[1]!.querySelector('[data-edited]')!.getAttribute('title')).toMatch(
      /^Edited March 4, 2026 \d{1,2}:30[ap]m$/,
    );
    expect(commentsOf(pane).getByText('Did anyone test two cars at once?')).toBeTruthy();
    expect(reactionsOf(pane).getByRole('button', { name: 'Exemplar, 2' }).getAttribute('aria-pressed')).toBe('true');
    expect(
      reactionsOf(pane).getByRole('button', { name: 'Bridges grade levels, 1' }).getAttribute('aria-pressed'),
    ).toBe('false');
    // The meaning reads in words on the chip (no tooltip, no colour-emoji font needed).
    expect(reactionsOf(pane).getByRole('button', { name: 'Exemplar, 2' }).textContent).toBe('⭐Exemplar 2');
  });

  it('says so for an artifact of the address that is not in the portfolio, and for a shared portfolio that is not there', async () => {
    setup({ path: `/shared-portfolios/${PLC}/artifacts/999` });
    expect(
      await within(await screen.findByRole('region', { name: 'Artifact details' })).findByText(
        'This artifact is not in the portfolio.',
      ),
    ).toBeTruthy();
    clearToasts();
  });

  it('says “Shared portfolio not found.” for a shared portfolio the viewer cannot see', async () => {
    setup({ path: '/shared-portfolios/404' });
    expect((await screen.findByRole('alert')).textContent).toBe('Shared portfolio not found.');
    expect(portfolioSelect().value).toBe('');
  });

  it('says so when the viewer belongs to no shared portfolio, with the create link for leads', async () => {
    setup({ path: '/shared-portfolios', user: accounts.lee, portfolios: [] });
    expect(await screen.findByText(/You are not a member of any shared portfolio yet\./)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Create a shared portfolio.' }).getAttribute('href')).toBe(
      '/shared-portfolios/new',
    );
    signOut();
  });

  it('a teacher in no shared portfolio gets no create link', async () => {
    setup({ path: '/shared-portfolios', user: accounts.tess, portfolios: [] });
    expect(await screen.findByText(/You are not a member of any shared portfolio yet\./)).toBeTruthy();
    expect(screen.queryByRole('link', { name: /Create/ })).toBeNull();
  });

  it('says “No artifacts found” for a shared portfolio without artifacts', async () => {
    setup({ path: '/shared-portfolios/12' });
    await screen.findByRole('region', { name: 'Engineering Design Circle' });
    expect(within(artifactsGrid()).getByText('No artifacts found')).toBeTruthy();
  });

  it('an invitee who opens the portfolio reads it: no actions, no reacting, no comment box', async () => {
    setup({ path: `/shared-portfolios/${PLC}/artifacts/70`, user: accounts.pat });
    const pane = await screen.findByRole('region', { name: 'Artifact details' });
    await waitFor(() => expect(commentsOf(pane).getAllByRole('article')).toHaveLength(2));
    expect(within(pane).queryByRole('link', { name: 'EDIT' })).toBeNull();
    expect(within(pane).queryByRole('link', { name: 'COPY TO' })).toBeNull();
    expect(reactionsOf(pane).queryByRole('button')).toBeNull();
    expect(reactionsOf(pane).getByRole('img', { name: 'Exemplar, 2' })).toBeTruthy();
    expect(commentsOf(pane).queryByRole('textbox')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Leave' })).toBeNull();
  });

  it('compare mode shows two shared artifacts side by side with their grade levels', async () => {
    const { ux } = setup();
    await screen.findByRole('grid', { name: 'Artifacts' });
    await ux.click(screen.getByRole('checkbox', { name: 'Compare' }));
    await ux.click(screen.getByRole('checkbox', { name: 'Compare Ramp race' }));
    await ux.click(screen.getByRole('checkbox', { name: 'Compare Food web' }));
    const compare = screen.getByRole('region', { name: 'Compare Artifacts' });
    expect(
      within(compare)
        .getAllByRole('heading', { level: 3 })
        .map((h) => h.textContent),
    ).toEqual(['Ramp race', 'Food web']);
    expect(within(compare).getAllByText('Grade Levels')).toHaveLength(2);
  });
});

describe('Shared Portfolios: reactions', () => {
  it('pressing one’s own reaction removes it; pressing another’s adds one; the portfolio follows a second later', async () => {
    const { ux, api } = setup();
    const pane = await openArtifact(ux, 'Ramp race');
    await ux.click(reactionsOf(pane).getByRole('button', { name: 'Exemplar, 2' }));
    await waitFor(() =>
      expect(reactionsOf(pane).getByRole('button', { name: 'Exemplar, 1' }).getAttribute('aria-pressed')).toBe('false'),
    );
    expect(api.calls).toContain('removeReaction 43');
    await ux.click(reactionsOf(pane).getByRole('button', { name: 'Bridges grade levels, 1' }));
    await waitFor(() =>
      expect(
        reactionsOf(pane).getByRole('button', { name: 'Bridges grade levels, 2' }).getAttribute('aria-pressed'),
      ).toBe('true'),
    );
    expect(api.calls).toContain('addReaction 70 🌉');
    // The artifact and the portfolio are fetched again after the change.
    await waitFor(() => expect(api.calls.filter((c) => c === `getPortfolio ${PLC}`).length).toBeGreaterThan(1));
    expect(api.calls.filter((c) => c === 'getSharedArtifact 70').length).toBeGreaterThan(2);
  });

  it('says “No reactions yet.” beside one “Add reaction” button when there are none; the ADD REACTION picker adds one and works with the keyboard', async () => {
    const { ux, api } = setup();
    const pane = await openArtifact(ux, 'Magnet hunt');
    expect(reactionsOf(pane).getByText('No reactions yet.')).toBeTruthy();
    expect(reactionsOf(pane).queryByText(/→/)).toBeNull();
    const add = reactionsOf(pane).getByRole('button', { name: 'Add reaction' });
    // One name, the text it shows (the + is not read).
    expect(add.getAttribute('aria-label')).toBeNull();
    expect(
      reactionsOf(pane)
        .getAllByRole('button')
        .filter((b) => /add reaction/i.test(b.textContent ?? '')),
    ).toHaveLength(1);
    expect(add.getAttribute('aria-expanded')).toBe('false');
    await ux.click(add);
    const picker = reactionsOf(pane).getByRole('dialog', { name: 'ADD REACTION' });
    expect(
      within(picker)
        .getAllByRole('button')
        .map((b) => b.getAttribute('aria-label')),
    ).toEqual(["Let's talk about this", 'Exemplar', 'Bridges grade levels', 'I have a question']);
    expect(document.activeElement).toBe(within(picker).getByRole('button', { name: "Let's talk about this" }));
    await ux.keyboard('{ArrowRight}{ArrowRight}{ArrowRight}');
    expect(document.activeElement).toBe(within(picker).getByRole('button', { name: 'I have a question' }));
    await ux.keyboard('{Escape}');
    expect(reactionsOf(pane).queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(add);
    await ux.keyboard('{Enter}');
    await ux.keyboard('{ArrowLeft}{Enter}');
    await waitFor(() =>
      expect(reactionsOf(pane).getByRole('button', { name: 'I have a question, 1' }).getAttribute('aria-pressed')).toBe(
        'true',
      ),
    );
    expect(api.calls).toContain('addReaction 72 ❓');
    expect(reactionsOf(pane).queryByText('No reactions yet.')).toBeNull();
    expect(reactionsOf(pane).queryByRole('dialog')).toBeNull();
  });

  it('a refused reaction alerts the server’s message and keeps the counts', async () => {
    const { ux, api } = setup();
    api.fail('addReaction', badRequest('Invalid reaction value.'));
    const pane = await openArtifact(ux, 'Ramp race');
    await ux.click(reactionsOf(pane).getByRole('button', { name: 'Bridges grade levels, 1' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Invalid reaction value.');
    expect(
      reactionsOf(pane).getByRole('button', { name: 'Bridges grade levels, 1' }).getAttribute('aria-pressed'),
    ).toBe('false');
  });
});

describe('Shared Portfolios: comments', () => {
  it('counts the characters, refuses a blank comment, takes at most 2500, and posts one', async () => {
    const { ux, api } = setup();
    const pane = await openArtifact(ux, 'Ramp race');
    const box = commentsOf(pane).getByPlaceholderText('Write a comment...') as HTMLTextAreaElement;
    const send = commentsOf(pane).getByRole('button', { name: 'Post Comment' }) as HTMLButtonElement;
    expect(box.maxLength).toBe(2500);
    expect(commentsOf(pane).getByText('0/2500 characters used')).toBeTruthy();
    expect(send.disabled).toBe(true);
    await ux.type(box, '   ');
    expect(commentsOf(pane).getByText('3/2500 characters used')).toBeTruthy();
    expect(send.disabled).toBe(true);
    await ux.clear(box);
    await ux.type(box, 'Try a steeper ramp');
    expect(commentsOf(pane).getByText('18/2500 characters used')).toBeTruthy();
    expect(send.disabled).toBe(false);
    await ux.click(send);
    await waitFor(() => expect(commentsOf(pane).getAllByRole('article')).toHaveLength(3));
    expect(api.calls).toContain('addComment 70 Try a steeper ramp');
    expect(box.value).toBe('');
    expect(commentsOf(pane).getByText('0/2500 characters used')).toBeTruthy();
    // A second later the table's count and the search follow.
    await waitFor(() =>
      expect(
        within(screen.getByRole('row', { name: /Ramp race/ }))
          .getAllByRole('gridcell')
          .at(-1)?.textContent,
      ).toBe('3'),
    );
    await ux.type(screen.getByRole('searchbox', { name: 'Search artifacts' }), 'steeper');
    await waitFor(() => expect(rowNames()).toEqual(['Ramp race']));
  });

  it('cuts a pasted text at 2500 characters', async () => {
    const { ux } = setup();
    const pane = await openArtifact(ux, 'Magnet hunt');
    const box = commentsOf(pane).getByPlaceholderText('Write a comment...');
    box.focus();
    await ux.paste('x'.repeat(2600));
    expect(commentsOf(pane).getByText('2500/2500 characters used')).toBeTruthy();
  });

  it('offers Edit and Delete on one’s own comments only; editing saves the new text', async () => {
    const { ux, api } = setup();
    const pane = await openArtifact(ux, 'Ramp race');
    const [theirs, mine] = commentsOf(pane).getAllByRole('article');
    expect(within(theirs!).queryByRole('button', { name: 'Edit comment' })).toBeNull();
    expect(within(theirs!).queryByRole('button', { name: 'Delete comment' })).toBeNull();
    await ux.click(within(mine!).getByRole('button', { name: 'Edit comment' }));
    const box = within(mine!).getByRole('textbox', { name: 'Edit comment' }) as HTMLTextAreaElement;
    expect(box.value).toBe('We tried it with MARBLES.');
    expect(within(mine!).getByText('25/2500 characters used')).toBeTruthy();
    await ux.clear(box);
    expect((within(mine!).getByRole('button', { name: 'Save' }) as HTMLButtonElement).disabled).toBe(true);
    await ux.type(box, 'We tried it with ball bearings.');
    await ux.click(within(mine!).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(commentsOf(pane).getByText('We tried it with ball bearings.')).toBeTruthy());
    expect(api.calls).toContain('editComment 32 We tried it with ball bearings.');
    expect(commentsOf(pane).queryByRole('textbox', { name: 'Edit comment' })).toBeNull();
  });

  it('Cancel (or Escape) leaves the comment as it was', async () => {
    const { ux, api } = setup();
    const pane = await openArtifact(ux, 'Ramp race');
    const mine = commentsOf(pane).getAllByRole('article')[1]!;
    await ux.click(within(mine).getByRole('button', { name: 'Edit comment' }));
    await ux.type(within(mine).getByRole('textbox', { name: 'Edit comment' }), ' Extra');
    await ux.keyboard('{Escape}');
    expect(within(mine).getByText('We tried it with MARBLES.')).toBeTruthy();
    expect(api.calls.some((c) => c.startsWith('editComment'))).toBe(false);
  });

  it('deleting one’s comment asks first, then says “Successfully deleted comment”', async () => {
    const { ux, api } = setup();
    const pane = await openArtifact(ux, 'Ramp race');
    const mine = commentsOf(pane).getAllByRole('article')[1]!;
    await ux.click(within(mine).getByRole('button', { name: 'Delete comment' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Delete Comment' });
    expect(dialog.textContent).toContain('Are you sure you want to delete this comment?');
    await ux.click(within(dialog).getByRole('button', { name: 'NO' }));
    expect(commentsOf(pane).getAllByRole('article')).toHaveLength(2);
    await ux.click(within(mine).getByRole('button', { name: 'Delete comment' }));
    await ux.click(
      within(screen.getByRole('alertdialog', { name: 'Delete Comment' })).getByRole('button', { name: 'YES' }),
    );
    expect(await screen.findByText('Successfully deleted comment')).toBeTruthy();
    await waitFor(() => expect(commentsOf(pane).getAllByRole('article')).toHaveLength(1));
    expect(api.calls).toContain('deleteComment 32');
  });

  it('a refused comment is alerted and the draft kept', async () => {
    const { ux, api } = setup();
    api.fail('addComment', badRequest('A comment can be at most 2500 characters.'));
    const pane = await openArtifact(ux, 'Ramp race');
    const box = commentsOf(pane).getByPlaceholderText('Write a comment...') as HTMLTextAreaElement;
    await ux.type(box, 'Hello');
    await ux.click(commentsOf(pane).getByRole('button', { name: 'Post Comment' }));
    expect((await screen.findByRole('alert')).textContent).toContain('A comment can be at most 2500 characters.');
    expect(box.value).toBe('Hello');
    expect(commentsOf(pane).getAllByRole('article')).toHaveLength(2);
  });
});

describe('Shared Portfolios: deleting an artifact', () => {
  it('offers Delete Artifact only without comments and reactions; YES deletes, says so, and shows the portfolio 2 s later', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const api = new FakeSharedApi([plc()], discussions(), accounts.tess);
    const { where } = renderSharedPortfolios({
      path: `/shared-portfolios/${PLC}/artifacts/72`,
      user: accounts.tess,
      api,
      delays: { refetchDelay: 10 },
    });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const pane = await screen.findByRole('region', { name: 'Artifact details' });
    const remove = await within(pane).findByRole('button', { name: 'Delete Artifact' });
    await user.click(remove);
    const dialog = screen.getByRole('alertdialog', { name: 'Delete Artifact' });
    expect(dialog.textContent).toContain('Do you want to delete Magnet hunt?');
    await user.click(within(dialog).getByRole('button', { name: 'YES' }));
    expect(await screen.findByText('Successfully deleted shared artifact')).toBeTruthy();
    expect(within(pane).getByRole('status').textContent).toBe(
      'This artifact was deleted. Returning to the shared portfolio…',
    );
    expect(api.calls).toContain('deleteSharedArtifact 72');
    await act(async () => vi.advanceTimersByTime(1500));
    expect(where()).toBe(`/shared-portfolios/${PLC}/artifacts/72`);
    await waitFor(() => expect(rowNames()).toEqual(['Food web', 'Ramp race']));
    await act(async () => vi.advanceTimersByTime(500));
    await waitFor(() => expect(where()).toBe(`/shared-portfolios/${PLC}`));
    expect(within(detailPane()).getByText('Select an artifact in the table to see it here.')).toBeTruthy();
  });

  it('hides Delete Artifact once a comment or reaction exists', async () => {
    const { ux } = setup({ path: `/shared-portfolios/${PLC}/artifacts/72` });
    const pane = await screen.findByRole('region', { name: 'Artifact details' });
    await within(pane).findByRole('button', { name: 'Delete Artifact' });
    await ux.click(reactionsOf(pane).getByRole('button', { name: 'Add reaction' }));
    await ux.click(reactionsOf(pane).getByRole('button', { name: 'Exemplar' }));
    await waitFor(() => expect(within(pane).queryByRole('button', { name: 'Delete Artifact' })).toBeNull());
    await ux.click(reactionsOf(pane).getByRole('button', { name: 'Exemplar, 1' }));
    expect(await within(pane).findByRole('button', { name: 'Delete Artifact' })).toBeTruthy();
  });
});
