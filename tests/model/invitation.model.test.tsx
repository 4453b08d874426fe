import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SimulatedClock, type SnapshotFrom } from 'xstate';
import { invitationMachine, type InvitationEvent } from '../../src/machines/invitation/invitationMachine.ts';
import { InvitationActorContext } from '../../src/machines/invitation/useInvitation.ts';
import type { Invitation } from '../../src/schemas/invitation.ts';
import type { SharedPortfolio } from '../../src/schemas/sharedPortfolio.ts';
import { ApiError, NetworkError } from '../../src/services/errors.ts';
import { makeInvitation, makeSharedArtifact, makeSharedPortfolio } from '../../src/test/sharedFixtures.ts';
import { Toaster } from '../../src/views/feedback/Toaster.tsx';
import { clearToasts, notify } from '../../src/views/feedback/toastStore.ts';
import { InvitationPage } from '../../src/views/pages/InvitationPage.tsx';
import { coverageInspector, createPathModel, modelEvents } from './support/coverage.ts';
import { answerAsStep, controllableActor } from './support/deferred.ts';
import { trackCoverage } from './support/report.ts';

trackCoverage(invitationMachine);

type Snapshot = SnapshotFrom<typeof invitationMachine>;
type Step = { event: unknown };

/** A readable test name: where the path ends and the gestures, answers and timers that lead there. */
function pathTitle(path: { state: { value: unknown }; steps: readonly { event: unknown }[] }): string {
  const steps = path.steps
    .map((step) => step.event as { type: string; error?: Error })
    .filter((event) => event.type !== 'xstate.init')
    .map((event) => {
      const type = event.type
        .replace(/^xstate\.(done|error)\.actor\./, (_, kind: string) => (kind === 'done' ? '✓ ' : '✗ '))
        .replace(/^xstate\.after\.redirectDelay\..*$/, '1 s later');
      return `${type}${event.error ? ` (${event.error.message})` : ''}`;
    });
  return `${JSON.stringify(path.state.value)} ← ${steps.join(' → ') || 'start'}`;
}

// Small fixtures: the model's states (and so the test names) carry them.
const slim = { structure: [], templateStructure: [] };
const invitation = makeInvitation({ sharedPortfolio: { ...makeInvitation().sharedPortfolio, ...slim } });
const portfolio = makeSharedPortfolio({
  ...slim,
  sharedArtifacts: [makeSharedArtifact({ structure: [], responses: { artifactName: 'Ramp race' } })],
});
const missing = new ApiError(404, 'not_found', 'Invitation not found.', '');
const offline = new NetworkError();
const refused = new ApiError(400, 'bad_request', 'This invitation was already answered.', '');
const REDIRECT_MS = 1000;
const TITLE = `Invitation to Join ${invitation.sharedPortfolio.name}`;

const userEvents: InvitationEvent[] = [
  { type: 'invitation.accept' },
  { type: 'invitation.delete' },
  { type: 'delete.confirm' },
  { type: 'delete.cancel' },
  { type: 'retry' },
  // The redirect timers: the model takes them like a user step, the path advances the clock.
  ...([
    { type: 'xstate.after.redirectDelay.invitation.accepted' },
    { type: 'xstate.after.redirectDelay.invitation.deleted' },
  ] as unknown as InvitationEvent[]),
];
const actorEvents = {
  fetchInvitation: [
    { type: 'xstate.done.actor.fetchInvitation', output: invitation },
    { type: 'xstate.error.actor.fetchInvitation', error: missing },
    { type: 'xstate.error.actor.fetchInvitation', error: offline },
  ],
  fetchSharedPortfolio: [
    { type: 'xstate.done.actor.fetchSharedPortfolio', output: portfolio },
    { type: 'xstate.error.actor.fetchSharedPortfolio', error: offline },
  ],
  acceptInvitation: [
    { type: 'xstate.done.actor.acceptInvitation', output: portfolio },
    { type: 'xstate.error.actor.acceptInvitation', error: refused },
  ],
  deleteInvitation: [
    { type: 'xstate.done.actor.deleteInvitation', output: invitation },
    { type: 'xstate.error.actor.deleteInvitation', error: offline },
  ],
} as unknown as Record<string, InvitationEvent[]>;

function setup(invitationId: number | null) {
  const fakes = {
    fetchInvitation: controllableActor<Invitation, { id: number }>(),
    fetchSharedPortfolio: controllableActor<SharedPortfolio, { id: number }>(),
    acceptInvitation: controllableActor<SharedPortfolio, { id: number }>(),
    deleteInvitation: controllableActor<Invitation, { id: number }>(),
  };
  const clock = new SimulatedClock();
  const navigateToDashboard = vi.fn<() => void>();
  const logic = invitationMachine.provide({
    actions: { notify: (_, { message, tone }) => notify(message, tone), navigateToDashboard },
    delays: { redirectDelay: REDIRECT_MS },
    actors: {
      fetchInvitation: fakes.fetchInvitation.logic,
      fetchSharedPortfolio: fakes.fetchSharedPortfolio.logic,
      acceptInvitation: fakes.acceptInvitation.logic,
      deleteInvitation: fakes.deleteInvitation.logic,
    },
  });
  render(
    <>
      <InvitationActorContext.Provider
        logic={logic}
        options={{ input: { invitationId }, inspect: coverageInspector, clock }}
      >
        <InvitationPage />
      </InvitationActorContext.Provider>
      <Toaster />
    </>,
  );
  return { fakes, clock, navigateToDashboard, ux: userEvent.setup({ delay: null }) };
}

type Harness = ReturnType<typeof setup>;
let h: Harness;

const button = (name: string) => screen.getByRole('button', { name }) as HTMLButtonElement;

/** The summary and the artifacts of a loaded invitation. */
function expectInvitation() {
  expect(screen.getByRole('heading', { level: 1, name: TITLE })).toBeTruthy();
  expect(screen.getByText('Lee Lead (lead@example.org)')).toBeTruthy();
  expect(within(screen.getByRole('table', { name: 'Artifacts' })).getByText('Ramp race')).toBeTruthy();
}

/** Every state has a DOM assertion; a state without one fails the path. */
const stateChecks: Record<string, (s: Snapshot) => Promise<void>> = {
  loading: async () => {
    expect(screen.getByRole('status', { name: 'Loading invitation' })).toBeTruthy();
    expect(screen.queryByRole('button')).toBeNull();
  },
  loadFailed: async (s) => {
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText(s.context.error!.message)).toBeTruthy();
    expect(within(alert).getByRole('button', { name: 'Try again' })).toBeTruthy();
  },
  notFound: async () => {
    expect(screen.getByText('Invitation not found.')).toBeTruthy();
    expect(screen.queryByRole('button')).toBeNull();
    expect(screen.queryByRole('table')).toBeNull();
  },
  pending: async () => {
    expectInvitation();
    expect(button('Accept Invitation').disabled).toBe(false);
    expect(button('Delete Invitation').disabled).toBe(false);
    expect(screen.queryByRole('alertdialog')).toBeNull();
  },
  confirmingDelete: async () => {
    const question = screen.getByRole('alertdialog', { name: 'Delete Invitation' });
    expect(within(question).getByText('Are you sure you want to delete this invitation?')).toBeTruthy();
    expect((within(question).getByRole('button', { name: 'YES' }) as HTMLButtonElement).disabled).toBe(false);
  },
  accepting: async () => {
    expectInvitation();
    expect(button('Accept Invitation').getAttribute('aria-busy')).toBe('true');
    expect(button('Delete Invitation').disabled).toBe(true);
  },
  deleting: async () => {
    const question = screen.getByRole('alertdialog', { name: 'Delete Invitation' });
    expect((within(question).getByRole('button', { name: 'YES' }) as HTMLButtonElement).disabled).toBe(true);
    expect((within(question).getByRole('button', { name: 'NO' }) as HTMLButtonElement).disabled).toBe(true);
  },
  accepted: async () => {
    expect(screen.getByText('Successfully accepted invitation')).toBeTruthy();
    expect(button('Accept Invitation').disabled).toBe(true);
    expect(button('Delete Invitation').disabled).toBe(true);
    expect(h.navigateToDashboard).not.toHaveBeenCalled();
  },
  deleted: async () => {
    expect(screen.getByText('Successfully deleted invitation')).toBeTruthy();
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(button('Accept Invitation').disabled).toBe(true);
    expect(h.navigateToDashboard).not.toHaveBeenCalled();
  },
  finished: async () => {
    expect(h.navigateToDashboard).toHaveBeenCalledTimes(1);
  },
};

async function checkState(snapshot: unknown) {
  const s = snapshot as Snapshot;
  const keys = Object.keys(stateChecks).filter((key) => s.matches(key as never));
  expect(keys, `a DOM check for ${JSON.stringify(s.value)}`).not.toEqual([]);
  for (const key of keys) await stateChecks[key]!(s);
}

/** Settles the oldest call of a fake actor as the model's event says, and checks what the page asked. */
function settle(name: keyof Harness['fakes'], expectedInput: unknown) {
  return async (step: Step) => {
    const call = h.fakes[name].next();
    expect(call.input).toEqual(expectedInput);
    await answerAsStep(call, step);
  };
}

afterEach(() => clearToasts());

for (const invitationId of [21, null]) {
  describe(`invitation model (${invitationId === null ? 'an address without an id' : `invitation ${invitationId}`})`, () => {
    const model = createPathModel(invitationMachine, {
      input: { invitationId },
      events: modelEvents(userEvents, actorEvents),
    });
    for (const path of model.getShortestPaths()) {
      it(`${pathTitle(path)}`, async () => {
        h = setup(invitationId);
        await path.test({
          states: { '*': checkState },
          events: {
            'xstate.done.actor.fetchInvitation': settle('fetchInvitation', { id: 21 }),
            'xstate.error.actor.fetchInvitation': settle('fetchInvitation', { id: 21 }),
            'xstate.done.actor.fetchSharedPortfolio': settle('fetchSharedPortfolio', {
              id: invitation.sharedPortfolio.id,
            }),
            'xstate.error.actor.fetchSharedPortfolio': settle('fetchSharedPortfolio', {
              id: invitation.sharedPortfolio.id,
            }),
            'xstate.done.actor.acceptInvitation': settle('acceptInvitation', { id: 21 }),
            'xstate.error.actor.acceptInvitation': settle('acceptInvitation', { id: 21 }),
            'xstate.done.actor.deleteInvitation': settle('deleteInvitation', { id: 21 }),
            'xstate.error.actor.deleteInvitation': settle('deleteInvitation', { id: 21 }),
            'invitation.accept': async () => {
              await h.ux.click(button('Accept Invitation'));
            },
            'invitation.delete': async () => {
              await h.ux.click(button('Delete Invitation'));
            },
            'delete.confirm': async () => {
              await h.ux.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'YES' }));
            },
            'delete.cancel': async () => {
              await h.ux.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'NO' }));
            },
            retry: async () => {
              await h.ux.click(screen.getByRole('button', { name: 'Try again' }));
            },
            'xstate.after.redirectDelay.invitation.accepted': async () => {
              act(() => h.clock.increment(REDIRECT_MS - 1));
              expect(h.navigateToDashboard).not.toHaveBeenCalled();
              act(() => h.clock.increment(1));
            },
            'xstate.after.redirectDelay.invitation.deleted': async () => {
              act(() => h.clock.increment(REDIRECT_MS - 1));
              expect(h.navigateToDashboard).not.toHaveBeenCalled();
              act(() => h.clock.increment(1));
            },
          },
        });
        // The page never asked twice: at most the request of the state the path ends in is open.
        for (const fake of Object.values(h.fakes)) expect(fake.calls.length).toBeLessThanOrEqual(1);
      });
    }
  });
}
