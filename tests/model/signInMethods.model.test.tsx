import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { fromPromise, type SnapshotFrom } from 'xstate';
import { provideManageUsers } from '../../src/machines/manageUsers/provideManageUsers.ts';
import { ManageUsersActorContext } from '../../src/machines/manageUsers/useManageUsers.ts';
import {
  signInMethodsMachine,
  type SignInMethodsEvent,
} from '../../src/machines/signInMethods/signInMethodsMachine.ts';
import type { LinkedIdentity, SignInMethodList } from '../../src/schemas/sso.ts';
import type { User } from '../../src/schemas/user.ts';
import { ApiError, NetworkError } from '../../src/services/errors.ts';
import { Toaster } from '../../src/views/feedback/Toaster.tsx';
import { clearToasts, notify } from '../../src/views/feedback/toastStore.ts';
import { ManageUsersPage } from '../../src/views/pages/ManageUsersPage.tsx';
import { coverageInspector, createPathModel, modelEvents } from './support/coverage.ts';
import { backupWritten } from './support/backupFixtures.ts';
import { controllableActor } from './support/deferred.ts';
import { trackCoverage } from './support/report.ts';
import { makeUser } from './support/users.ts';

// The sign-in methods dialog on Manage Users (a child actor of the page's machine), driven through the page.
trackCoverage(signInMethodsMachine);

type Snapshot = SnapshotFrom<typeof signInMethodsMachine>;
type Step = { event: unknown };

const rita = makeUser('researcher', { id: 6001, username: 'Rita Researcher' });
const tess = makeUser('teacher', { id: 6002, username: 'Tess Teacher' });
const school: LinkedIdentity = {
  id: 71,
  provider: 'school',
  label: 'Springfield Schools',
  email: 'tess@springfield.example',
  linked_at: '2026-11-02T09:30:00.000Z',
};
const linked: SignInMethodList = { password: true, identities: [school] };
const unlinked: SignInMethodList = { password: true, identities: [] };
const offline = new NetworkError();
const refused = new ApiError(404, 'not_found', 'This sign-in is not linked to the account.', '');

const userEvents: SignInMethodsEvent[] = [
  { type: 'methods.open', account: { id: tess.id, username: tess.username } },
  { type: 'dialog.close' },
  { type: 'retry' },
  { type: 'identity.unlink', identity: school },
  { type: 'identity.cancel' },
  { type: 'identity.confirm' },
];
const actorEvents = {
  listSignInMethods: [
    { type: 'xstate.done.actor.listSignInMethods', output: linked },
    { type: 'xstate.error.actor.listSignInMethods', error: offline },
  ],
  unlinkIdentity: [
    { type: 'xstate.done.actor.unlinkIdentity', output: unlinked },
    { type: 'xstate.error.actor.unlinkIdentity', error: refused },
  ],
} as unknown as Record<string, SignInMethodsEvent[]>;

function setup() {
  const listSignInMethods = controllableActor<SignInMethodList, { userId: number }>({ dropCancelled: true });
  const unlinkIdentity = controllableActor<SignInMethodList, { userId: number; identityId: number }>();
  const logic = provideManageUsers({
    notify: ({ message, tone }) => notify(message, tone),
    actors: {
      listUsers: fromPromise<User[]>(async () => [rita, tess]),
      fetchBackupStatus: backupWritten,
      listSignInMethods: listSignInMethods.logic,
      unlinkIdentity: unlinkIdentity.logic,
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
  return { listSignInMethods, unlinkIdentity, ux: userEvent.setup() };
}

const dialog = () => screen.getByRole('dialog', { name: 'Sign-in methods: Tess Teacher' });
const unlinkButton = () => within(dialog()).queryByRole('button', { name: `Unlink ${school.label} (${school.email})` });

/** The list in the dialog shows the server's answer: the password line, and each identity with its date. */
function expectList(methods: SignInMethodList, unlinkEnabled: boolean) {
  const list = within(dialog()).getByRole('list', { name: 'Sign-in methods' });
  expect(list.textContent).toContain(methods.password ? 'E-mail and password' : 'No password set');
  if (methods.identities.length === 0) {
    expect(list.textContent).toContain('No school account is linked.');
    expect(unlinkButton()).toBeNull();
  } else {
    expect(list.textContent).toContain(`${school.label}${school.email} · linked 11/02/26`);
    expect((unlinkButton() as HTMLButtonElement).disabled).toBe(!unlinkEnabled);
  }
}

/** Every state has a DOM assertion; a state without one fails the path. */
const stateChecks: Record<string, (s: Snapshot) => Promise<void>> = {
  closed: async () => {
    const open = await screen.findByRole('button', { name: 'Sign-in methods: Tess Teacher' });
    expect((open as HTMLButtonElement).disabled).toBe(false);
    expect(screen.queryByRole('dialog')).toBeNull();
  },
  'open.loading': async () => {
    expect(within(dialog()).getByRole('status', { name: 'Loading sign-in methods' })).toBeTruthy();
    expect(within(dialog()).queryByRole('list')).toBeNull();
  },
  'open.loadFailed': async (s) => {
    expect(within(dialog()).getByRole('alert').textContent).toBe(s.context.loadError!.message);
    expect(within(dialog()).getByRole('button', { name: 'Try again' })).toBeTruthy();
    expect(within(dialog()).queryByRole('list')).toBeNull();
  },
  'open.shown': async (s) => {
    expectList(s.context.methods!, true);
    expect(within(dialog()).queryByRole('group', { name: 'Confirm unlinking' })).toBeNull();
    const alerts = within(dialog()).queryAllByRole('alert');
    expect(alerts.map((a) => a.textContent)).toEqual(s.context.refusal ? [s.context.refusal] : []);
  },
  'open.confirming': async (s) => {
    expectList(s.context.methods!, false);
    const confirm = within(dialog()).getByRole('group', { name: 'Confirm unlinking' });
    expect(confirm.textContent).toContain(
      `Unlink ${school.label} (${school.email}) from Tess Teacher? The account keeps its other sign-in methods.`,
    );
    await waitFor(() => expect(document.activeElement).toBe(within(confirm).getByRole('button', { name: 'Keep it' })));
  },
  'open.unlinking': async (s) => {
    expectList(s.context.methods!, false);
    const confirm = within(dialog()).getByRole('group', { name: 'Confirm unlinking' });
    expect(confirm.getAttribute('aria-busy')).toBe('true');
    expect(within(confirm).getByRole('status', { name: 'Unlinking' })).toBeTruthy();
    const unlink = within(confirm).getByRole('button', { name: 'Unlink' });
    expect(unlink.getAttribute('aria-disabled')).toBe('true');
    expect(document.activeElement).toBe(unlink);
    expect((within(dialog()).getByRole('button', { name: 'Close' }) as HTMLButtonElement).disabled).toBe(true);
  },
};

async function checkState(snapshot: unknown) {
  const s = snapshot as Snapshot;
  const keys = Object.keys(stateChecks).filter((key) => s.matches(key as never));
  expect(keys, `a DOM check for ${JSON.stringify(s.value)}`).not.toEqual([]);
  for (const key of keys) await stateChecks[key]!(s);
}

afterEach(() => clearToasts());

describe('sign-in methods model (a researcher on Tess’s account)', () => {
  const model = createPathModel(signInMethodsMachine, { events: modelEvents(userEvents, actorEvents) });
  for (const path of model.getShortestPaths()) {
    it(`${path.description}`, async () => {
      const h = setup();
      await path.test({
        states: { '*': checkState },
        events: {
          'methods.open': async () => {
            await h.ux.click(await screen.findByRole('button', { name: 'Sign-in methods: Tess Teacher' }));
          },
          'dialog.close': async () => {
            await h.ux.click(within(dialog()).getByRole('button', { name: 'Close' }));
          },
          retry: async () => {
            await h.ux.click(within(dialog()).getByRole('button', { name: 'Try again' }));
          },
          'identity.unlink': async () => {
            await h.ux.click(unlinkButton()!);
          },
          'identity.cancel': async () => {
            await h.ux.click(within(dialog()).getByRole('button', { name: 'Keep it' }));
          },
          'identity.confirm': async () => {
            await h.ux.click(within(dialog()).getByRole('button', { name: 'Unlink' }));
          },
          'xstate.done.actor.listSignInMethods': async (step: Step) => {
            const call = h.listSignInMethods.next();
            expect(call.input).toEqual({ userId: tess.id });
            const { output } = step.event as { output: SignInMethodList };
            await act(async () => call.deferred.resolve(output));
          },
          'xstate.error.actor.listSignInMethods': async (step: Step) => {
            const { error } = step.event as { error: unknown };
            await act(async () => h.listSignInMethods.next().deferred.reject(error));
          },
          'xstate.done.actor.unlinkIdentity': async (step: Step) => {
            const call = h.unlinkIdentity.next();
            expect(call.input).toEqual({ userId: tess.id, identityId: school.id });
            const { output } = step.event as { output: SignInMethodList };
            await act(async () => call.deferred.resolve(output));
            expect(
              await screen.findByText(`${school.label} is no longer linked to Tess Teacher.`, { selector: '*' }),
            ).toBeTruthy();
          },
          'xstate.error.actor.unlinkIdentity': async (step: Step) => {
            const { error } = step.event as { error: unknown };
            await act(async () => h.unlinkIdentity.next().deferred.reject(error));
          },
        },
      });
    });
  }
});
