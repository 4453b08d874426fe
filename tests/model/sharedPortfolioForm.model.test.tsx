import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ThemeProvider } from 'styled-components';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Route, Router, Switch } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { getInitialSnapshot, getNextSnapshot, type SnapshotFrom } from 'xstate';
import { allowLeave, guardedNavigation, stayHere } from '../../src/app/navigation/leaveGuard.ts';
import { SharedFormLeaveGuard } from '../../src/app/wiring/sharedFormRoutes.tsx';
import { provideSharedPortfolioForm } from '../../src/machines/sharedPortfolioForm/provideSharedPortfolioForm.ts';
import { buildBody, choicesTextOf, formState, parseFormDraft, rowsForEdit, valuesOf, type QuestionRow } from '../../src/machines/sharedPortfolioForm/sharedForm.ts';
import {
  sharedPortfolioFormMachine,
  type SharedPortfolioFormEvent,
  type SharedPortfolioFormInput,
} from '../../src/machines/sharedPortfolioForm/sharedPortfolioFormMachine.ts';
import { SharedPortfolioFormActorContext } from '../../src/machines/sharedPortfolioForm/useSharedPortfolioForm.ts';
import { GRADES } from '../../src/schemas/catalog.ts';
import type { Portfolio } from '../../src/schemas/portfolio.ts';
import type { SharedPortfolio, SharedPortfolioBody, SharedPortfolioListItem } from '../../src/schemas/sharedPortfolio.ts';
import type { Structure } from '../../src/schemas/structure.ts';
import { readDraft, writeDraft } from '../../src/services/drafts.ts';
import { ApiError, NetworkError } from '../../src/services/errors.ts';
import { currentUser } from '../../src/services/session.ts';
import { HeaderLink } from '../../src/test/portfolioHarness.tsx';
import { makeSharedArtifact, makeSharedPortfolio, makeTemplatePortfolio, people, TEAM_QUESTION } from '../../src/test/sharedFixtures.ts';
import { Toaster } from '../../src/views/feedback/Toaster.tsx';
import { clearToasts, notify } from '../../src/views/feedback/toastStore.ts';
import { SharedPortfolioFormPage } from '../../src/views/pages/SharedPortfolioFormPage.tsx';
import { DELETE_NOT_EMPTY_NOTE } from '../../src/views/shared/form/SharedPortfolioForm.tsx';
import { theme } from '../../src/views/theme/theme.ts';
import { coverageInspector, createPathModel, isInvoking, trackMachine } from './support/coverage.ts';
import { controllableActor } from './support/deferred.ts';
import { reportCoverageAfterAll } from './support/report.ts';
import { makeUser } from './support/users.ts';

const coverage = trackMachine(sharedPortfolioFormMachine);
reportCoverageAfterAll(coverage);

type Snapshot = SnapshotFrom<typeof sharedPortfolioFormMachine>;
type Step = { event: unknown; state: unknown };

const lee = makeUser('plcLead', { id: people.lee.id, username: people.lee.username });
const tess = makeUser('teacher', { id: people.tess.id, username: people.tess.username });

// A small template (core, optional, file and choice questions) keeps the states, and so the test names, short.
const TEMPLATE: Structure = [
  { key: 'artifactName', text: 'Artifact Name', type: 'shortText', core: true },
  { key: 'fileUpload', text: 'Photos, videos or documents', type: 'fileUpload' },
  { key: 'unitDay', text: 'Day of the unit', type: 'number', min: 0, max: 200, step: 1 },
  { key: 'nextSteps', text: 'What would you do next?', type: 'longText' },
];
const template: Portfolio = makeTemplatePortfolio({ structure: TEMPLATE });
const portfolio: SharedPortfolio = makeSharedPortfolio({
  templateStructure: TEMPLATE,
  structure: [TEMPLATE[0]!, TEMPLATE[2]!, TEAM_QUESTION],
});
/** The same portfolio once it holds an artifact: it cannot be deleted then. */
const portfolioWithArtifact: SharedPortfolio = { ...portfolio, sharedArtifacts: [makeSharedArtifact()] };
const { sharedArtifacts: _, ...listed } = portfolio;
const deletedItem: SharedPortfolioListItem = { ...listed, sharedArtifacts: [] };
const created = makeSharedPortfolio({ id: 42, structure: [], templateStructure: [] });

const missing = new ApiError(404, 'not_found', 'Not found.', '');
const offline = new NetworkError();
const invalidOnServer = new ApiError(400, 'invalid_questions', 'You have 1 invalid question. Please add the required info and re-submit. Question text is required.', '');
const notEmpty = new ApiError(400, 'shared_portfolio_not_empty', 'A shared portfolio can be deleted only when it has no artifacts.', '');

/** The user's steps after the page loaded, in order (create). */
const CREATE_SCRIPT: SharedPortfolioFormEvent[] = [
  { type: 'form.submit' }, // only the name is missing
  { type: 'grades.change', grades: ['K', '6th'] },
  { type: 'question.toggle', key: 'unitDay', included: false },
  { type: 'question.add' }, // its messages show at once: the form was checked before
  { type: 'field.change', field: 'name', value: 'Team' },
  { type: 'question.change', key: '', field: 'text', value: 'Which grade?' },
  { type: 'question.change', key: '', field: 'type', value: 'singleSelection' },
  { type: 'form.submit' }, // the choices are missing
  { type: 'question.change', key: '', field: 'choices', value: 'Near, Far' },
  { type: 'form.submit' }, // valid
];

/** The user's steps after the page loaded, in order (edit). */
const EDIT_SCRIPT: SharedPortfolioFormEvent[] = [
  { type: 'field.change', field: 'plcName', value: 'Science PLC' },
  { type: 'question.toggle', key: 'nextSteps', included: true },
  { type: 'question.change', key: TEAM_QUESTION.key, field: 'choices', value: 'Near, Far' },
  { type: 'form.submit' },
];

/** The parts of a state that tell the script's stages apart (team question keys are random). */
function stageKey(snapshot: unknown): string {
  const s = snapshot as Snapshot;
  const rows = s.context.rows.map((row) => (row.kind === 'template' ? [row.key, row.included] : [row.text, row.type, row.choicesText]));
  return JSON.stringify([s.value, s.context.values, rows, s.context.validated, s.context.refusals]);
}

/** The key of each stage of a script, replayed on the machine itself from the loaded page. */
function stagesOf(input: SharedPortfolioFormInput, loaded: unknown, script: readonly SharedPortfolioFormEvent[]): string[] {
  let snapshot = getNextSnapshot(sharedPortfolioFormMachine, getInitialSnapshot(sharedPortfolioFormMachine, input), loaded as SharedPortfolioFormEvent);
  const keys = [stageKey(snapshot)];
  for (const event of script) {
    snapshot = getNextSnapshot(sharedPortfolioFormMachine, snapshot, withKey(snapshot, event));
    keys.push(stageKey(snapshot));
  }
  return keys;
}

/** A team question event of the script names the first team question (its key is random). */
function withKey(snapshot: unknown, event: SharedPortfolioFormEvent): SharedPortfolioFormEvent {
  if ((event.type !== 'question.change' && event.type !== 'question.remove') || event.key !== '') return event;
  const first = (snapshot as Snapshot).context.rows.find((row) => row.kind === 'bonus');
  return { ...event, key: first?.key ?? '' };
}

/**
 * A draft of the portfolio left by a reload (a PLC name and goals typed, a question switched on,
 * the team question's choices retyped), offered when the form opens again; Restore puts it back.
 */
const DRAFT_FORM = 'shared-portfolio:9';
const DRAFT_STORED = formState(
  { ...valuesOf(portfolio), plcName: 'Science PLC', plcGoals: 'Typed before the reload' },
  rowsForEdit(portfolio).map((row) =>
    row.kind === 'template' && row.key === 'nextSteps' ? { ...row, included: true } : row.kind === 'bonus' ? { ...row, choicesText: 'Near, Far' } : row,
  ),
);
const DRAFT_SCRIPT: SharedPortfolioFormEvent[] = [{ type: 'form.restore', draft: parseFormDraft(DRAFT_STORED)! }, { type: 'form.submit' }];
const draftOffer = () => screen.queryByRole('group', { name: 'Unsaved shared portfolio' });
/** The draft of the scenario being tested, if it has one. */
let draftOf: string | null = null;

interface Scenario {
  /** A draft of the form kept in the browser before the page opens. */
  draft?: string;
  name: string;
  input: SharedPortfolioFormInput;
  script: readonly SharedPortfolioFormEvent[];
  /** The portfolio the server gives (edit). */
  loaded?: SharedPortfolio;
}

const SCENARIOS: Scenario[] = [
  { name: 'create, as a PLC lead', input: { mode: 'create', sharedPortfolioId: null, currentUser: lee }, script: CREATE_SCRIPT },
  { name: 'create, as a teacher', input: { mode: 'create', sharedPortfolioId: null, currentUser: tess }, script: [] },
  { name: 'edit, as the owner', input: { mode: 'edit', sharedPortfolioId: 9, currentUser: lee }, script: EDIT_SCRIPT },
  { name: 'edit, a draft left by a reload', input: { mode: 'edit', sharedPortfolioId: 9, currentUser: lee }, script: DRAFT_SCRIPT, draft: DRAFT_STORED },
  { name: 'edit, a portfolio with artifacts', input: { mode: 'edit', sharedPortfolioId: 9, currentUser: lee }, script: [], loaded: portfolioWithArtifact },
  { name: 'edit, as a member who is not the owner', input: { mode: 'edit', sharedPortfolioId: 9, currentUser: tess }, script: [] },
  { name: 'edit, from an address without an id', input: { mode: 'edit', sharedPortfolioId: null, currentUser: lee }, script: [] },
];

/**
 * The events of the model in a state: on the loaded form, the next step of the script (and, at the
 * start, CANCEL and Delete; after the team question is added, deleting it), and the answers of
 * whatever the state invokes.
 */
function eventsFor(scenario: Scenario) {
  const loaded =
    scenario.input.mode === 'create'
      ? { type: 'xstate.done.actor.fetchTemplate', output: template }
      : { type: 'xstate.done.actor.fetchSharedPortfolio', output: scenario.loaded ?? portfolio };
  const stages = scenario.script.length > 0 ? stagesOf(scenario.input, loaded, scenario.script) : [];
  return (snapshot: unknown): SharedPortfolioFormEvent[] => {
    const s = snapshot as Snapshot;
    const list: unknown[] = [];
    const stage = stages.indexOf(stageKey(s));
    if (s.matches('editing') && stage >= 0) {
      const next = scenario.script[stage];
      if (next) list.push(withKey(s, next));
      // Leaving: Cancel, Delete, and a link with nothing changed, then a link after the first change.
      if (stage === 0) list.push({ type: 'form.cancel' }, { type: 'portfolio.delete' }, { type: 'leave.request' });
      if (stage === 1) list.push({ type: 'leave.request' });
    }
    if (s.matches('editing') && scenario.script.length === 0) list.push({ type: 'portfolio.delete' });
    if (s.matches('confirmingLeave')) list.push({ type: 'leave.stay' }, { type: 'leave.confirm' });
    if (s.matches('editing') && stage >= 0) {
      const bonus = s.context.rows.find((row) => row.kind === 'bonus');
      if (bonus && bonus.text === '' && s.context.validated && scenario.input.mode === 'create') list.push({ type: 'question.remove', key: bonus.key });
    }
    if (s.matches('confirmingDelete')) list.push({ type: 'delete.confirm' }, { type: 'delete.cancel' });
    if (s.matches('loadFailed')) list.push({ type: 'retry' });
    const answers = (id: string, ...events: unknown[]) => (isInvoking(s, id) ? events : []);
    list.push(
      ...answers('fetchTemplate', loaded, { type: 'xstate.error.actor.fetchTemplate', error: missing }, { type: 'xstate.error.actor.fetchTemplate', error: offline }),
      ...answers('fetchSharedPortfolio', loaded, { type: 'xstate.error.actor.fetchSharedPortfolio', error: missing }, { type: 'xstate.error.actor.fetchSharedPortfolio', error: offline }),
      ...answers('createSharedPortfolio', { type: 'xstate.done.actor.createSharedPortfolio', output: created }, { type: 'xstate.error.actor.createSharedPortfolio', error: invalidOnServer }),
      ...answers('updateSharedPortfolio', { type: 'xstate.done.actor.updateSharedPortfolio', output: { ...created, id: 9 } }, { type: 'xstate.error.actor.updateSharedPortfolio', error: offline }),
      ...answers('deleteSharedPortfolio', { type: 'xstate.done.actor.deleteSharedPortfolio', output: deletedItem }, { type: 'xstate.error.actor.deleteSharedPortfolio', error: notEmpty }),
    );
    return (list as SharedPortfolioFormEvent[]).filter((event) => s.can(event));
  };
}

function setup(input: SharedPortfolioFormInput, draft?: string) {
  localStorage.clear();
  draftOf = draft ?? null;
  if (draft) {
    currentUser.value = lee;
    writeDraft(lee.id, DRAFT_FORM, draft, portfolio.updated_at);
  }
  const fakes = {
    fetchTemplate: controllableActor<Portfolio>(),
    fetchSharedPortfolio: controllableActor<SharedPortfolio, { id: number }>(),
    createSharedPortfolio: controllableActor<SharedPortfolio, { body: SharedPortfolioBody }>(),
    updateSharedPortfolio: controllableActor<SharedPortfolio, { id: number; body: SharedPortfolioBody }>(),
    deleteSharedPortfolio: controllableActor<SharedPortfolioListItem, { id: number }>(),
  };
  const navigateToSharedPortfolio = vi.fn<(id: number) => void>();
  const navigateToSharedPortfolios = vi.fn<() => void>();
  const start = input.mode === 'create' ? '/shared-portfolios/new' : `/shared-portfolios/${input.sharedPortfolioId ?? 'x'}/edit`;
  const location = memoryLocation({ path: start, record: true });
  // The app's navigation passes the leave guard, as the router's `aroundNav` makes it.
  const navigate = (to: string) => guardedNavigation(location.navigate, to);
  const logic = provideSharedPortfolioForm({
    notify: ({ message, tone }) => notify(message, tone),
    navigateToSharedPortfolio: (id) => {
      navigateToSharedPortfolio(id);
      navigate(`/shared-portfolios/${id}`);
    },
    navigateToSharedPortfolios: () => {
      navigateToSharedPortfolios();
      navigate('/shared-portfolios');
    },
    allowLeave,
    stayHere,
    actors: {
      fetchTemplate: fakes.fetchTemplate.logic,
      fetchSharedPortfolio: fakes.fetchSharedPortfolio.logic,
      createSharedPortfolio: fakes.createSharedPortfolio.logic,
      updateSharedPortfolio: fakes.updateSharedPortfolio.logic,
      deleteSharedPortfolio: fakes.deleteSharedPortfolio.logic,
    },
  });
  render(
    <ThemeProvider theme={theme}>
      <Router hook={location.hook} aroundNav={guardedNavigation}>
        <HeaderLink />
        <Switch>
          <Route path={start}>
            <SharedPortfolioFormActorContext.Provider logic={logic} options={{ input, inspect: coverageInspector }}>
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
  return { fakes, navigateToSharedPortfolio, navigateToSharedPortfolios, location, ux: userEvent.setup({ delay: null }) };
}

type Harness = ReturnType<typeof setup>;
let h: Harness;

const FIELD_LABELS = {
  name: 'Shared Portfolio Name',
  subject: 'Subject',
  topic: 'Portfolio Topic',
  plcName: 'PLC Name',
  plcGoals: 'PLC Goals for Shared Portfolio',
} as const;
const field = (label: string) => screen.getByLabelText(label) as HTMLInputElement;
const describedBy = (element: HTMLElement) => (element.getAttribute('aria-describedby') ? document.getElementById(element.getAttribute('aria-describedby')!)?.textContent : undefined);
const saveButton = () => screen.getByRole('button', { name: 'SAVE' }) as HTMLButtonElement;
/** An alert (toast) with this text is on screen (earlier ones may still be). */
const expectAlert = (text: string) => expect(screen.getAllByRole('alert').map((a) => a.querySelector('p')?.textContent)).toContain(text);

/** The form shows the machine's values, switches, team questions and messages. */
function expectForm(s: Snapshot) {
  const { values, rows, errors } = s.context;
  for (const [name, label] of Object.entries(FIELD_LABELS) as [keyof typeof FIELD_LABELS, string][]) expect(field(label).value).toBe(values[name]);
  const gradeText = GRADES.filter((g) => values.grades.includes(g.value)).map((g) => g.label).join(', ') || 'Select grade levels';
  expect(screen.getByRole('button', { name: /^Grade Levels/ }).textContent).toBe(gradeText);
  expect(describedBy(field(FIELD_LABELS.name))).toBe(errors.name);
  let number = 0;
  for (const row of rows as QuestionRow[]) {
    if (row.kind === 'template') {
      const sw = screen.getByRole('switch', { name: `Include: ${row.question.text}` });
      expect(sw.getAttribute('aria-checked')).toBe(String(row.included || Boolean(row.question.core)));
      expect(sw.getAttribute('aria-disabled')).toBe(row.question.core || s.hasTag('busy') ? 'true' : null);
      continue;
    }
    number += 1;
    const text = field(`Text of team question ${number}`);
    const type = field(`Type of team question ${number}`);
    expect(text.value).toBe(row.text);
    expect(type.value).toBe(row.type);
    expect(describedBy(text)).toBe(errors.questions[row.key]?.text);
    expect(describedBy(type)).toBe(errors.questions[row.key]?.type);
    const choices = screen.queryByLabelText(`Choices of team question ${number} (separated by commas)`) as HTMLTextAreaElement | null;
    if (row.type === 'singleSelection' || row.type === 'multipleResponse') {
      expect(choices!.value).toBe(choicesTextOf(row));
      expect(describedBy(choices!)).toBe(errors.questions[row.key]?.choices);
    } else {
      expect(choices).toBeNull();
    }
  }
  expect(screen.queryByLabelText(`Text of team question ${number + 1}`)).toBeNull();
}

/** Every state has a DOM assertion; a state without one fails the path. */
const stateChecks: Record<string, (s: Snapshot) => Promise<void>> = {
  loading: async () => {
    expect(screen.getByRole('status', { name: 'Loading shared portfolio' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'SAVE' })).toBeNull();
  },
  loadFailed: async (s) => {
    const alert = screen.getByRole('alert');
    expect(within(alert).getByText(s.context.error!.message)).toBeTruthy();
    expect(within(alert).getByRole('button', { name: 'Try again' })).toBeTruthy();
  },
  unavailable: async (s) => {
    expect(screen.getByText(s.context.problem!)).toBeTruthy();
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(screen.queryByRole('button')).toBeNull();
  },
  editing: async (s) => {
    expectForm(s);
    // A draft is offered when the form opens, until it is put back.
    const restored = s.context.values.plcGoals === 'Typed before the reload';
    if (draftOf && !restored) expect(draftOffer()!.querySelector('p')!.textContent).toMatch(/^Restore your unsaved text from \d{1,2}:\d\d[ap]m\?$/);
    else expect(draftOffer()).toBeNull();
    expect(saveButton().disabled).toBe(false);
    expect(screen.queryByRole('alertdialog')).toBeNull();
    const edit = s.context.mode === 'edit';
    // Delete only while the portfolio holds no artifacts; otherwise the page says why.
    const deletable = edit && s.context.sharedPortfolio!.sharedArtifacts.length === 0;
    expect(screen.queryByRole('button', { name: 'Delete Shared Portfolio' }) !== null).toBe(deletable);
    expect(screen.queryByText(DELETE_NOT_EMPTY_NOTE) !== null).toBe(edit && !deletable);
    expect(screen.queryByRole('button', { name: 'Edit Participants' }) !== null).toBe(edit);
    expect(screen.queryByText(/You can share this portfolio with participants after it is created/) !== null).toBe(!edit);
  },
  confirmingDelete: async () => {
    const question = screen.getByRole('alertdialog', { name: 'Delete Shared Portfolio' });
    expect(within(question).getByText(`Do you want to delete ${portfolio.name}?`)).toBeTruthy();
    expect((within(question).getByRole('button', { name: 'YES' }) as HTMLButtonElement).disabled).toBe(false);
  },
  creating: async (s) => {
    expectForm(s);
    expect(saveButton().getAttribute('aria-busy')).toBe('true');
    expect(field(FIELD_LABELS.name).disabled).toBe(true);
  },
  updating: async (s) => {
    expectForm(s);
    expect(saveButton().getAttribute('aria-busy')).toBe('true');
    expect((screen.getByRole('button', { name: 'Delete Shared Portfolio' }) as HTMLButtonElement).disabled).toBe(true);
  },
  deleting: async () => {
    const question = screen.getByRole('alertdialog', { name: 'Delete Shared Portfolio' });
    expect((within(question).getByRole('button', { name: 'YES' }) as HTMLButtonElement).disabled).toBe(true);
  },
  confirmingLeave: async (s) => {
    expectForm(s);
    const question = screen.getByRole('alertdialog', { name: 'Leave this page?' });
    expect(question.textContent).toContain('Your changes are not saved.');
    expect(h.location.history.at(-1)).toBe(h.location.history[0]);
  },
  leaving: async () => {
    expect(screen.getByText('Another page')).toBeTruthy();
    expect(h.location.history.at(-1)).toBe('/dashboard');
  },
  saved: async (s) => {
    const message = s.context.mode === 'create' ? 'Successfully created shared portfolio' : 'Successfully edited shared portfolio';
    expect(screen.getByText(message)).toBeTruthy();
    expect(h.navigateToSharedPortfolio.mock.calls).toEqual([[s.context.mode === 'create' ? created.id : 9]]);
    // Saved: the draft is forgotten.
    await act(() => vi.waitFor(() => expect(readDraft(lee.id, DRAFT_FORM)).toBeNull()));
  },
  deleted: async () => {
    expect(screen.getByText('Successfully deleted shared portfolio')).toBeTruthy();
    expect(h.navigateToSharedPortfolios).toHaveBeenCalledTimes(1);
    expect(h.navigateToSharedPortfolio).not.toHaveBeenCalled();
  },
  cancelled: async (s) => {
    if (s.context.mode === 'create') {
      expect(h.navigateToSharedPortfolios).toHaveBeenCalledTimes(1);
      expect(h.navigateToSharedPortfolio).not.toHaveBeenCalled();
    } else {
      expect(h.navigateToSharedPortfolio.mock.calls).toEqual([[9]]);
      expect(h.navigateToSharedPortfolios).not.toHaveBeenCalled();
    }
  },
};

async function checkState(snapshot: unknown) {
  const s = snapshot as Snapshot;
  const keys = Object.keys(stateChecks).filter((key) => s.matches(key as never));
  expect(keys, `a DOM check for ${JSON.stringify(s.value)}`).not.toEqual([]);
  for (const key of keys) await stateChecks[key]!(s);
}

/** The body the form must send, compared without the random keys of team questions. */
function expectBody(body: SharedPortfolioBody, s: Snapshot) {
  const unkeyed = (b: SharedPortfolioBody) => b.structure.map((q) => (q.bonus && q.key !== TEAM_QUESTION.key ? { ...q, key: 'random' } : q));
  const expected = buildBody(s.context.values, s.context.rows);
  expect({ ...body, structure: unkeyed(body) }).toEqual({ ...expected, structure: unkeyed(expected) });
  for (const q of body.structure.filter((q) => q.bonus && q.key !== TEAM_QUESTION.key)) expect(q.key).toMatch(/^[0-9a-f-]{36}$/);
}

/** Settles the view's one open request of a fake actor as the model's event says. */
function settle(name: keyof Harness['fakes'], checkInput: (input: never, s: Snapshot) => void = () => undefined) {
  return async (step: Step) => {
    const event = step.event as { type: string; output?: unknown; error?: unknown };
    const call = h.fakes[name].next();
    expect(h.fakes[name].calls).toEqual([]);
    checkInput(call.input as never, step.state as Snapshot);
    await act(async () => (event.type.startsWith('xstate.done') ? call.deferred.resolve(event.output as never) : call.deferred.reject(event.error)));
    if (event.type.startsWith('xstate.error') && name !== 'fetchTemplate' && name !== 'fetchSharedPortfolio') {
      expectAlert((event.error as Error).message);
    }
  };
}

/** Replaces the text of a box with one change, as a paste makes it. */
async function replaceText(element: HTMLInputElement | HTMLTextAreaElement, value: string) {
  await h.ux.clear(element);
  await h.ux.click(element);
  await h.ux.paste(value);
  expect(element.value).toBe(value);
}

/** A readable test name: where the path ends and the gestures and answers that lead there. */
function pathTitle(path: { state: { value: unknown }; steps: readonly { event: unknown }[] }): string {
  const steps = path.steps
    .map((step) => step.event as { type: string; field?: string; value?: string; error?: Error })
    .filter((event) => event.type !== 'xstate.init')
    .map((event) => {
      const type = event.type.replace(/^xstate\.(done|error)\.actor\./, (_, kind: string) => (kind === 'done' ? '✓ ' : '✗ '));
      const detail = event.field ? ` ${event.field}="${event.value}"` : event.error ? ` (${event.error.message.slice(0, 40)})` : '';
      return `${type}${detail}`;
    });
  return `${JSON.stringify(path.state.value)} ← ${steps.join(' → ') || 'start'}`;
}

afterEach(() => {
  clearToasts();
  localStorage.clear();
  currentUser.value = null;
});

for (const scenario of SCENARIOS) {
  describe(`shared portfolio form model (${scenario.name})`, () => {
    const model = createPathModel(sharedPortfolioFormMachine, { input: scenario.input, events: eventsFor(scenario) });
    for (const path of model.getShortestPaths()) {
      it(`${pathTitle(path)}`, async () => {
        h = setup(scenario.input, scenario.draft);
        await path.test({
          states: { '*': checkState },
          events: {
            'xstate.done.actor.fetchTemplate': settle('fetchTemplate'),
            'xstate.error.actor.fetchTemplate': settle('fetchTemplate'),
            'xstate.done.actor.fetchSharedPortfolio': settle('fetchSharedPortfolio', (input: { id: number }) => expect(input).toEqual({ id: 9 })),
            'xstate.error.actor.fetchSharedPortfolio': settle('fetchSharedPortfolio'),
            'xstate.done.actor.createSharedPortfolio': settle('createSharedPortfolio', (input: { body: SharedPortfolioBody }, s) => expectBody(input.body, s)),
            'xstate.error.actor.createSharedPortfolio': settle('createSharedPortfolio'),
            'xstate.done.actor.updateSharedPortfolio': settle('updateSharedPortfolio', (input: { id: number; body: SharedPortfolioBody }, s) => {
              expect(input.id).toBe(9);
              expectBody(input.body, s);
              // A stored choice list is split again only because the user edited it.
              expect(input.body.structure.at(-1)!.choices).toEqual(['Near', 'Far']);
            }),
            'xstate.error.actor.updateSharedPortfolio': settle('updateSharedPortfolio'),
            'xstate.done.actor.deleteSharedPortfolio': settle('deleteSharedPortfolio', (input: { id: number }) => expect(input).toEqual({ id: 9 })),
            'xstate.error.actor.deleteSharedPortfolio': settle('deleteSharedPortfolio'),
            retry: async () => {
              await h.ux.click(screen.getByRole('button', { name: 'Try again' }));
            },
            'field.change': async (step: Step) => {
              const { field: name, value } = step.event as { field: keyof typeof FIELD_LABELS; value: string };
              await replaceText(field(FIELD_LABELS[name]), value);
            },
            'grades.change': async (step: Step) => {
              const { grades } = step.event as { grades: string[] };
              await h.ux.click(screen.getByRole('button', { name: /^Grade Levels/ }));
              for (const code of grades) await h.ux.click(screen.getByRole('checkbox', { name: GRADES.find((g) => g.value === code)!.label }));
              await h.ux.keyboard('{Escape}');
            },
            'question.toggle': async (step: Step) => {
              const { key } = step.event as { key: string };
              await h.ux.click(screen.getByRole('switch', { name: `Include: ${TEMPLATE.find((q) => q.key === key)!.text}` }));
            },
            'question.add': async () => {
              await h.ux.click(screen.getByRole('button', { name: 'Add Question' }));
            },
            'question.remove': async () => {
              await h.ux.click(screen.getByRole('button', { name: 'Delete team question 1' }));
            },
            'question.change': async (step: Step) => {
              const { field: part, value } = step.event as { field: 'text' | 'type' | 'choices'; value: string };
              if (part === 'type') {
                await h.ux.selectOptions(field('Type of team question 1'), value);
              } else {
                await replaceText(field(part === 'text' ? 'Text of team question 1' : 'Choices of team question 1 (separated by commas)'), value);
              }
            },
            'form.restore': async () => {
              await h.ux.click(within(draftOffer()!).getByRole('button', { name: 'Restore' }));
            },
            'form.submit': async (step: Step) => {
              await h.ux.click(saveButton());
              const s = step.state as Snapshot;
              const invalid = Object.keys(s.context.errors.questions).length;
              if (s.matches('editing') && invalid > 0) {
                const alert = `You have ${invalid} invalid ${invalid === 1 ? 'question' : 'questions'}. Please add the required info and re-submit.`;
                expectAlert(alert);
              }
            },
            'form.cancel': async () => {
              await h.ux.click(screen.getByRole('button', { name: 'CANCEL' }));
            },
            'portfolio.delete': async () => {
              await h.ux.click(screen.getByRole('button', { name: 'Delete Shared Portfolio' }));
            },
            'delete.confirm': async () => {
              await h.ux.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'YES' }));
            },
            'delete.cancel': async () => {
              await h.ux.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'NO' }));
            },
            'leave.request': async () => {
              await h.ux.click(screen.getByRole('link', { name: 'PORTFOLIO DASHBOARD' }));
            },
            'leave.stay': async () => {
              await h.ux.click(within(screen.getByRole('alertdialog', { name: 'Leave this page?' })).getByRole('button', { name: 'Stay on this page' }));
            },
            'leave.confirm': async () => {
              await h.ux.click(within(screen.getByRole('alertdialog', { name: 'Leave this page?' })).getByRole('button', { name: 'Leave without saving' }));
            },
          },
        });
      });
    }
  });
}
