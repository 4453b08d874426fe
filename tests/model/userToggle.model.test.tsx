import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { fromPromise, type SnapshotFrom } from 'xstate';
import { provideManageUsers } from '../../src/machines/manageUsers/provideManageUsers.ts';
import { ManageUsersActorContext } from '../../src/machines/manageUsers/useManageUsers.ts';
import { userToggleMachine, type UserToggleEvent } from '../../src/machines/userToggle/userToggleMachine.ts';
import type { User } from '../../src/schemas/user.ts';
import { ApiError } from '../../src/services/errors.ts';
import { Toaster } from '../../src/views/feedback/Toaster.tsx';
import { clearToasts, notify } from '../../src/views/feedback/toastStore.ts';
import { ManageUsersPage } from '../../src/views/pages/ManageUsersPage.tsx';
import { coverageInspector, createPathModel, modelEvents } from './support/coverage.ts';
import { backupWritten } from './support/backupFixtures.ts';
import { controllableActor } from './support/deferred.ts';
import { trackCoverage } from './support/report.ts';
import { makeUser } from './support/users.ts';

// The switch of one row on Manage Users (a child actor of the page's machine), driven through that row.
trackCoverage(userToggleMachine);

type Snapshot = SnapshotFrom<typeof userToggleMachine>;
type Step = { event: unknown };

const rita = makeUser('researcher', { id: 5001, username: 'Rita Researcher' });
const tess = makeUser('teacher', { id: 5002, username: 'Tess Teacher' });
const refused = new ApiError(404, 'not_found', 'User not found.', '');

/** The server answers with the account as asked for, or refuses. */
function events(snapshot: unknown): UserToggleEvent[] {
  const { user } = (snapshot as Snapshot).context;
  return modelEvents<UserToggleEvent>([{ type: 'user.toggle' }], {
    setUserBlocked: [
      { type: 'xstate.done.actor.setUserBlocked', output: { ...user, blocked: !user.blocked } },
      { type: 'xstate.error.actor.setUserBlocked', error: refused },
    ] as unknown as UserToggleEvent[],
  })(snapshot);
}

function setup() {
  const setUserBlocked = controllableActor<User, { id: number; blocked: boolean }>();
  const logic = provideManageUsers({
    notify: ({ message, tone }) => notify(message, tone),
    actors: {
      listUsers: fromPromise<User[]>(async () => [rita, tess]),
      setUserBlocked: setUserBlocked.logic,
      fetchBackupStatus: backupWritten,
    },
  });
  render(
    <>
      <ManageUsersActorContext.Provider
        logic={logic}
        options={{ input: { currentUser: rita }, inspect: coverageInspector }}
      >
        <ManageUsersPage />
      </ManageUsersActorContext.Provider>
      <Toaster />
    </>,
  );
  return { setUserBlocked, ux: userEvent.setup() };
}

const tessSwitch = () => screen.findByRole('switch', { name: 'Active: Tess Teacher' });
const tessRow = async () => (await tessSwitch()).closest('tr')!;

const stateChecks: Record<string, (s: Snapshot) => Promise<void>> = {
  idle: async (s) => {
    const control = await tessSwitch();
    expect(control.getAttribute('aria-checked')).toBe(String(!s.context.user.blocked));
    expect(control.getAttribute('aria-disabled')).toBeNull();
    expect(within(await tessRow()).queryByRole('status')).toBeNull();
    expect(within(await tessRow()).queryByText('Not saved')).toBeNull();
  },
  saving: async (s) => {
    const control = await tessSwitch();
    expect(screen.getByRole('status', { name: 'Updating Tess Teacher' })).toBeTruthy();
    // The switch already shows the value asked for, and cannot be flipped again meanwhile.
    expect(control.getAttribute('aria-checked')).toBe(String(!s.context.pendingBlocked));
    expect(control.getAttribute('aria-disabled')).toBe('true');
  },
  failed: async (s) => {
    const control = await tessSwitch();
    expect(control.getAttribute('aria-checked')).toBe(String(!s.context.user.blocked));
    expect(control.getAttribute('aria-disabled')).toBeNull();
    expect(within(await tessRow()).getByText('Not saved')).toBeTruthy();
    expect(within(await tessRow()).queryByRole('status')).toBeNull();
    expect(screen.getAllByRole('alert').at(-1)?.textContent).toContain(refused.message);
  },
};

async function checkState(snapshot: unknown) {
  const s = snapshot as Snapshot;
  const keys = Object.keys(stateChecks).filter((key) => s.matches(key as never));
  expect(keys, `a DOM check for ${JSON.stringify(s.value)}`).not.toEqual([]);
  for (const key of keys) await stateChecks[key]!(s);
}

afterEach(() => clearToasts());

describe('user toggle model (another user’s row)', () => {
  const model = createPathModel(userToggleMachine, { input: { user: tess, isSelf: false }, events });
  for (const path of model.getShortestPaths()) {
    it(`${path.description}`, async () => {
      const h = setup();
      await path.test({
        states: { '*': checkState },
        events: {
          'user.toggle': async () => {
            await h.ux.click(await tessSwitch());
          },
          'xstate.done.actor.setUserBlocked': async (step: Step) => {
            const call = h.setUserBlocked.next();
            const { output } = step.event as { output: User };
            expect(call.input).toEqual({ id: tess.id, blocked: output.blocked });
            await act(async () => call.deferred.resolve(output));
          },
          'xstate.error.actor.setUserBlocked': async (step: Step) => {
            const { error } = step.event as { error: unknown };
            await act(async () => h.setUserBlocked.next().deferred.reject(error));
          },
        },
      });
    });
  }
});

describe('user toggle model (own row)', () => {
  const model = createPathModel(userToggleMachine, { input: { user: rita, isSelf: true }, events });
  for (const path of model.getShortestPaths()) {
    it(`${path.description}`, async () => {
      const h = setup();
      await path.test({
        states: {
          '*': async () => {
            const own = await screen.findByRole('switch', { name: 'Active: Rita Researcher' });
            expect(own.getAttribute('aria-disabled')).toBe('true');
            expect(own.getAttribute('title')).toBe('You cannot deactivate your own account');
            await h.ux.click(own);
            expect(own.getAttribute('aria-checked')).toBe('true');
            expect(h.setUserBlocked.calls).toEqual([]);
          },
        },
        events: {},
      });
    });
  }
});
