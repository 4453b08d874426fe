import { act, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import {
  buildBody,
  EMPTY_VALUES,
  FORM_MESSAGES,
  parseFormDraft,
  restoredRows,
  rowsForCreate,
  rowsForEdit,
  valuesOf,
} from '../../src/machines/sharedPortfolioForm/sharedForm.ts';
import {
  sharedPortfolioFormMachine,
  type SharedPortfolioFormEvent,
  type SharedPortfolioFormInput,
} from '../../src/machines/sharedPortfolioForm/sharedPortfolioFormMachine.ts';
import type { SharedPortfolio, SharedPortfolioBody } from '../../src/schemas/sharedPortfolio.ts';
import { readDraft } from '../../src/services/drafts.ts';
import { currentUser } from '../../src/services/session.ts';
import { SHARED_PORTFOLIO_ABILITIES } from '../../src/test/abilityFixtures.ts';
import { clearToasts } from '../../src/views/feedback/toastStore.ts';
import { DELETE_NOT_EMPTY_NOTE } from '../../src/views/shared/form/SharedPortfolioForm.tsx';
import { isInvoking } from './support/coverage.ts';
import { answerAsStep } from './support/deferred.ts';
import { checkedShortestPaths, pathName, stepLabel } from './support/paths.ts';
import { trackCoverage } from './support/report.ts';
import {
  created,
  deletedItem,
  describedBy,
  DRAFT_FORM,
  DRAFT_STORED,
  draftOffer,
  expectAlert,
  field,
  FIELD_LABELS,
  invalidOnServer,
  lee,
  missing,
  notEmpty,
  offline,
  portfolio,
  portfolioWithArtifact,
  replaceText,
  saveButton,
  setup,
  template,
  TEMPLATE,
  tess,
  type Harness,
} from './support/sharedPortfolioFormPage.tsx';

/*
 * The form around its fields: loading and access, Cancel, leaving with or without changes, saving
 * and deleting. What the fields say (fields.changed, form.invalid, form.valid) is a model event here,
 * made by the gesture that makes the fields say it; the fields themselves have their own model test
 * (sharedPortfolioFields.model.test.tsx).
 */
trackCoverage(sharedPortfolioFormMachine);

type Snapshot = SnapshotFrom<typeof sharedPortfolioFormMachine>;
type Step = { event: unknown; state: unknown };

interface Scenario {
  name: string;
  input: SharedPortfolioFormInput;
  /** The portfolio the server gives (edit). */
  loaded?: SharedPortfolio;
  /** A draft of the form kept in the browser before the page opens. */
  draft?: string;
  /** The gesture that changes the fields, and the body they then send. */
  change?: { gesture: (h: Harness) => Promise<void>; body: SharedPortfolioBody };
}

const draft = parseFormDraft(DRAFT_STORED)!;

const SCENARIOS: Scenario[] = [
  {
    name: 'create, as a PLC lead',
    input: { mode: 'create', sharedPortfolioId: null, currentUser: lee },
    change: {
      gesture: (h) => replaceText(h.ux, field(FIELD_LABELS.name), 'Team'),
      body: buildBody({ ...EMPTY_VALUES, name: 'Team' }, rowsForCreate(TEMPLATE)),
    },
  },
  { name: 'create, as a teacher', input: { mode: 'create', sharedPortfolioId: null, currentUser: tess } },
  {
    name: 'edit, as the owner',
    input: { mode: 'edit', sharedPortfolioId: 9, currentUser: lee },
    change: {
      gesture: (h) => replaceText(h.ux, field(FIELD_LABELS.plcName), 'Science PLC'),
      body: buildBody({ ...valuesOf(portfolio), plcName: 'Science PLC' }, rowsForEdit(portfolio)),
    },
  },
  {
    name: 'edit, a draft left by a reload',
    input: { mode: 'edit', sharedPortfolioId: 9, currentUser: lee },
    draft: DRAFT_STORED,
    change: {
      gesture: (h) => h.ux.click(within(draftOffer()!).getByRole('button', { name: 'Restore' })),
      body: buildBody(draft.values, restoredRows(rowsForEdit(portfolio), draft.rows)),
    },
  },
  {
    name: 'edit, a portfolio with artifacts',
    input: { mode: 'edit', sharedPortfolioId: 9, currentUser: lee },
    loaded: portfolioWithArtifact,
  },
  {
    name: 'edit, as a member who is not the owner',
    input: { mode: 'edit', sharedPortfolioId: 9, currentUser: tess },
    loaded: { ...portfolio, abilities: SHARED_PORTFOLIO_ABILITIES.member },
  },
  { name: 'edit, from an address without an id', input: { mode: 'edit', sharedPortfolioId: null, currentUser: lee } },
];

/**
 * The events of the model in a state: on the freshly loaded form, Cancel, Delete, a link, an empty
 * Save (create) and the scenario's change; once changed, a link and Save; and the answers of
 * whatever the state invokes.
 */
function eventsFor(scenario: Scenario) {
  const loaded =
    scenario.input.mode === 'create'
      ? { type: 'xstate.done.actor.fetchTemplate', output: template }
      : { type: 'xstate.done.actor.fetchSharedPortfolio', output: scenario.loaded ?? portfolio };
  return (snapshot: unknown): SharedPortfolioFormEvent[] => {
    const s = snapshot as Snapshot;
    const c = s.context;
    const list: unknown[] = [];
    const fresh = c.refusals === 0 && c.saveError === null;
    if (s.matches('editing') && fresh && !c.unsaved) {
      list.push({ type: 'form.cancel' }, { type: 'portfolio.delete' }, { type: 'leave.request' });
      if (scenario.input.mode === 'create') list.push({ type: 'form.invalid' });
      if (scenario.change) list.push({ type: 'fields.changed', unsaved: true });
    }
    if (s.matches('editing') && fresh && c.unsaved && scenario.change)
      list.push({ type: 'leave.request' }, { type: 'form.valid', body: scenario.change.body });
    if (s.matches('confirmingLeave')) list.push({ type: 'leave.stay' }, { type: 'leave.confirm' });
    if (s.matches('confirmingDelete')) list.push({ type: 'delete.confirm' }, { type: 'delete.cancel' });
    if (s.matches('loadFailed')) list.push({ type: 'retry' });
    const answers = (id: string, ...events: unknown[]) => (isInvoking(s, id) ? events : []);
    const failures = (id: string, ...errors: Error[]) =>
      answers(id, ...errors.map((error) => ({ type: `xstate.error.actor.${id}`, error })));
    list.push(
      ...answers('fetchTemplate', loaded),
      ...failures('fetchTemplate', missing, offline),
      ...answers('fetchSharedPortfolio', loaded),
      ...failures('fetchSharedPortfolio', missing, offline),
      ...answers('createSharedPortfolio', { type: 'xstate.done.actor.createSharedPortfolio', output: created }),
      ...failures('createSharedPortfolio', invalidOnServer),
      ...answers('updateSharedPortfolio', {
        type: 'xstate.done.actor.updateSharedPortfolio',
        output: { ...created, id: 9 },
      }),
      ...failures('updateSharedPortfolio', offline),
      ...answers('deleteSharedPortfolio', { type: 'xstate.done.actor.deleteSharedPortfolio', output: deletedItem }),
      ...failures('deleteSharedPortfolio', notEmpty),
    );
    return (list as SharedPortfolioFormEvent[]).filter((event) => s.can(event));
  };
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
    const c = s.context;
    // A draft is offered when the form opens, until it is put back.
    if (draftOf && !c.unsaved)
      expect(draftOffer()!.querySelector('p')!.textContent).toMatch(
        /^Restore your unsaved text from \d{1,2}:\d\d[ap]m\?$/,
      );
    else expect(draftOffer()).toBeNull();
    // A refusal by the form's checks shows the messages; a refusal by the server says why at the top.
    expect(describedBy(field(FIELD_LABELS.name))).toBe(
      c.refusals > 0 && c.saveError === null ? FORM_MESSAGES.nameRequired : undefined,
    );
    if (c.saveError) expect(document.querySelector('[data-error-summary]')!.textContent).toContain(c.saveError);
    else if (c.refusals === 0) expect(document.querySelector('[data-error-summary]')).toBeNull();
    expect(saveButton().disabled).toBe(false);
    expect(field(FIELD_LABELS.name).disabled).toBe(false);
    expect(screen.queryByRole('alertdialog')).toBeNull();
    const edit = c.mode === 'edit';
    // Delete only while the portfolio holds no artifacts; otherwise the page says why.
    const deletable = edit && c.sharedPortfolio!.sharedArtifacts.length === 0;
    expect(screen.queryByRole('button', { name: 'Delete Shared Portfolio' }) !== null).toBe(deletable);
    expect(screen.queryByText(DELETE_NOT_EMPTY_NOTE) !== null).toBe(edit && !deletable);
    expect(screen.queryByRole('button', { name: 'Edit Participants' }) !== null).toBe(edit);
    expect(screen.queryByText(/You can share this portfolio with participants after it is created/) !== null).toBe(
      !edit,
    );
  },
  confirmingDelete: async () => {
    const question = screen.getByRole('alertdialog', { name: 'Delete Shared Portfolio' });
    expect(within(question).getByText(`Do you want to delete ${portfolio.name}?`)).toBeTruthy();
    expect((within(question).getByRole('button', { name: 'YES' }) as HTMLButtonElement).disabled).toBe(false);
  },
  creating: async () => {
    expect(saveButton().getAttribute('aria-busy')).toBe('true');
    expect(field(FIELD_LABELS.name).disabled).toBe(true);
  },
  updating: async () => {
    expect(saveButton().getAttribute('aria-busy')).toBe('true');
    expect((screen.getByRole('button', { name: 'Delete Shared Portfolio' }) as HTMLButtonElement).disabled).toBe(true);
  },
  deleting: async () => {
    const question = screen.getByRole('alertdialog', { name: 'Delete Shared Portfolio' });
    expect((within(question).getByRole('button', { name: 'YES' }) as HTMLButtonElement).disabled).toBe(true);
  },
  confirmingLeave: async () => {
    const question = screen.getByRole('alertdialog', { name: 'Leave this page?' });
    expect(question.textContent).toContain('Your changes are not saved.');
    expect(h.location.history.at(-1)).toBe(h.location.history[0]);
  },
  leaving: async () => {
    expect(screen.getByText('Another page')).toBeTruthy();
    expect(h.location.history.at(-1)).toBe('/dashboard');
  },
  saved: async (s) => {
    const message =
      s.context.mode === 'create' ? 'Successfully created shared portfolio' : 'Successfully edited shared portfolio';
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

/** Settles the view's one open request of a fake actor as the model's event says. */
function settle(name: keyof Harness['fakes'], checkInput: (input: never, s: Snapshot) => void = () => undefined) {
  return async (step: Step) => {
    const event = step.event as { type: string; error?: unknown };
    const call = h.fakes[name].next();
    expect(h.fakes[name].calls).toEqual([]);
    checkInput(call.input as never, step.state as Snapshot);
    await answerAsStep(call, step);
    if (event.type.startsWith('xstate.error') && name !== 'fetchTemplate' && name !== 'fetchSharedPortfolio') {
      expectAlert((event.error as Error).message);
    }
  };
}

/** The draft of the scenario being tested, if it has one. */
let draftOf: string | null = null;
let h: Harness;

afterEach(() => {
  clearToasts();
  localStorage.clear();
  currentUser.value = null;
});

const label = (event: { type: string; error?: Error }) =>
  `${stepLabel(event.type)}${event.error ? ` (${event.error.message.slice(0, 40)})` : ''}`;

for (const scenario of SCENARIOS) {
  describe(`shared portfolio form model (${scenario.name})`, () => {
    const paths = checkedShortestPaths(
      sharedPortfolioFormMachine,
      { input: scenario.input, events: eventsFor(scenario) },
      { '*': checkState },
      0,
    );
    for (const path of paths) {
      it(`${pathName(path, label)}`, async () => {
        draftOf = scenario.draft ?? null;
        h = setup(scenario.input, scenario.draft);
        await path.test({
          states: { '*': checkState },
          events: {
            'xstate.done.actor.fetchTemplate': settle('fetchTemplate'),
            'xstate.error.actor.fetchTemplate': settle('fetchTemplate'),
            'xstate.done.actor.fetchSharedPortfolio': settle('fetchSharedPortfolio', (input: { id: number }) =>
              expect(input).toEqual({ id: 9 }),
            ),
            'xstate.error.actor.fetchSharedPortfolio': settle('fetchSharedPortfolio'),
            'xstate.done.actor.createSharedPortfolio': settle(
              'createSharedPortfolio',
              (input: { body: SharedPortfolioBody }, s) => expect(input.body).toEqual(s.context.body),
            ),
            'xstate.error.actor.createSharedPortfolio': settle('createSharedPortfolio'),
            'xstate.done.actor.updateSharedPortfolio': settle(
              'updateSharedPortfolio',
              (input: { id: number; body: SharedPortfolioBody }, s) =>
                expect(input).toEqual({ id: 9, body: s.context.body }),
            ),
            'xstate.error.actor.updateSharedPortfolio': settle('updateSharedPortfolio'),
            'xstate.done.actor.deleteSharedPortfolio': settle('deleteSharedPortfolio', (input: { id: number }) =>
              expect(input).toEqual({ id: 9 }),
            ),
            'xstate.error.actor.deleteSharedPortfolio': settle('deleteSharedPortfolio'),
            retry: async () => {
              await h.ux.click(screen.getByRole('button', { name: 'Try again' }));
            },
            'fields.changed': async () => {
              await scenario.change!.gesture(h);
            },
            'form.invalid': async () => {
              await h.ux.click(saveButton());
            },
            'form.valid': async () => {
              await h.ux.click(saveButton());
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
              await h.ux.click(
                within(screen.getByRole('alertdialog', { name: 'Leave this page?' })).getByRole('button', {
                  name: 'Stay on this page',
                }),
              );
            },
            'leave.confirm': async () => {
              await h.ux.click(
                within(screen.getByRole('alertdialog', { name: 'Leave this page?' })).getByRole('button', {
                  name: 'Leave without saving',
                }),
              );
            },
          },
        });
      });
    }
  });
}
