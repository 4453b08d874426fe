import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import { leaveSharedMachine, type LeaveSharedEvent } from '../../src/machines/leaveShared/leaveSharedMachine.ts';
import type { SharedPortfolio } from '../../src/schemas/sharedPortfolio.ts';
import { ApiError } from '../../src/services/errors.ts';
import { signOut } from '../../src/services/session.ts';
import {
  accounts,
  FakeSharedApi,
  makeSharedPortfolio,
  people,
  renderSharedPortfolios,
} from '../../src/test/sharedHarness.tsx';
import { clearToasts } from '../../src/views/feedback/toastStore.ts';
import { checkStates } from './support/checkStates.ts';
import { assertEveryStateChecked, coverageInspector, createPathModel, modelEvents } from './support/coverage.ts';
import { controllableActor } from './support/deferred.ts';
import { trackCoverage } from './support/report.ts';

trackCoverage(leaveSharedMachine);
afterEach(() => {
  clearToasts();
  signOut();
});

type Snapshot = SnapshotFrom<typeof leaveSharedMachine>;

const PLC = makeSharedPortfolio({ id: 9, members: [people.lee, people.tess, people.theo], sharedArtifacts: [] });
const CIRCLE = makeSharedPortfolio({
  id: 12,
  name: 'Engineering Design Circle',
  members: [people.lee, people.theo],
  sharedArtifacts: [],
});
const QUESTION =
  'Are you sure you want to end your membership in this Shared Portfolio? You will no longer be able to access artifacts or see comments uploaded to the portfolio.';
const refused = new ApiError(404, 'not_found', 'Shared portfolio not found.', '');

const userEvents: LeaveSharedEvent[] = [{ type: 'leave.ask' }, { type: 'leave.confirm' }, { type: 'leave.cancel' }];
const actorEvents = {
  leaveSharedPortfolio: [
    { type: 'xstate.done.actor.leaveSharedPortfolio', output: PLC },
    { type: 'xstate.error.actor.leaveSharedPortfolio', error: refused },
  ],
} as unknown as Record<string, LeaveSharedEvent[]>;

function setup() {
  const api = new FakeSharedApi([PLC, CIRCLE]);
  const leave = controllableActor<SharedPortfolio, { sharedPortfolioId: number }>();
  const rendered = renderSharedPortfolios({
    // Theo, a teacher who is a member.
    path: '/shared-portfolios/9',
    user: accounts.theo,
    api,
    fakes: { leave: { leaveSharedPortfolio: leave.logic } },
    inspect: { leave: coverageInspector },
  });
  return { ...rendered, leave };
}

let h: ReturnType<typeof setup>;

const summary = () => screen.getByRole('region', { name: 'Grades 5–7 Science PLC' });
const leaveButton = () => within(summary()).getByRole('button', { name: 'Leave' }) as HTMLButtonElement;
const dialog = () => screen.getByRole('alertdialog', { name: 'Leave Shared Portfolio' });

const checks = {
  idle: async () => {
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(leaveButton().disabled).toBe(false);
    expect(h.where()).toBe('/shared-portfolios/9');
  },
  confirming: () => {
    expect(dialog().textContent).toContain(QUESTION);
    expect((within(dialog()).getByRole('button', { name: 'YES' }) as HTMLButtonElement).disabled).toBe(false);
    expect(h.leave.calls).toHaveLength(0);
  },
  leaving: () => {
    expect((within(dialog()).getByRole('button', { name: 'YES' }) as HTMLButtonElement).disabled).toBe(true);
    expect((within(dialog()).getByRole('button', { name: 'NO' }) as HTMLButtonElement).disabled).toBe(true);
    expect(leaveButton().disabled).toBe(true);
    expect(h.leave.calls.map((c) => c.input)).toEqual([{ sharedPortfolioId: 9 }]);
  },
  left: async () => {
    expect(await screen.findByText('You left Grades 5–7 Science PLC.')).toBeTruthy();
    await waitFor(() => expect(h.where()).toBe('/shared-portfolios'));
    const select = screen.getByRole('combobox', { name: 'Select Shared Portfolio' }) as HTMLSelectElement;
    expect([...select.options].map((o) => o.textContent)).toEqual([
      'Select a shared portfolio',
      'Engineering Design Circle',
    ]);
    expect(screen.queryByRole('region', { name: 'Grades 5–7 Science PLC' })).toBeNull();
  },
};

describe('leaveShared model (Leave on the Shared Portfolios summary)', () => {
  const model = createPathModel(leaveSharedMachine, {
    input: { sharedPortfolioId: 9, name: PLC.name },
    events: modelEvents(userEvents, actorEvents),
  });
  const paths = model.getShortestPaths();
  it('has a view check for every state', () => {
    assertEveryStateChecked(leaveSharedMachine, checks);
    expect(paths.length).toBeGreaterThanOrEqual(3);
  });
  for (const path of paths) {
    const steps = path.steps
      .map((s) =>
        s.event.type.replace(/^xstate\.(done|error)\.actor\./, (_, kind: string) => (kind === 'done' ? '✓ ' : '✗ ')),
      )
      .filter((t) => t !== 'xstate.init');
    it(`reaches ${JSON.stringify(path.state.value)}: ${steps.join(' → ') || 'start'}`, async () => {
      h = setup();
      await screen.findByRole('region', { name: 'Grades 5–7 Science PLC' });
      await path.test({
        states: checkStates<Snapshot>(checks),
        events: {
          'leave.ask': async () => {
            await h.ux.click(leaveButton());
          },
          'leave.confirm': async () => {
            await h.ux.click(within(dialog()).getByRole('button', { name: 'YES' }));
          },
          'leave.cancel': async () => {
            await h.ux.click(within(dialog()).getByRole('button', { name: 'NO' }));
          },
          'xstate.done.actor.leaveSharedPortfolio': async () => {
            await act(async () => h.leave.next().deferred.resolve(PLC));
          },
          'xstate.error.actor.leaveSharedPortfolio': async () => {
            await act(async () => h.leave.next().deferred.reject(refused));
            await waitFor(() =>
              expect(screen.getAllByRole('alert').some((a) => a.textContent?.includes(refused.message))).toBe(true),
            );
            expect(h.where()).toBe('/shared-portfolios/9');
          },
        },
      });
    });
  }
});
