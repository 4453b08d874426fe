import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { SharedPortfolioFormInput } from '../../src/machines/sharedPortfolioForm/sharedPortfolioFormMachine.ts';
import {
  sharedPortfolioSaveMachine,
  type SharedPortfolioSaveInput,
} from '../../src/machines/sharedPortfolioSave/sharedPortfolioSaveMachine.ts';
import { clearToasts } from '../../src/views/feedback/toastStore.ts';
import { checkStates } from './support/checkStates.ts';
import { modelEvents } from './support/coverage.ts';
import { answerAsStep } from './support/deferred.ts';
import { checkedShortestPaths, pathName, stepLabel } from './support/paths.ts';
import { trackCoverage } from './support/report.ts';
import {
  CREATE_INPUT,
  created,
  EDIT_INPUT,
  expectAlert,
  expectFormOpen,
  invalidOnServer,
  offline,
  saveButton,
  setupLoaded,
  type Harness,
} from './support/sharedPortfolioFormPage.tsx';
import { TYPED } from './support/sharedPortfolioFormScenarios.ts';

/*
 * The save of the shared portfolio form (the form invokes it with the body its fields handed over):
 * a new one is created, an edited one updated, and the server may refuse, as the page shows it.
 */
trackCoverage(sharedPortfolioSaveMachine);
afterEach(clearToasts);

type Snapshot = ReturnType<typeof sharedPortfolioSaveMachine.getInitialSnapshot>;
type Step = { event: unknown };

const MODES: {
  name: string;
  input: SharedPortfolioFormInput;
  /** The field typed before Save, and the body it makes. */
  change: (typeof TYPED)['create'];
}[] = [
  { name: 'a new shared portfolio', input: CREATE_INPUT, change: TYPED.create },
  { name: 'an edited one', input: EDIT_INPUT, change: TYPED.edit },
];

const actorEvents = {
  createSharedPortfolio: [
    { type: 'xstate.done.actor.createSharedPortfolio', output: created },
    { type: 'xstate.error.actor.createSharedPortfolio', error: invalidOnServer },
    { type: 'xstate.error.actor.createSharedPortfolio', error: offline },
  ],
  updateSharedPortfolio: [
    { type: 'xstate.done.actor.updateSharedPortfolio', output: { ...created, id: 9 } },
    { type: 'xstate.error.actor.updateSharedPortfolio', error: invalidOnServer },
    { type: 'xstate.error.actor.updateSharedPortfolio', error: offline },
  ],
} as unknown as Record<string, never[]>;

let h: Harness;

const label = (event: { type: string; error?: Error }) =>
  `${stepLabel(event.type)}${event.error ? ` (${event.error.message.slice(0, 40)})` : ''}`;

const checks: Record<string, (s: Snapshot) => Promise<void> | void> = {
  choosing: () => {
    throw new Error('choosing is transient: a path never rests there');
  },
  // One request with the fields' body; the form waits.
  creating: ({ context }) => {
    expect(saveButton().getAttribute('aria-busy')).toBe('true');
    expect(h.fakes.createSharedPortfolio.calls.map((c) => c.input)).toEqual([{ body: context.body }]);
    expect(h.fakes.updateSharedPortfolio.calls).toEqual([]);
  },
  updating: ({ context }) => {
    expect(saveButton().getAttribute('aria-busy')).toBe('true');
    expect(h.fakes.updateSharedPortfolio.calls.map((c) => c.input)).toEqual([{ id: 9, body: context.body }]);
    expect(h.fakes.createSharedPortfolio.calls).toEqual([]);
  },
  // The user is told, and the saved portfolio opens.
  saved: ({ context }) => {
    const created_ = context.mode === 'create';
    expect(
      screen.getByText(created_ ? 'Successfully created shared portfolio' : 'Successfully edited shared portfolio'),
    ).toBeTruthy();
    expect(h.navigateToSharedPortfolio.mock.calls).toEqual([[created_ ? created.id : 9]]);
  },
  // The reason is told and shown at the top of the form, which can be changed and saved again.
  refused: ({ context }) => {
    const message = context.output!.kind === 'refused' ? context.output!.message : '';
    expectAlert(message);
    expect(document.querySelector('[data-error-summary]')!.textContent).toContain(message);
    expectFormOpen();
    expect(h.navigateToSharedPortfolio).not.toHaveBeenCalled();
  },
};
const states = checkStates<Snapshot>(checks);

const events = {
  'xstate.done.actor.createSharedPortfolio': (step: Step) => answerAsStep(h.fakes.createSharedPortfolio.next(), step),
  'xstate.error.actor.createSharedPortfolio': (step: Step) => answerAsStep(h.fakes.createSharedPortfolio.next(), step),
  'xstate.done.actor.updateSharedPortfolio': (step: Step) => answerAsStep(h.fakes.updateSharedPortfolio.next(), step),
  'xstate.error.actor.updateSharedPortfolio': (step: Step) => answerAsStep(h.fakes.updateSharedPortfolio.next(), step),
};

for (const mode of MODES) {
  describe(`sharedPortfolioSave model (${mode.name})`, () => {
    const input: SharedPortfolioSaveInput = {
      mode: mode.input.mode,
      sharedPortfolioId: mode.input.sharedPortfolioId,
      body: mode.change.body,
    };
    const paths = checkedShortestPaths(
      sharedPortfolioSaveMachine,
      { input, events: modelEvents([], actorEvents) },
      checks,
      1,
    );
    for (const path of paths) {
      it(`${pathName(path, label)}`, async () => {
        // The form loads, a field is typed, and Save hands the body to the save.
        h = await setupLoaded(mode.input);
        await mode.change.gesture(h);
        await h.ux.click(saveButton());
        await path.test({ states, events });
        // The save asked once and was answered: no request waits.
        expect([...h.fakes.createSharedPortfolio.calls, ...h.fakes.updateSharedPortfolio.calls]).toEqual([]);
      });
    }
  });
}
