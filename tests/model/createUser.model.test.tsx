import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { fromPromise, type SnapshotFrom } from 'xstate';
import { createUserMachine, type CreateUserEvent } from '../../src/machines/createUser/createUserMachine.ts';
import { EMPTY_NEW_USER, type NewUserField, type NewUserValues } from '../../src/machines/createUser/newUserForm.ts';
import { provideManageUsers } from '../../src/machines/manageUsers/provideManageUsers.ts';
import { ManageUsersActorContext } from '../../src/machines/manageUsers/useManageUsers.ts';
import type { CreateUserBody, User } from '../../src/schemas/user.ts';
import { ApiError } from '../../src/services/errors.ts';
import { Toaster } from '../../src/views/feedback/Toaster.tsx';
import { clearToasts, notify } from '../../src/views/feedback/toastStore.ts';
import { ManageUsersPage } from '../../src/views/pages/ManageUsersPage.tsx';
import { coverageInspector, createPathModel, modelEvents } from './support/coverage.ts';
import { backupWritten } from './support/backupFixtures.ts';
import { controllableActor } from './support/deferred.ts';
import { trackCoverage } from './support/report.ts';
import { makeUser } from './support/users.ts';

// The Create New User dialog runs as a child of the Manage Users page; the paths drive the dialog there.
trackCoverage(createUserMachine);

type Snapshot = SnapshotFrom<typeof createUserMachine>;
type Step = { event: unknown };

const rita = makeUser('researcher', { id: 6001, username: 'Rita Researcher' });
const tess = makeUser('teacher', { id: 6002, username: 'Tess Teacher' });
const taken = new ApiError(400, 'user_exists', 'User already exists.', '');
const ROLE_NAMES: Record<string, string> = { '1': 'Teacher', '3': 'PLC Lead', '4': 'Researcher' };

/**
 * What the user types, in this order: a name, a wrong e-mail, its correction, a role, and (after a
 * failure) a changed name. Offering only the next entry keeps the model small while still
 * reaching every message and every transition.
 */
const FILL: readonly { field: NewUserField; value: string }[] = [
  { field: 'username', value: 'Mo Member' },
  { field: 'email', value: 'mo@' },
  { field: 'email', value: 'mo@example.org' },
  { field: 'roleId', value: '3' },
  { field: 'username', value: 'Mo Members' },
];
const STAGES: NewUserValues[] = FILL.reduce<NewUserValues[]>(
  (list, step) => [...list, { ...list.at(-1)!, [step.field]: step.value }],
  [EMPTY_NEW_USER],
);

const userEvents: CreateUserEvent[] = [{ type: 'dialog.open' }, { type: 'dialog.cancel' }, { type: 'form.submit' }];

function events(snapshot: unknown): CreateUserEvent[] {
  const { values } = (snapshot as Snapshot).context;
  const stage = STAGES.findIndex((v) => JSON.stringify(v) === JSON.stringify(values));
  const next = FILL[stage];
  const created = makeUser('plcLead', { id: 6100 + stage, username: values.username.trim(), email: values.email });
  return modelEvents<CreateUserEvent>([...userEvents, ...(next ? [{ type: 'field.change' as const, ...next }] : [])], {
    createUser: [
      { type: 'xstate.done.actor.createUser', output: created },
      { type: 'xstate.error.actor.createUser', error: taken },
    ] as unknown as CreateUserEvent[],
  })(snapshot);
}

function setup() {
  const createUser = controllableActor<User, CreateUserBody>();
  const logic = provideManageUsers({
    notify: ({ message, tone }) => notify(message, tone),
    actors: {
      listUsers: fromPromise<User[]>(async () => [rita, tess]),
      createUser: createUser.logic,
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
  return { createUser, ux: userEvent.setup() };
}

const dialog = () => screen.getByRole('dialog', { name: 'Create New User' });
const field = (label: string) => within(dialog()).getByLabelText(label) as HTMLInputElement | HTMLSelectElement;
const FIELD_LABELS: Record<NewUserField, string> = { username: 'User Name', email: 'Email', roleId: 'Role' };

/** The form shows the machine's values, and exactly its messages. */
function expectForm(s: Snapshot) {
  for (const [name, label] of Object.entries(FIELD_LABELS) as [NewUserField, string][]) {
    const control = field(label);
    expect(control.value).toBe(s.context.values[name]);
    const message = s.context.errors[name];
    expect(control.getAttribute('aria-invalid')).toBe(message ? 'true' : null);
    const describedBy = control.getAttribute('aria-describedby');
    expect(describedBy ? document.getElementById(describedBy)?.textContent : undefined).toBe(message);
  }
}

const stateChecks: Record<string, (s: Snapshot) => Promise<void>> = {
  closed: async () => {
    // Queried each time: the page draws a new button once the list (and the dialog) are there.
    await waitFor(() =>
      expect((screen.getByRole('button', { name: 'Create New User' }) as HTMLButtonElement).disabled).toBe(false),
    );
    expect(screen.queryByRole('dialog')).toBeNull();
  },
  'open.form.editing': async (s) => {
    expectForm(s);
    expect(within(dialog()).queryByText('User creation failed. Please try again.')).toBeNull();
    expect(within(dialog()).queryByRole('status', { name: 'Creating user' })).toBeNull();
  },
  'open.form.failed': async (s) => {
    expectForm(s);
    expect(within(dialog()).getByText('User creation failed. Please try again.')).toBeTruthy();
    expect(screen.getAllByRole('alert').some((a) => a.textContent?.includes(taken.message))).toBe(true);
    expect((within(dialog()).getByRole('button', { name: 'Cancel' }) as HTMLButtonElement).disabled).toBe(false);
  },
  'open.submitting': async (s) => {
    expectForm(s);
    expect(within(dialog()).getByRole('status', { name: 'Creating user' })).toBeTruthy();
    expect((within(dialog()).getByRole('button', { name: 'Cancel' }) as HTMLButtonElement).disabled).toBe(true);
    expect(within(dialog()).getByRole('button', { name: 'Create' }).getAttribute('aria-disabled')).toBe('true');
  },
};

async function checkState(snapshot: unknown) {
  const s = snapshot as Snapshot;
  const keys = Object.keys(stateChecks).filter((key) => s.matches(key as never));
  expect(keys, `a DOM check for ${JSON.stringify(s.value)}`).not.toEqual([]);
  for (const key of keys) await stateChecks[key]!(s);
}

afterEach(() => clearToasts());

describe('create user model', () => {
  // The graph is built without the page around the dialog, so there is no parent to report to.
  const model = createPathModel(createUserMachine.provide({ actions: { reportCreated: () => undefined } }), { events });
  for (const path of model.getShortestPaths()) {
    it(`${path.description}`, async () => {
      const h = setup();
      await path.test({
        states: { '*': checkState },
        events: {
          'dialog.open': async () => {
            await h.ux.click(screen.getByRole('button', { name: 'Create New User' }));
          },
          'dialog.cancel': async () => {
            await h.ux.click(within(dialog()).getByRole('button', { name: 'Cancel' }));
          },
          'field.change': async (step: Step) => {
            const { field: name, value } = step.event as { field: NewUserField; value: string };
            const control = field(FIELD_LABELS[name]);
            if (control instanceof HTMLSelectElement) {
              await h.ux.selectOptions(control, ROLE_NAMES[value]!);
            } else {
              await h.ux.clear(control);
              await h.ux.type(control, value);
            }
          },
          'form.submit': async () => {
            await h.ux.click(within(dialog()).getByRole('button', { name: 'Create' }));
          },
          'xstate.done.actor.createUser': async (step: Step) => {
            const { output } = step.event as { output: User };
            const call = h.createUser.next();
            expect(call.input).toEqual({ username: output.username, email: output.email, roleId: 3 });
            await act(async () => call.deferred.resolve(output));
            // The page says so and shows the new account at once.
            expect(await screen.findByText(`User ${output.username} successfully created.`)).toBeTruthy();
            expect(screen.getByRole('switch', { name: `Active: ${output.username}` })).toBeTruthy();
          },
          'xstate.error.actor.createUser': async (step: Step) => {
            const { error } = step.event as { error: unknown };
            await act(async () => h.createUser.next().deferred.reject(error));
            // The answer is drawn as a transition: the form says so once it is.
            await within(dialog()).findByText('User creation failed. Please try again.');
          },
        },
      });
    });
  }
});
