import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ThemeProvider } from 'styled-components';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Route, Router, Switch } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { fromPromise } from 'xstate';
import { allowLeave, guardedNavigation, stayHere } from '../../app/navigation/leaveGuard.ts';
import { SharedFormLeaveGuard } from '../../app/wiring/sharedFormRoutes.tsx';
import { provideSharedPortfolioForm } from '../../machines/sharedPortfolioForm/provideSharedPortfolioForm.ts';
import { SharedPortfolioFormActorContext } from '../../machines/sharedPortfolioForm/useSharedPortfolioForm.ts';
import type { Portfolio } from '../../schemas/portfolio.ts';
import type { SharedPortfolio, SharedPortfolioBody, SharedPortfolioListItem } from '../../schemas/sharedPortfolio.ts';
import { STANDARDS_ITEMS, STANDARDS_PANELS } from '../../schemas/standards.ts';
import type { Me } from '../../schemas/user.ts';
import { ApiError, NetworkError } from '../../services/errors.ts';
import { BASIC_STRUCTURE } from '../../test/artifactFixtures.ts';
import { HeaderLink } from '../../test/portfolioHarness.tsx';
import { makeUser } from '../../test/renderApp.tsx';
import {
  makeMembers,
  makeSharedArtifact,
  makeSharedPortfolio,
  makeTemplatePortfolio,
  people,
  TEAM_QUESTION,
} from '../../test/sharedFixtures.ts';
import { Toaster } from '../feedback/Toaster.tsx';
import { clearToasts, notify } from '../feedback/toastStore.ts';
import { theme } from '../theme/theme.ts';
import { SharedPortfolioFormPage } from './SharedPortfolioFormPage.tsx';
import { SHARED_PORTFOLIO_ABILITIES } from '../../test/abilityFixtures.ts';

const lee = makeUser('plcLead', { id: people.lee.id, username: people.lee.username, email: people.lee.email });
const rita = makeUser('researcher', { id: people.rita.id, username: people.rita.username });
const tess = makeUser('teacher', { id: people.tess.id, username: people.tess.username });
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

interface Options {
  mode?: 'create' | 'edit';
  sharedPortfolioId?: number | null;
  user?: Me | null;
  fetchTemplate?: () => Promise<Portfolio>;
  fetchSharedPortfolio?: () => Promise<SharedPortfolio>;
  save?: (body: SharedPortfolioBody) => Promise<SharedPortfolio>;
  remove?: () => Promise<SharedPortfolioListItem>;
}

function renderForm({
  mode = 'create',
  sharedPortfolioId = 9,
  user = lee,
  fetchTemplate = async () => makeTemplatePortfolio(),
  fetchSharedPortfolio = async () => makeSharedPortfolio(),
  save = async (body) => makeSharedPortfolio({ id: 42, name: body.name }),
  remove = async () => {
    const { sharedArtifacts: _, ...sp } = makeSharedPortfolio();
    return { ...sp, sharedArtifacts: [] };
  },
}: Options = {}) {
  const calls = {
    fetchTemplate: 0,
    fetchSharedPortfolio: [] as number[],
    create: [] as SharedPortfolioBody[],
    update: [] as { id: number; body: SharedPortfolioBody }[],
    remove: [] as number[],
  };
  const navigateToSharedPortfolio = vi.fn<(id: number) => void>();
  const navigateToSharedPortfolios = vi.fn<() => void>();
  const logic = provideSharedPortfolioForm({
    notify: ({ message, tone }) => notify(message, tone),
    navigateToSharedPortfolio,
    navigateToSharedPortfolios,
    allowLeave,
    stayHere,
    actors: {
      fetchTemplate: fromPromise(() => {
        calls.fetchTemplate += 1;
        return fetchTemplate();
      }),
      fetchSharedPortfolio: fromPromise<SharedPortfolio, { id: number }>(({ input }) => {
        calls.fetchSharedPortfolio.push(input.id);
        return fetchSharedPortfolio();
      }),
      createSharedPortfolio: fromPromise<SharedPortfolio, { body: SharedPortfolioBody }>(({ input }) => {
        calls.create.push(input.body);
        return save(input.body);
      }),
      updateSharedPortfolio: fromPromise<SharedPortfolio, { id: number; body: SharedPortfolioBody }>(({ input }) => {
        calls.update.push(input);
        return save(input.body);
      }),
      deleteSharedPortfolio: fromPromise<SharedPortfolioListItem, { id: number }>(({ input }) => {
        calls.remove.push(input.id);
        return remove();
      }),
      fetchMembers: fromPromise(async () => makeMembers()),
    },
  });
  const location = memoryLocation({
    path: mode === 'create' ? '/shared-portfolios/new' : `/shared-portfolios/${sharedPortfolioId}/edit`,
    record: true,
  });
  render(
    <ThemeProvider theme={theme}>
      <Router hook={location.hook} aroundNav={guardedNavigation}>
        <HeaderLink />
        <Switch>
          <Route path={location.history[0]!}>
            <SharedPortfolioFormActorContext.Provider
              logic={logic}
              options={{ input: { mode, sharedPortfolioId, currentUser: user } }}
            >
              <SharedFormLeaveGuard />
              <SharedPortfolioFormPage />
            </SharedPortfolioFormActorContext.Provider>
          </Route>
          <Route>
            <p>Another page</p>
          </Route>
        </Switch>
        <Toaster />
      </Router>
    </ThemeProvider>,
  );
  return {
    calls,
    navigateToSharedPortfolio,
    navigateToSharedPortfolios,
    location,
    ux: userEvent.setup({ delay: null }),
  };
}

const nameField = () => screen.getByLabelText('Shared Portfolio Name') as HTMLInputElement;
const includeSwitch = (text: string) => screen.getByRole('switch', { name: `Include: ${text}` });
const rowOf = (text: string) => screen.getByRole('switch', { name: `Include: ${text}` }).closest('tr')!;
const save = (ux: ReturnType<typeof userEvent.setup>) => ux.click(screen.getByRole('button', { name: 'SAVE' }));
const describedBy = (element: HTMLElement) =>
  document.getElementById(element.getAttribute('aria-describedby') ?? '')?.textContent;

afterEach(() => clearToasts());

describe('shared portfolio form: access', () => {
  it.each([
    ['a teacher', tess],
    ['nobody signed in', null],
  ])('on create tells %s that they may not, without loading anything', async (_, user) => {
    const h = renderForm({ user });
    expect(await screen.findByText('You do not have permission to access this page.')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1, name: 'Create Shared Portfolio' })).toBeTruthy();
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(h.calls.fetchTemplate).toBe(0);
  });

  it('lets PLC leads and researchers create', async () => {
    for (const user of [lee, rita]) {
      const h = renderForm({ user });
      expect(await screen.findByLabelText('Shared Portfolio Name')).toBeTruthy();
      expect(h.calls.fetchTemplate).toBe(1);
      cleanup();
    }
  });

  it('says so when the template is missing', async () => {
    renderForm({
      fetchTemplate: async () => Promise.reject(new ApiError(404, 'not_found', 'Portfolio not found.', '')),
    });
    expect(await screen.findByText('Portfolio template not found.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'SAVE' })).toBeNull();
  });

  it('offers to try again when the template cannot be loaded', async () => {
    let fail = true;
    const h = renderForm({
      fetchTemplate: async () => (fail ? Promise.reject(new NetworkError()) : makeTemplatePortfolio()),
    });
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText(new NetworkError().message)).toBeTruthy();
    fail = false;
    await h.ux.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByLabelText('Shared Portfolio Name')).toBeTruthy();
    expect(h.calls.fetchTemplate).toBe(2);
  });

  it('edits only for the owner or a researcher; others read "Shared portfolio not found."', async () => {
    const member = renderForm({
      mode: 'edit',
      user: tess,
      fetchSharedPortfolio: async () => makeSharedPortfolio({ abilities: SHARED_PORTFOLIO_ABILITIES.member }),
    });
    expect(await screen.findByText('Shared portfolio not found.')).toBeTruthy();
    expect(member.calls.fetchSharedPortfolio).toEqual([9]);
    expect(screen.queryByLabelText('Shared Portfolio Name')).toBeNull();
    cleanup();

    renderForm({ mode: 'edit', user: rita });
    expect(((await screen.findByLabelText('Shared Portfolio Name')) as HTMLInputElement).value).toBe(
      'Grades 5–7 Science PLC',
    );
    cleanup();

    renderForm({ mode: 'edit', user: lee });
    expect(await screen.findByLabelText('Shared Portfolio Name')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1, name: 'Edit Shared Portfolio' })).toBeTruthy();
  });

  it('says "Shared portfolio not found." for a missing portfolio or an address without an id', async () => {
    renderForm({
      mode: 'edit',
      fetchSharedPortfolio: async () =>
        Promise.reject(new ApiError(404, 'not_found', 'Shared portfolio not found.', '')),
    });
    expect(await screen.findByText('Shared portfolio not found.')).toBeTruthy();
    cleanup();
    const h = renderForm({ mode: 'edit', sharedPortfolioId: null });
    expect(await screen.findByText('Shared portfolio not found.')).toBeTruthy();
    expect(h.calls.fetchSharedPortfolio).toEqual([]);
  });
});

describe('shared portfolio form: create', () => {
  it('shows the summary fields and the note on sharing, without the edit-only parts', async () => {
    renderForm();
    await screen.findByLabelText('Shared Portfolio Name');
    for (const label of ['Subject', 'Portfolio Topic', 'PLC Name', 'PLC Goals for Shared Portfolio'])
      expect(screen.getByLabelText(label)).toBeTruthy();
    expect(screen.getByRole('button', { name: /^Grade Levels/ })).toBeTruthy();
    expect(screen.getByText(/You can share this portfolio with participants after it is created/)).toBeTruthy();
    expect(screen.queryByRole('group', { name: 'Currently Shared with' })).toBeNull();
    expect(screen.queryByRole('group', { name: 'Date Created' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Edit Participants' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete Shared Portfolio' })).toBeNull();
    expect(screen.getByRole('button', { name: 'CANCEL' })).toBeTruthy();
  });

  it('offers the 14 grades and the subjects', async () => {
    const h = renderForm();
    await h.ux.click(await screen.findByRole('button', { name: /^Grade Levels/ }));
    const grades = screen.getAllByRole('checkbox').map((c) => c.closest('label')!.textContent);
    expect(grades).toEqual([
      'Pre-K',
      'Kindergarten',
      ...['1st', '2nd', '3rd', '4th', '5th', '6th', '7th', '8th', '9th', '10th', '11th', '12th'].map(
        (g) => `${g} Grade`,
      ),
    ]);
    const subjects = [...(screen.getByLabelText('Subject') as HTMLSelectElement).options].map((o) => o.textContent);
    expect(subjects).toEqual(['Select a subject', 'Arts', 'History', 'Language Arts', 'Mathematics', 'PE', 'Science']);
  });

  it('lists every template question with a switch: core ones locked on, the others on and toggleable', async () => {
    const h = renderForm();
    await screen.findByLabelText('Shared Portfolio Name');
    const table = screen.getByRole('table', { name: 'Questions' });
    const texts = within(table)
      .getAllByRole('switch')
      .map((s) => s.getAttribute('aria-label'));
    expect(texts).toEqual(BASIC_STRUCTURE.map((q) => `Include: ${q.text}`));
    for (const question of BASIC_STRUCTURE)
      expect(includeSwitch(question.text).getAttribute('aria-checked')).toBe('true');

    const core = includeSwitch('Artifact Name');
    expect(core.getAttribute('aria-disabled')).toBe('true');
    expect(describedBy(core)).toBe('Core questions are always included.');
    await h.ux.click(core);
    expect(core.getAttribute('aria-checked')).toBe('true');
    expect(includeSwitch('What were students working to learn?').getAttribute('aria-disabled')).toBe('true');
    // Core questions cannot be edited either: their rows have no text boxes.
    expect(within(rowOf('Artifact Name')).queryByRole('textbox')).toBeNull();

    const optional = includeSwitch('Day of the unit');
    expect(optional.getAttribute('aria-disabled')).toBeNull();
    await h.ux.click(optional);
    expect(optional.getAttribute('aria-checked')).toBe('false');
    await h.ux.click(optional);
    expect(optional.getAttribute('aria-checked')).toBe('true');
  });

  it('shows the file question as File Upload and the standards question as Multiple Response with its panels', async () => {
    renderForm();
    await screen.findByLabelText('Shared Portfolio Name');
    const file = within(rowOf('Photos, videos or documents')).getAllByRole('cell');
    expect(file.map((c) => c.textContent).slice(1)).toEqual([
      'Photos, videos or documents',
      'File Upload',
      'Photo, Video, Document',
    ]);
    const standards = rowOf('Standards or elements of the framework');
    expect(within(standards).getAllByRole('cell')[2]!.textContent).toBe('Multiple Response');
    expect(
      within(standards)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(STANDARDS_PANELS.map((p) => p.panel));
    const timing = rowOf('When in the unit was this?');
    expect(within(timing).getAllByRole('cell')[2]!.textContent).toBe('Single Selection');
    expect(
      within(timing)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Beginning of unit', 'Middle of unit', 'End of unit', 'Not part of a unit']);
  });

  it('requires a name, and for each team question a text, a type and (choice types) a choice', async () => {
    const h = renderForm();
    await screen.findByLabelText('Shared Portfolio Name');
    await h.ux.click(screen.getByRole('button', { name: 'Add Question' }));
    // The new question takes the focus, with the type select at its placeholder.
    expect(document.activeElement).toBe(screen.getByLabelText('Text of team question 1'));
    const type = screen.getByLabelText('Type of team question 1') as HTMLSelectElement;
    expect(type.value).toBe('');
    expect([...type.options].map((o) => [o.textContent, o.disabled])).toEqual([
      ['Question Type', true],
      ['Single Selection', false],
      ['Multiple Response', false],
      ['Short Text', false],
      ['Long Text', false],
      ['Number', false],
    ]);
    expect(screen.queryByText('A name is required.')).toBeNull();

    await save(h.ux);
    expect(
      await screen.findByText('You have 1 invalid question. Please add the required info and re-submit.'),
    ).toBeTruthy();
    expect(describedBy(nameField())).toBe('A name is required.');
    expect(nameField().getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(nameField());
    expect(describedBy(screen.getByLabelText('Text of team question 1'))).toBe('Question text is required.');
    expect(describedBy(type)).toBe('Question type is required.');
    expect(h.calls.create).toEqual([]);

    await h.ux.click(screen.getByRole('button', { name: 'Add Question' }));
    await save(h.ux);
    expect(
      await screen.findByText('You have 2 invalid questions. Please add the required info and re-submit.'),
    ).toBeTruthy();

    // Messages follow the typing once they are on screen.
    await h.ux.type(nameField(), 'Team');
    expect(screen.queryByText('A name is required.')).toBeNull();
    await h.ux.type(screen.getByLabelText('Text of team question 1'), 'Which grade?');
    await h.ux.selectOptions(type, 'Single Selection');
    expect(screen.queryAllByText('Question text is required.')).toHaveLength(1);
    const choices = screen.getByLabelText('Choices of team question 1 (separated by commas)');
    expect(describedBy(choices)).toBe('You must enter at least one choice.');
    await h.ux.type(choices, ' , ,');
    expect(describedBy(choices)).toBe('You must enter at least one choice.');
    await h.ux.type(choices, 'Yes');
    expect(choices.getAttribute('aria-invalid')).toBeNull();
    expect(h.calls.create).toEqual([]);
  });

  it('with only the name missing shows its message, and the summary at the top links to it (no question alert)', async () => {
    const h = renderForm();
    await screen.findByLabelText('Shared Portfolio Name');
    await h.ux.type(nameField(), '   ');
    await save(h.ux);
    expect(await screen.findByText('A name is required.')).toBeTruthy();
    const summary = screen.getByRole('alert', { name: 'There is a problem' });
    expect(summary.textContent).not.toMatch(/invalid question/);
    expect(
      within(summary).getByRole('link', { name: 'Shared Portfolio Name: A name is required.' }).getAttribute('href'),
    ).toBe(`#${nameField().id}`);
    expect(h.calls.create).toEqual([]);
  });

  it('a team question can be deleted', async () => {
    const h = renderForm();
    await screen.findByLabelText('Shared Portfolio Name');
    await h.ux.click(screen.getByRole('button', { name: 'Add Question' }));
    await h.ux.click(screen.getByRole('button', { name: 'Add Question' }));
    await h.ux.type(screen.getByLabelText('Text of team question 2'), 'Second');
    await h.ux.click(screen.getByRole('button', { name: 'Delete team question 1' }));
    expect((screen.getByLabelText('Text of team question 1') as HTMLTextAreaElement).value).toBe('Second');
    expect(screen.queryByLabelText('Text of team question 2')).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Add Question' }));
  });

  it('saves the trimmed name, the details, the chosen questions and the team questions, then goes to the portfolio', async () => {
    const h = renderForm();
    await h.ux.type(await screen.findByLabelText('Shared Portfolio Name'), '  Grade 6 Science Team  ');
    await h.ux.click(screen.getByRole('button', { name: /^Grade Levels/ }));
    await h.ux.click(screen.getByRole('checkbox', { name: '6th Grade' }));
    await h.ux.click(screen.getByRole('checkbox', { name: 'Kindergarten' }));
    await h.ux.keyboard('{Escape}');
    await h.ux.selectOptions(screen.getByLabelText('Subject'), 'Science');
    await h.ux.type(screen.getByLabelText('Portfolio Topic'), 'Forces');
    await h.ux.type(screen.getByLabelText('PLC Name'), 'Middle school');
    await h.ux.type(screen.getByLabelText('PLC Goals for Shared Portfolio'), 'Listen to students.');
    await h.ux.click(includeSwitch('Day of the unit'));
    await h.ux.click(includeSwitch('What would you do next, or differently?'));

    await h.ux.click(screen.getByRole('button', { name: 'Add Question' }));
    await h.ux.type(screen.getByLabelText('Text of team question 1'), '  Which grades could use this?  ');
    await h.ux.selectOptions(screen.getByLabelText('Type of team question 1'), 'Multiple Response');
    await h.ux.type(screen.getByLabelText('Choices of team question 1 (separated by commas)'), '5th,  6th ,, 7th');
    await h.ux.click(screen.getByRole('button', { name: 'Add Question' }));
    await h.ux.type(screen.getByLabelText('Text of team question 2'), 'Minutes spent');
    await h.ux.selectOptions(screen.getByLabelText('Type of team question 2'), 'Number');
    await h.ux.click(screen.getByRole('button', { name: 'Add Question' }));
    await h.ux.type(screen.getByLabelText('Text of team question 3'), 'Anything else?');
    await h.ux.selectOptions(screen.getByLabelText('Type of team question 3'), 'Long Text');

    await save(h.ux);
    await waitFor(() => expect(h.calls.create).toHaveLength(1));
    const body = h.calls.create[0]!;
    expect(body).toMatchObject({
      name: 'Grade 6 Science Team',
      grades: ['K', '6th'],
      subject: 'Science',
      topic: 'Forces',
      plcName: 'Middle school',
      plcGoals: 'Listen to students.',
    });
    const excluded = new Set(['unitDay', 'nextSteps']);
    // Template questions go exactly as the template has them: the standards items keep their commas.
    expect(body.structure.slice(0, 7)).toEqual(BASIC_STRUCTURE.filter((q) => !excluded.has(q.key)));
    expect(body.structure.find((q) => q.key === 'standardFrameworkTags')!.choices).toEqual([...STANDARDS_ITEMS]);
    expect(STANDARDS_ITEMS).toContain('Scale, Proportion, and Quantity');
    const bonus = body.structure.slice(7);
    expect(bonus).toEqual([
      {
        key: expect.stringMatching(UUID),
        text: 'Which grades could use this?',
        type: 'multipleResponse',
        bonus: true,
        choices: ['5th', '6th', '7th'],
      },
      { key: expect.stringMatching(UUID), text: 'Minutes spent', type: 'number', bonus: true, min: 1, max: 1, step: 1 },
      { key: expect.stringMatching(UUID), text: 'Anything else?', type: 'longText', bonus: true },
    ]);
    expect(new Set(bonus.map((q) => q.key)).size).toBe(3);
    expect(await screen.findByText('Successfully created shared portfolio')).toBeTruthy();
    expect(h.navigateToSharedPortfolio).toHaveBeenCalledWith(42);
  });

  it('keeps the form and shows the server’s refusal', async () => {
    const refusal =
      'You have 1 invalid question. Please add the required info and re-submit. Question text is required.';
    const h = renderForm({ save: async () => Promise.reject(new ApiError(400, 'invalid_questions', refusal, '')) });
    await h.ux.type(await screen.findByLabelText('Shared Portfolio Name'), 'Team');
    await save(h.ux);
    expect(await screen.findByRole('alert')).toHaveProperty('textContent', expect.stringContaining(refusal));
    expect(nameField().value).toBe('Team');
    expect((screen.getByRole('button', { name: 'SAVE' }) as HTMLButtonElement).disabled).toBe(false);
    expect(h.navigateToSharedPortfolio).not.toHaveBeenCalled();
  });

  it('CANCEL goes back to Shared Portfolios without saving', async () => {
    const h = renderForm();
    await h.ux.type(await screen.findByLabelText('Shared Portfolio Name'), 'Team');
    await h.ux.click(screen.getByRole('button', { name: 'CANCEL' }));
    expect(h.navigateToSharedPortfolios).toHaveBeenCalledTimes(1);
    expect(h.calls.create).toEqual([]);
  });

  it('disables the form while saving', async () => {
    let finish!: (sp: SharedPortfolio) => void;
    const h = renderForm({ save: () => new Promise((resolve) => (finish = resolve)) });
    await h.ux.type(await screen.findByLabelText('Shared Portfolio Name'), 'Team');
    await save(h.ux);
    expect(await screen.findByText('Saving shared portfolio')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'SAVE' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'CANCEL' }) as HTMLButtonElement).disabled).toBe(true);
    expect(nameField().disabled).toBe(true);
    await act(async () => finish(makeSharedPortfolio({ id: 43 })));
    expect(h.navigateToSharedPortfolio).toHaveBeenCalledWith(43);
  });
});

describe('shared portfolio form: edit', () => {
  it('shows the portfolio: its values, who it is shared with, when it was created, its questions', async () => {
    const h = renderForm({ mode: 'edit' });
    expect(((await screen.findByLabelText('Shared Portfolio Name')) as HTMLInputElement).value).toBe(
      'Grades 5–7 Science PLC',
    );
    expect(screen.getByRole('button', { name: /^Grade Levels/ }).textContent).toContain('5th Grade, 6th Grade');
    expect((screen.getByLabelText('Subject') as HTMLSelectElement).value).toBe('Science');
    expect((screen.getByLabelText('Portfolio Topic') as HTMLInputElement).value).toBe('Forces and motion');
    expect((screen.getByLabelText('PLC Name') as HTMLInputElement).value).toBe('Middle school science');
    expect((screen.getByLabelText('PLC Goals for Shared Portfolio') as HTMLTextAreaElement).value).toBe(
      'Notice student reasoning.',
    );
    expect(
      within(screen.getByRole('group', { name: 'Currently Shared with' })).getByText('Lee Lead, Tess Teacher'),
    ).toBeTruthy();
    const created = new Date('2026-02-03T15:00:00.000Z');
    const mmddyy = `${String(created.getMonth() + 1).padStart(2, '0')}/${String(created.getDate()).padStart(2, '0')}/26`;
    expect(within(screen.getByRole('group', { name: 'Date Created' })).getByText(mmddyy)).toBeTruthy();
    expect(screen.queryByText(/You can share this portfolio with participants/)).toBeNull();

    const on = (text: string) => includeSwitch(text).getAttribute('aria-checked');
    expect(on('Artifact Name')).toBe('true');
    expect(on('When in the unit was this?')).toBe('true');
    expect(on('Standards or elements of the framework')).toBe('true');
    expect(on('Day of the unit')).toBe('false');
    expect(on('Photos, videos or documents')).toBe('false');
    expect((screen.getByLabelText('Text of team question 1') as HTMLTextAreaElement).value).toBe(TEAM_QUESTION.text);
    expect((screen.getByLabelText('Type of team question 1') as HTMLSelectElement).value).toBe('singleSelection');
    expect(
      (screen.getByLabelText('Choices of team question 1 (separated by commas)') as HTMLTextAreaElement).value,
    ).toBe('Another grade, same school, Another school');
    expect(h.calls.fetchTemplate).toBe(0);
  });

  it('keeps a stored choice that holds a comma when its box is not edited', async () => {
    const h = renderForm({ mode: 'edit', save: async () => makeSharedPortfolio() });
    await h.ux.type(await screen.findByLabelText('PLC Name'), ' PLC');
    await save(h.ux);
    await waitFor(() => expect(h.calls.update).toHaveLength(1));
    const { id, body } = h.calls.update[0]!;
    expect(id).toBe(9);
    expect(body.plcName).toBe('Middle school science PLC');
    expect(body.structure.map((q) => q.key)).toEqual([
      'artifactName',
      'unitTiming',
      'learningGoal',
      'standardFrameworkTags',
      TEAM_QUESTION.key,
    ]);
    expect(body.structure.at(-1)).toEqual({
      key: TEAM_QUESTION.key,
      text: TEAM_QUESTION.text,
      type: 'singleSelection',
      bonus: true,
      choices: TEAM_QUESTION.choices,
    });
    expect(await screen.findByText('Successfully edited shared portfolio')).toBeTruthy();
    expect(h.navigateToSharedPortfolio).toHaveBeenCalledWith(9);
  });

  it('splits the choices on commas once the user edits them', async () => {
    const h = renderForm({ mode: 'edit' });
    const choices = await screen.findByLabelText('Choices of team question 1 (separated by commas)');
    await h.ux.type(choices, ', Home');
    await h.ux.click(includeSwitch('Day of the unit'));
    await save(h.ux);
    await waitFor(() => expect(h.calls.update).toHaveLength(1));
    const { body } = h.calls.update[0]!;
    expect(body.structure.at(-1)!.choices).toEqual(['Another grade', 'same school', 'Another school', 'Home']);
    expect(body.structure.map((q) => q.key)).toContain('unitDay');
    // The template's own questions are never re-split.
    expect(body.structure.find((q) => q.key === 'standardFrameworkTags')!.choices).toEqual([...STANDARDS_ITEMS]);
  });

  it('deletes after a confirmation and goes to Shared Portfolios', async () => {
    const h = renderForm({ mode: 'edit' });
    await h.ux.click(await screen.findByRole('button', { name: 'Delete Shared Portfolio' }));
    const question = screen.getByRole('alertdialog', { name: 'Delete Shared Portfolio' });
    expect(within(question).getByText('Do you want to delete Grades 5–7 Science PLC?')).toBeTruthy();
    await h.ux.click(within(question).getByRole('button', { name: 'NO' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(h.calls.remove).toEqual([]);

    await h.ux.click(screen.getByRole('button', { name: 'Delete Shared Portfolio' }));
    await h.ux.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'YES' }));
    expect(await screen.findByText('Successfully deleted shared portfolio')).toBeTruthy();
    expect(h.calls.remove).toEqual([9]);
    expect(h.navigateToSharedPortfolios).toHaveBeenCalledTimes(1);
  });

  it('shows the server’s message when the portfolio still has artifacts', async () => {
    const refusal = 'A shared portfolio can be deleted only when it has no artifacts.';
    const h = renderForm({
      mode: 'edit',
      remove: async () => Promise.reject(new ApiError(400, 'shared_portfolio_not_empty', refusal, '')),
    });
    await h.ux.click(await screen.findByRole('button', { name: 'Delete Shared Portfolio' }));
    await h.ux.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'YES' }));
    expect(within(await screen.findByRole('alert')).getByText(refusal)).toBeTruthy();
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(nameField().disabled).toBe(false);
    expect(h.navigateToSharedPortfolios).not.toHaveBeenCalled();
  });

  it('CANCEL goes back to the portfolio', async () => {
    const h = renderForm({ mode: 'edit' });
    await h.ux.click(await screen.findByRole('button', { name: 'CANCEL' }));
    expect(h.navigateToSharedPortfolio).toHaveBeenCalledWith(9);
  });

  it('opens Edit Participants from the summary', async () => {
    const h = renderForm({ mode: 'edit' });
    await h.ux.click(await screen.findByRole('button', { name: 'Edit Participants' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit Participants' });
    expect(await within(dialog).findByText('Pat Pending')).toBeTruthy();
    // Inviting inside the dialog does not submit the page's form.
    await h.ux.type(within(dialog).getByLabelText('Email'), '{Enter}');
    expect(within(dialog).getByText('Email is required')).toBeTruthy();
    expect(h.calls.update).toEqual([]);
    await h.ux.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

describe('the shared portfolio form: Delete only when it can succeed', () => {
  it('offers no Delete for a portfolio with artifacts and says why', async () => {
    const h = renderForm({
      mode: 'edit',
      fetchSharedPortfolio: async () => makeSharedPortfolio({ sharedArtifacts: [makeSharedArtifact()] }),
    });
    expect(
      await screen.findByText(
        'A shared portfolio can be deleted only when it has no artifacts. Delete its artifacts first.',
      ),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Delete Shared Portfolio' })).toBeNull();
    expect(h.calls.remove).toEqual([]);
  });
});

describe('the shared portfolio form: leaving', () => {
  it('asks before a link leaves changes behind; Stay keeps them, Leave goes on', async () => {
    const h = renderForm({ mode: 'edit' });
    await h.ux.type(await screen.findByLabelText('PLC Name'), ' team');
    await h.ux.click(screen.getByRole('link', { name: 'PORTFOLIO DASHBOARD' }));
    const question = screen.getByRole('alertdialog', { name: 'Leave this page?' });
    expect(question.textContent).toContain('Your changes are not saved.');
    await h.ux.click(within(question).getByRole('button', { name: 'Stay on this page' }));
    expect(h.location.history.at(-1)).toBe('/shared-portfolios/9/edit');
    expect((screen.getByLabelText('PLC Name') as HTMLInputElement).value).toMatch(/ team$/);
    await h.ux.click(screen.getByRole('link', { name: 'PORTFOLIO DASHBOARD' }));
    await h.ux.click(screen.getByRole('button', { name: 'Leave without saving' }));
    expect(h.location.history.at(-1)).toBe('/dashboard');
    expect(h.calls.update).toEqual([]);
  });

  it('lets a link go at once when nothing changed', async () => {
    const h = renderForm({ mode: 'create' });
    await screen.findByLabelText('Shared Portfolio Name');
    await h.ux.click(screen.getByRole('link', { name: 'PORTFOLIO DASHBOARD' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(h.location.history.at(-1)).toBe('/dashboard');
  });
});
