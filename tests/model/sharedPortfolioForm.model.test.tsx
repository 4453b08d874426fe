import { act, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import { FORM_MESSAGES } from '../../src/machines/sharedPortfolioForm/sharedForm.ts';
import {
  sharedPortfolioFormMachine,
  type SharedPortfolioFormEvent,
} from '../../src/machines/sharedPortfolioForm/sharedPortfolioFormMachine.ts';
import type { SharedPortfolioLoadOutput } from '../../src/machines/sharedPortfolioLoad/sharedPortfolioLoadMachine.ts';
import type { SharedPortfolioSaveOutput } from '../../src/machines/sharedPortfolioSave/sharedPortfolioSaveMachine.ts';
import { readDraft } from '../../src/services/drafts.ts';
import { currentUser } from '../../src/services/session.ts';
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
  draftOffer,
  expectAlert,
  expectFormOpen,
  expectLoadFailed,
  expectUnavailable,
  field,
  FIELD_LABELS,
  lee,
  missing,
  notEmpty,
  offline,
  portfolio,
  saveButton,
  setup,
  template,
  type Harness,
} from './support/sharedPortfolioFormPage.tsx';
import {
  loadedOf,
  loadOutputs,
  mayEdit,
  saveRefusal,
  SCENARIOS,
  type Scenario,
} from './support/sharedPortfolioFormScenarios.ts';

/*
 * The form around its fields: loading and access, Cancel, leaving with or without changes, saving
 * and deleting. What the fields say (fields.changed, form.invalid, form.valid) is a model event here,
 * made by the gesture that makes the fields say it; the fields themselves have their own model test
 * (sharedPortfolioFields.model.test.tsx).
 */
trackCoverage(sharedPortfolioFormMachine);

type Snapshot = SnapshotFrom<typeof sharedPortfolioFormMachine>;
type Step = { event: unknown; state: unknown };

/**
 * The events of the model in a state: on the freshly loaded form, Cancel, Delete, a link, an empty
 * Save (create) and the scenario's change; once changed, a link and Save; and the answers of
 * whatever the state invokes.
 */
function eventsFor(scenario: Scenario) {
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
    // How loading and saving get to their ends is the children's model tests'.
    const load = (output: SharedPortfolioLoadOutput) => ({ type: 'xstate.done.actor.sharedPortfolioLoad', output });
    const save = (output: SharedPortfolioSaveOutput) => ({ type: 'xstate.done.actor.sharedPortfolioSave', output });
    list.push(
      ...answers('sharedPortfolioLoad', ...loadOutputs(scenario).map(load)),
      ...answers(
        'sharedPortfolioSave',
        save({ kind: 'saved', id: scenario.input.mode === 'create' ? created.id : 9 }),
        save({ kind: 'refused', message: saveRefusal(scenario).message }),
      ),
      ...answers('deleteSharedPortfolio', { type: 'xstate.done.actor.deleteSharedPortfolio', output: deletedItem }),
      ...answers('deleteSharedPortfolio', { type: 'xstate.error.actor.deleteSharedPortfolio', error: notEmpty }),
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
  loadFailed: async (s) => expectLoadFailed(s.context.error!.message),
  unavailable: async (s) => expectUnavailable(s.context.problem!),
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
    expectFormOpen();
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
  saving: async (s) => {
    expect(saveButton().getAttribute('aria-busy')).toBe('true');
    expect(field(FIELD_LABELS.name).disabled).toBe(true);
    if (s.context.mode === 'edit')
      expect((screen.getByRole('button', { name: 'Delete Shared Portfolio' }) as HTMLButtonElement).disabled).toBe(
        true,
      );
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
    if (event.type.startsWith('xstate.error')) expectAlert((event.error as Error).message);
  };
}

/** The loading child's request, answered so that loading ends as the step says. */
async function settleLoad(scenario: Scenario, step: Step) {
  const { output } = step.event as { output: SharedPortfolioLoadOutput };
  const create = scenario.input.mode === 'create';
  const call = create ? h.fakes.fetchTemplate.next() : h.fakes.fetchSharedPortfolio.next();
  expect(call.input).toEqual(create ? undefined : { id: 9 });
  const answer =
    output.kind === 'failed'
      ? { error: offline }
      : output.kind === 'loaded' || !mayEdit(scenario)
        ? { output: create ? template : loadedOf(scenario) }
        : { error: missing };
  await answerAsStep(call, {
    event: 'error' in answer ? { type: 'xstate.error.actor', ...answer } : { type: 'xstate.done.actor', ...answer },
  });
}

/** The saving child's request (with the body the fields handed over), answered as the step says. */
async function settleSave(scenario: Scenario, step: Step) {
  const { output } = step.event as { output: SharedPortfolioSaveOutput };
  const body = (step.state as Snapshot).context.body;
  const create = scenario.input.mode === 'create';
  const call = create ? h.fakes.createSharedPortfolio.next() : h.fakes.updateSharedPortfolio.next();
  expect(call.input).toEqual(create ? { body } : { id: 9, body });
  const refused = output.kind === 'refused';
  await answerAsStep(call, {
    event: refused
      ? { type: 'xstate.error.actor', error: saveRefusal(scenario) }
      : { type: 'xstate.done.actor', output: create ? created : { ...created, id: 9 } },
  });
  if (refused) expectAlert(output.message);
}

/** The draft of the scenario being tested, if it has one. */
let draftOf: string | null = null;
let h: Harness;

afterEach(() => {
  clearToasts();
  localStorage.clear();
  currentUser.value = null;
});

const label = (event: { type: string; error?: Error; output?: { kind?: string } }) =>
  `${stepLabel(event.type)}${event.error ? ` (${event.error.message.slice(0, 40)})` : ''}${event.output?.kind ? ` (${event.output.kind})` : ''}`;

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
            'xstate.done.actor.sharedPortfolioLoad': (step) => settleLoad(scenario, step),
            'xstate.done.actor.sharedPortfolioSave': (step) => settleSave(scenario, step),
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
