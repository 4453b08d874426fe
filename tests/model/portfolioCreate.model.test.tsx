import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { fromPromise, type SnapshotFrom } from 'xstate';
import { provideDashboard } from '../../src/machines/dashboard/provideDashboard.ts';
import { DashboardActorContext } from '../../src/machines/dashboard/useDashboard.ts';
import {
  checkNewPortfolio,
  EMPTY_NEW_PORTFOLIO,
  type NewPortfolioValues,
} from '../../src/machines/portfolioCreate/newPortfolioForm.ts';
import {
  portfolioCreateMachine,
  type PortfolioCreateEvent,
} from '../../src/machines/portfolioCreate/portfolioCreateMachine.ts';
import type { Portfolio, PortfolioCreateBody } from '../../src/schemas/portfolio.ts';
import type { SharedPortfolioListItem } from '../../src/schemas/sharedPortfolio.ts';
import type { Invitation } from '../../src/schemas/invitation.ts';
import { ApiError } from '../../src/services/errors.ts';
import { listItemOf, makePortfolio } from '../../src/test/portfolioHarness.tsx';
import { Toaster } from '../../src/views/feedback/Toaster.tsx';
import { clearToasts, notify } from '../../src/views/feedback/toastStore.ts';
import { DashboardPage } from '../../src/views/pages/DashboardPage.tsx';
import { assertEveryStateChecked, coverageInspector, createPathModel, modelEvents } from './support/coverage.ts';
import { controllableActor } from './support/deferred.ts';
import { trackCoverage } from './support/report.ts';

// The add row runs as a child of the dashboard; the paths drive it there, on the real page.
trackCoverage(portfolioCreateMachine);
afterEach(() => clearToasts());

type Snapshot = SnapshotFrom<typeof portfolioCreateMachine>;
type Step = { event: unknown };

const existing = makePortfolio({ id: 5, name: 'Forces and Motion', created_at: '2026-01-10T15:00:00.000Z' });
const refused = new ApiError(400, 'validation_error', 'The name must be at most 200 characters.', '');

/**
 * What the user enters, in this order: a topic, a grade and a subject (changes that leave a
 * refused name refused), a blank name, then a name with spaces around it. Offering only the next
 * entry keeps the model small while still reaching every message and every transition.
 */
const FILL: readonly PortfolioCreateEvent[] = [
  { type: 'field.change', field: 'topic', value: ' Maps ' },
  { type: 'grades.change', grades: ['K'] },
  { type: 'field.change', field: 'subject', value: 'History' },
  { type: 'field.change', field: 'name', value: '   ' },
  { type: 'field.change', field: 'name', value: '  Field Notes  ' },
];
const STAGES: NewPortfolioValues[] = FILL.reduce<NewPortfolioValues[]>(
  (list, event) => {
    const last = list.at(-1)!;
    const next =
      event.type === 'grades.change'
        ? { ...last, grades: event.grades }
        : event.type === 'field.change'
          ? { ...last, [event.field]: event.value }
          : last;
    return [...list, next];
  },
  [EMPTY_NEW_PORTFOLIO],
);

function events(snapshot: unknown): PortfolioCreateEvent[] {
  const s = snapshot as Snapshot;
  const stage = STAGES.findIndex((v) => JSON.stringify(v) === JSON.stringify(s.context.values));
  const next = FILL[stage];
  // A second refused Save only moves the focus again: once is enough.
  const submit: PortfolioCreateEvent[] =
    s.matches('invalid') && s.context.refusals > 1 ? [] : [{ type: 'form.submit' }];
  return modelEvents<PortfolioCreateEvent>(
    [{ type: 'create.open' }, { type: 'form.cancel' }, ...submit, ...(next ? [next] : [])],
    {
      createPortfolio: [
        { type: 'xstate.done.actor.createPortfolio' },
        { type: 'xstate.error.actor.createPortfolio', error: refused },
      ] as unknown as PortfolioCreateEvent[],
    },
  )(snapshot);
}

function setup() {
  const createPortfolio = controllableActor<Portfolio, PortfolioCreateBody>();
  const logic = provideDashboard({
    notify: ({ message, tone }) => notify(message, tone),
    actors: {
      listPortfolios: fromPromise(async () => [listItemOf(existing)]),
      listSharedPortfolios: fromPromise<SharedPortfolioListItem[]>(async () => []),
      listInvitations: fromPromise<Invitation[]>(async () => []),
      createPortfolio: createPortfolio.logic,
    },
  });
  const location = memoryLocation({ path: '/dashboard', record: true });
  render(
    <Router hook={location.hook}>
      <DashboardActorContext.Provider
        logic={logic}
        options={{ input: { ownPortfolios: true }, inspect: coverageInspector }}
      >
        <DashboardPage />
      </DashboardActorContext.Provider>
      <Toaster />
    </Router>,
  );
  return { createPortfolio, ux: userEvent.setup(), created: 0 };
}

type Harness = ReturnType<typeof setup>;

const table = () => screen.getByRole('table', { name: 'My Portfolios' });
const row = () => within(table()).getByRole('form', { name: 'Add Portfolio' });
const control = (label: string) => within(row()).getByLabelText(label) as HTMLInputElement | HTMLSelectElement;
const nameField = () => within(row()).getByRole('textbox', { name: 'Portfolio Name' }) as HTMLInputElement;
const GRADE_TEXT: Record<string, string> = { K: 'Kindergarten' };

/** The Add Portfolio button, once My Portfolios has loaded. */
async function addButton(): Promise<HTMLButtonElement> {
  // While the list loads a disabled stand-in holds its place.
  return waitFor(() => {
    const button = screen.getByRole('button', { name: 'Add Portfolio' }) as HTMLButtonElement;
    expect(button.disabled).toBe(false);
    return button;
  });
}

/** The row shows the machine's values and exactly its messages. */
function expectRow(s: Snapshot) {
  const { values, errors } = s.context;
  expect(nameField().value).toBe(values.name);
  expect(control('Subject').value).toBe(values.subject);
  expect(control('Portfolio Topic').value).toBe(values.topic);
  const grades = within(row()).getByRole('button', { name: /^Grade Levels/ });
  expect(grades.textContent).toBe(
    values.grades.length > 0 ? values.grades.map((g) => GRADE_TEXT[g]).join(', ') : 'None selected',
  );
  expect(within(row()).queryByText('A name is required.') !== null).toBe(errors.name === 'A name is required.');
  expect(nameField().getAttribute('aria-invalid')).toBe(errors.name ? 'true' : null);
}

/** The view each state must show; `h` is the rendered path. */
const stateChecks = (h: Harness): Record<string, (s: Snapshot) => Promise<void>> => ({
  closed: async () => {
    expect((await addButton()).disabled).toBe(false);
    expect(within(table()).queryByRole('form', { name: 'Add Portfolio' })).toBeNull();
  },
  editing: async (s) => {
    expectRow(s);
    expect(screen.queryByRole('button', { name: 'Add Portfolio' })).toBeNull();
    const save = within(row()).getByRole('button', { name: 'Save' }) as HTMLButtonElement;
    expect(save.disabled).toBe(false);
    expect(save.getAttribute('aria-busy')).toBeNull();
    expect(nameField().disabled).toBe(false);
  },
  invalid: async (s) => {
    expectRow(s);
    expect(within(row()).getByText('A name is required.')).toBeTruthy();
    // Nothing was sent.
    expect(h.createPortfolio.calls).toEqual([]);
  },
  saving: async (s) => {
    expectRow(s);
    const save = within(row()).getByRole('button', { name: 'Save' }) as HTMLButtonElement;
    expect(save.getAttribute('aria-busy')).toBe('true');
    expect((within(row()).getByRole('button', { name: 'Cancel' }) as HTMLButtonElement).disabled).toBe(true);
    expect(nameField().disabled).toBe(true);
    expect(within(row()).getByText('Saving the portfolio…')).toBeTruthy();
    expect(h.createPortfolio.calls).toHaveLength(1);
  },
});
assertEveryStateChecked(portfolioCreateMachine, stateChecks(null as never));

describe('portfolio create model', () => {
  // The graph is built without the dashboard around the row, so there is no parent to report to.
  const model = createPathModel(portfolioCreateMachine.provide({ actions: { reportAdded: () => undefined } }), {
    events,
  });
  const paths = model.getShortestPaths();
  it('has paths to every state', () => {
    expect(paths.length).toBeGreaterThan(10);
  });
  for (const path of paths) {
    const steps = path.steps
      .map(({ event }) =>
        event.type === 'field.change' ? `field.change(${(event as unknown as { field: string }).field})` : event.type,
      )
      .join(' → ');
    it(`reaches ${JSON.stringify(path.state.value)}: ${steps}`, async () => {
      const harness = setup();
      const checks = stateChecks(harness);
      let last: Snapshot | null = null;
      // The row starts closed (the paths check only the states after each step).
      await checks.closed!(
        portfolioCreateMachine.resolveState({
          value: 'closed',
          context: { values: EMPTY_NEW_PORTFOLIO, errors: {}, refusals: 0 },
        }),
      );
      await path.test({
        states: Object.fromEntries(
          Object.entries(checks).map(([key, check]) => [
            key,
            async (state: unknown) => {
              last = state as Snapshot;
              await check(last);
            },
          ]),
        ),
        events: {
          'create.open': async () => {
            await harness.ux.click(await addButton());
          },
          'form.cancel': async () => {
            await harness.ux.click(within(row()).getByRole('button', { name: 'Cancel' }));
          },
          'form.submit': async (step: Step & { state: unknown }) => {
            await harness.ux.click(within(row()).getByRole('button', { name: 'Save' }));
            // A refused Save takes the user back to the name, however often it is pressed.
            const refusedSave = (step.state as Snapshot).matches('invalid');
            await waitFor(() => expect(document.activeElement === nameField()).toBe(refusedSave));
          },
          'field.change': async (step: Step) => {
            const { field, value } = step.event as Extract<PortfolioCreateEvent, { type: 'field.change' }>;
            if (field === 'subject') {
              await harness.ux.selectOptions(control('Subject'), value);
              return;
            }
            const input = field === 'name' ? nameField() : control('Portfolio Topic');
            await harness.ux.clear(input);
            await harness.ux.type(input, value);
          },
          'grades.change': async () => {
            await harness.ux.click(within(row()).getByRole('button', { name: /^Grade Levels/ }));
            await harness.ux.click(within(row()).getByRole('checkbox', { name: 'Kindergarten' }));
            await harness.ux.keyboard('{Escape}');
          },
          'xstate.done.actor.createPortfolio': async () => {
            const call = harness.createPortfolio.next();
            // What was typed, checked and trimmed: the name without its spaces, no subject or topic when empty.
            const { body } = checkNewPortfolio(last!.context.values);
            expect(call.input).toEqual(body);
            expect(call.input.name).toBe('Field Notes');
            harness.created += 1;
            const portfolio = makePortfolio({
              id: 700 + harness.created,
              name: call.input.name,
              created_at: `2026-04-0${harness.created}T15:00:00.000Z`,
              grades: [...(call.input.grades ?? [])],
              subject: call.input.subject ?? null,
              topic: call.input.topic ?? null,
            });
            await act(async () => call.deferred.resolve(portfolio));
            // The table shows the new portfolio at once (newest first, highlighted), and the user is told.
            const first = within(table()).getAllByRole('row')[1]!;
            expect(within(first).getByRole('link', { name: 'Field Notes' }).getAttribute('href')).toBe(
              `/my-portfolios/${portfolio.id}`,
            );
            expect(first.hasAttribute('data-highlight')).toBe(true);
            expect(await screen.findByText('Successfully created portfolio')).toBeTruthy();
          },
          'xstate.error.actor.createPortfolio': async (step: Step) => {
            const { error } = step.event as { error: unknown };
            await act(async () => harness.createPortfolio.next().deferred.reject(error));
            expect((await screen.findByRole('alert')).textContent).toContain(refused.message);
          },
        },
      });
    });
  }
});
