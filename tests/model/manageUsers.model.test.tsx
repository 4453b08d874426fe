import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { SnapshotFrom } from 'xstate';
import { manageUsersMachine, type ManageUsersEvent } from '../../src/machines/manageUsers/manageUsersMachine.ts';
import { provideManageUsers } from '../../src/machines/manageUsers/provideManageUsers.ts';
import { ManageUsersActorContext } from '../../src/machines/manageUsers/useManageUsers.ts';
import type { SignInMethodList } from '../../src/schemas/sso.ts';
import type { CreateUserBody, Me, User } from '../../src/schemas/user.ts';
import { NetworkError } from '../../src/services/errors.ts';
import { Toaster } from '../../src/views/feedback/Toaster.tsx';
import { clearToasts, notify } from '../../src/views/feedback/toastStore.ts';
import { ManageUsersPage } from '../../src/views/pages/ManageUsersPage.tsx';
import { coverageInspector, createPathModel, modelEvents } from './support/coverage.ts';
import { backupWritten } from './support/backupFixtures.ts';
import { controllableActor } from './support/deferred.ts';
import { trackCoverage } from './support/report.ts';
import { makeUser } from './support/users.ts';

trackCoverage(manageUsersMachine);

type Snapshot = SnapshotFrom<typeof manageUsersMachine>;
type Step = { event: unknown };

const rita = makeUser('researcher', { id: 4001, username: 'Rita Researcher' });
const tess = makeUser('teacher', { id: 4002, username: 'Tess Teacher' });
const lee = makeUser('plcLead', { id: 4003, username: 'Lee Lead' });
const created = makeUser('teacher', { id: 4004, username: 'Mo Member', email: 'mo@example.org' });
const offline = new NetworkError();
const defect = new Error('The dialog broke.');

const userEvents: ManageUsersEvent[] = [{ type: 'retry' }, { type: 'user.created', user: created }];
const actorEvents = {
  listUsers: [
    { type: 'xstate.done.actor.listUsers', output: [tess, rita, lee] },
    { type: 'xstate.error.actor.listUsers', error: offline },
  ],
  createUserDialog: [{ type: 'xstate.error.actor.createUserDialog', error: defect }],
  signInMethodsDialog: [{ type: 'xstate.error.actor.signInMethodsDialog', error: defect }],
} as unknown as Record<string, ManageUsersEvent[]>;

function setup(currentUser: Me) {
  const listUsers = controllableActor<User[]>();
  const setUserBlocked = controllableActor<User, { id: number; blocked: boolean }>();
  const createUser = controllableActor<User, CreateUserBody>();
  const listSignInMethods = controllableActor<SignInMethodList, { userId: number }>();
  const unlinkIdentity = controllableActor<SignInMethodList, { userId: number; identityId: number }>();
  const flags = { dialogBroken: false };
  const logic = provideManageUsers({
    notify: ({ message, tone }) => {
      // Stands for a defect in an outward effect, which makes the dialog actor fail.
      if (flags.dialogBroken) throw defect;
      notify(message, tone);
    },
    actors: {
      listUsers: listUsers.logic,
      setUserBlocked: setUserBlocked.logic,
      createUser: createUser.logic,
      fetchBackupStatus: backupWritten,
      listSignInMethods: listSignInMethods.logic,
      unlinkIdentity: unlinkIdentity.logic,
    },
  });
  render(
    <>
      <ManageUsersActorContext.Provider logic={logic} options={{ input: { currentUser }, inspect: coverageInspector }}>
        <ManageUsersPage />
      </ManageUsersActorContext.Provider>
      <Toaster />
    </>,
  );
  return { listUsers, createUser, listSignInMethods, unlinkIdentity, flags, ux: userEvent.setup() };
}

/** Unlinks Tess's school account through the sign-in methods dialog. */
async function unlinkThroughDialog(h: ReturnType<typeof setup>) {
  const identity = {
    id: 81,
    provider: 'school',
    label: 'Springfield Schools',
    email: tess.email,
    linked_at: '2026-11-02T09:30:00.000Z',
  };
  await h.ux.click(screen.getByRole('button', { name: `Sign-in methods: ${tess.username}` }));
  await act(async () => h.listSignInMethods.next().deferred.resolve({ password: true, identities: [identity] }));
  const dialog = screen.getByRole('dialog', { name: `Sign-in methods: ${tess.username}` });
  await h.ux.click(within(dialog).getByRole('button', { name: `Unlink Springfield Schools (${tess.email})` }));
  await h.ux.click(within(dialog).getByRole('button', { name: 'Unlink' }));
  await act(async () => h.unlinkIdentity.next().deferred.resolve({ password: true, identities: [] }));
}

/** Fills and sends the Create New User form with the user's details. */
async function createThroughDialog(h: ReturnType<typeof setup>, user: User) {
  await h.ux.click(screen.getByRole('button', { name: 'Create New User' }));
  const dialog = screen.getByRole('dialog', { name: 'Create New User' });
  await h.ux.type(within(dialog).getByLabelText('User Name'), user.username);
  await h.ux.type(within(dialog).getByLabelText('Email'), user.email);
  await h.ux.selectOptions(within(dialog).getByLabelText('Role'), user.role.name);
  await h.ux.click(within(dialog).getByRole('button', { name: 'Create' }));
  await act(async () => h.createUser.next().deferred.resolve(user));
}

/** Researchers see the last backup whatever the list does; nobody else is shown it. */
async function backupCardShown() {
  const card = await screen.findByRole('status', { name: 'Scheduled backups' });
  await waitFor(() => expect(card.textContent).toContain('Last backup: November 29, 2026 2:31am UTC'));
}

/** Every state has a DOM assertion; a state without one fails the path. */
const stateChecks: Record<string, (s: Snapshot) => Promise<void>> = {
  denied: async () => {
    expect(screen.getByRole('heading', { level: 1, name: 'Manage Users' })).toBeTruthy();
    expect(screen.getByText('Only researchers can manage users.')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.queryByRole('button')).toBeNull();
    expect(screen.queryByRole('status', { name: 'Scheduled backups' })).toBeNull();
  },
  loading: async () => {
    expect(await screen.findByRole('status', { name: 'Loading users' })).toBeTruthy();
    expect(screen.queryByRole('switch')).toBeNull();
    expect((screen.getByRole('button', { name: 'Create New User' }) as HTMLButtonElement).disabled).toBe(true);
    await backupCardShown();
  },
  loadFailed: async (s) => {
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('The users could not be loaded')).toBeTruthy();
    expect(within(alert).getByText(s.context.error!.message)).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
    await backupCardShown();
  },
  ready: async (s) => {
    const table = await screen.findByRole('table', { name: 'Users' });
    // The table shows the machine's rows, in its order, and highlights the one just created.
    await waitFor(() => {
      const names = within(table)
        .getAllByRole('switch')
        .map((sw) => sw.getAttribute('aria-label'));
      expect(names).toEqual(s.context.rows.map((row) => `Active: ${row.username}`));
    });
    const highlighted = [...table.querySelectorAll('tr[data-highlight]')].map(
      (tr) => tr.querySelector('td')?.textContent,
    );
    expect(highlighted).toEqual(
      s.context.createdId ? [s.context.rows.find((r) => r.id === s.context.createdId)!.username] : [],
    );
    expect((screen.getByRole('button', { name: 'Create New User' }) as HTMLButtonElement).disabled).toBe(false);
    expect(screen.queryByRole('dialog')).toBeNull();
    await backupCardShown();
  },
};

async function checkState(snapshot: unknown) {
  const s = snapshot as Snapshot;
  const keys = Object.keys(stateChecks).filter((key) => s.matches(key as never));
  expect(keys, `a DOM check for ${JSON.stringify(s.value)}`).not.toEqual([]);
  for (const key of keys) await stateChecks[key]!(s);
}

afterEach(() => clearToasts());

for (const currentUser of [rita, tess]) {
  describe(`manage users model (signed in as ${currentUser.role.name})`, () => {
    const model = createPathModel(manageUsersMachine, {
      input: { currentUser },
      events: modelEvents(userEvents, actorEvents),
    });
    for (const path of model.getShortestPaths()) {
      it(`${path.description}`, async () => {
        const h = setup(currentUser);
        await path.test({
          states: { '*': checkState },
          events: {
            'xstate.done.actor.listUsers': async (step: Step) => {
              const { output } = step.event as { output: User[] };
              await act(async () => h.listUsers.next().deferred.resolve(output));
            },
            'xstate.error.actor.listUsers': async (step: Step) => {
              const { error } = step.event as { error: unknown };
              await act(async () => h.listUsers.next().deferred.reject(error));
            },
            retry: async () => {
              await h.ux.click(screen.getByRole('button', { name: 'Try again' }));
            },
            'user.created': async (step: Step) => {
              const { user } = step.event as { user: User };
              await createThroughDialog(h, user);
              expect(await screen.findByText(`User ${user.username} successfully created.`)).toBeTruthy();
            },
            'xstate.error.actor.createUserDialog': async () => {
              h.flags.dialogBroken = true;
              await createThroughDialog(
                h,
                makeUser('teacher', { id: 4999, username: 'Zed Zero', email: 'zed@example.org' }),
              );
            },
            'xstate.error.actor.signInMethodsDialog': async () => {
              h.flags.dialogBroken = true;
              await unlinkThroughDialog(h);
            },
          },
        });
      });
    }
  });
}
