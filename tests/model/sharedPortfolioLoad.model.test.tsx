import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { SharedPortfolioFormInput } from '../../src/machines/sharedPortfolioForm/sharedPortfolioFormMachine.ts';
import {
  sharedPortfolioLoadMachine,
  type SharedPortfolioLoadInput,
} from '../../src/machines/sharedPortfolioLoad/sharedPortfolioLoadMachine.ts';
import { clearToasts } from '../../src/views/feedback/toastStore.ts';
import { checkStates } from './support/checkStates.ts';
import { modelEvents } from './support/coverage.ts';
import { answerAsStep } from './support/deferred.ts';
import { checkedShortestPaths, pathName } from './support/paths.ts';
import { trackCoverage } from './support/report.ts';
import {
  asMember,
  CREATE_INPUT,
  EDIT_INPUT,
  expectFormOpen,
  expectLoadFailed,
  expectUnavailable,
  field,
  FIELD_LABELS,
  missing,
  offline,
  portfolio,
  setup,
  template,
  type Harness,
} from './support/sharedPortfolioFormPage.tsx';

/*
 * Loading the shared portfolio form (the form invokes it once the user may open the page): the
 * template's questions for a new one, the portfolio for an edit, and every way it can end, as the
 * page shows it.
 */
trackCoverage(sharedPortfolioLoadMachine);
afterEach(clearToasts);

type Snapshot = ReturnType<typeof sharedPortfolioLoadMachine.getInitialSnapshot>;
type Step = { event: unknown };

const MODES: { name: string; input: SharedPortfolioFormInput & SharedPortfolioLoadInput }[] = [
  { name: 'a new shared portfolio', input: CREATE_INPUT },
  { name: 'editing one', input: EDIT_INPUT },
];

const actorEvents = {
  fetchTemplate: [
    { type: 'xstate.done.actor.fetchTemplate', output: template },
    { type: 'xstate.error.actor.fetchTemplate', error: missing },
    { type: 'xstate.error.actor.fetchTemplate', error: offline },
  ],
  fetchSharedPortfolio: [
    { type: 'xstate.done.actor.fetchSharedPortfolio', output: portfolio },
    { type: 'xstate.done.actor.fetchSharedPortfolio', output: asMember },
    { type: 'xstate.error.actor.fetchSharedPortfolio', error: missing },
    { type: 'xstate.error.actor.fetchSharedPortfolio', error: offline },
  ],
} as unknown as Record<string, never[]>;

let h: Harness;

const loadingShown = () => screen.queryByRole('status', { name: 'Loading shared portfolio' }) !== null;

const checks: Record<string, (s: Snapshot) => Promise<void> | void> = {
  choosing: () => {
    throw new Error('choosing is transient: a path never rests there');
  },
  // One request, for the template or for the portfolio of the address; the page waits.
  template: () => {
    expect(loadingShown()).toBe(true);
    expect(h.fakes.fetchTemplate.calls).toHaveLength(1);
    expect(h.fakes.fetchSharedPortfolio.calls).toEqual([]);
  },
  sharedPortfolio: () => {
    expect(loadingShown()).toBe(true);
    expect(h.fakes.fetchSharedPortfolio.calls.map((c) => c.input)).toEqual([{ id: 9 }]);
    expect(h.fakes.fetchTemplate.calls).toEqual([]);
  },
  // The form opens with what was loaded.
  loaded: ({ context }) => {
    expect(loadingShown()).toBe(false);
    expectFormOpen();
    expect(field(FIELD_LABELS.name).value).toBe(context.mode === 'create' ? '' : portfolio.name);
    expect(screen.queryByRole('button', { name: 'Edit Participants' }) !== null).toBe(context.mode === 'edit');
  },
  unavailable: ({ context }) => {
    expectUnavailable(context.output!.kind === 'unavailable' ? context.output!.problem : '');
  },
  // Try again loads afresh.
  failed: () => expectLoadFailed(offline.message),
};
const states = checkStates<Snapshot>(checks);

const events = {
  'xstate.done.actor.fetchTemplate': (step: Step) => answerAsStep(h.fakes.fetchTemplate.next(), step),
  'xstate.error.actor.fetchTemplate': (step: Step) => answerAsStep(h.fakes.fetchTemplate.next(), step),
  'xstate.done.actor.fetchSharedPortfolio': (step: Step) => answerAsStep(h.fakes.fetchSharedPortfolio.next(), step),
  'xstate.error.actor.fetchSharedPortfolio': (step: Step) => answerAsStep(h.fakes.fetchSharedPortfolio.next(), step),
};

for (const mode of MODES) {
  describe(`sharedPortfolioLoad model (${mode.name})`, () => {
    const paths = checkedShortestPaths(
      sharedPortfolioLoadMachine,
      {
        input: { mode: mode.input.mode, sharedPortfolioId: mode.input.sharedPortfolioId },
        events: modelEvents([], actorEvents),
      },
      checks,
      1,
    );
    for (const path of paths) {
      it(`${pathName(path)}`, async () => {
        h = setup(mode.input);
        await path.test({ states, events });
        // Loading asked once and was answered: no request waits.
        expect([...h.fakes.fetchTemplate.calls, ...h.fakes.fetchSharedPortfolio.calls]).toEqual([]);
      });
    }
  });
}
