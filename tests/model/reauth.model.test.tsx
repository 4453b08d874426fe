import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { createActor, type SnapshotFrom } from 'xstate';
import { OTHER_ACCOUNT_MESSAGE, reauthMachine, type ReauthEvent } from '../../src/machines/reauth/reauthMachine.ts';
import type { Me } from '../../src/schemas/user.ts';
import { ApiError } from '../../src/services/errors.ts';
import { makeUser } from '../../src/test/renderApp.tsx';
import { ReauthDialog } from '../../src/views/session/ReauthDialog.tsx';
import { checkStates } from './support/checkStates.ts';
import { coverageInspector, isInvoking } from './support/coverage.ts';
import { controllableActor } from './support/deferred.ts';
import { checkedShortestPaths, modelEvent, pathName } from './support/paths.ts';
import { trackCoverage } from './support/report.ts';

trackCoverage(reauthMachine);

type Snapshot = SnapshotFrom<typeof reauthMachine>;

const USER = makeUser('teacher', { email: 'teacher@example.org' });
const OTHER = makeUser('teacher', { email: 'someone@example.org' });
const PASSWORD = 'spiral-demo';
const refused = new ApiError(401, 'invalid_credentials', 'Invalid identifier or password', '');
const ev = modelEvent<ReauthEvent>();

/** Each answer once from the first try, to keep the paths few. */
function events(snapshot: unknown): ReauthEvent[] {
  const s = snapshot as Snapshot;
  const list: ReauthEvent[] = [];
  if (s.matches('signedIn')) list.push({ type: 'reauth.needed' });
  if (s.matches('asking')) {
    if (s.context.password === '') list.push({ type: 'field.change', value: PASSWORD });
    else list.push({ type: 'reauth.submit', method: 'password' });
    if (s.context.error === null) list.push({ type: 'reauth.giveUp' });
  }
  if (isInvoking(s, 'signInWithPassword')) {
    list.push(ev('xstate.done.actor.signInWithPassword', { output: USER }));
    if (s.context.error === null)
      list.push(
        ev('xstate.done.actor.signInWithPassword', { output: OTHER }),
        ev('xstate.error.actor.signInWithPassword', { error: refused }),
      );
  }
  return list.filter((event) => s.can(event));
}

function setup() {
  const signIn = controllableActor<Me, { identifier: string; password: string }>();
  const signedInAgain = vi.fn();
  const gaveUp = vi.fn();
  const logic = reauthMachine.provide({
    actors: { signInWithPassword: signIn.logic },
    actions: { signedInAgain: (_, params) => signedInAgain(params.user), gaveUp: () => gaveUp() },
  });
  const actor = createActor(logic, {
    input: { email: USER.email, userId: USER.id },
    inspect: coverageInspector,
  }).start();
  function Harness() {
    return (
      <>
        <p>The page, as it was</p>
        <ReauthDialog reauth={actor} />
      </>
    );
  }
  render(<Harness />);
  return { signIn, signedInAgain, gaveUp, ux: userEvent.setup({ delay: null }), actor: () => actor };
}

let h: ReturnType<typeof setup>;
const dialog = () => screen.queryByRole('alertdialog', { name: 'Sign in again' });

const checks = {
  signedIn: async (s: Snapshot) => {
    expect(dialog()).toBeNull();
    expect(screen.getByText('The page, as it was')).toBeTruthy();
    // Back after signing in: as the same account, once.
    if (h.signIn.calls.length === 0 && h.signedInAgain.mock.calls.length > 0)
      expect(h.signedInAgain).toHaveBeenLastCalledWith(USER);
    expect(s.context.password).toBe('');
  },
  asking: async (s: Snapshot) => {
    const d = dialog()!;
    expect((within(d).getByLabelText('Email') as HTMLInputElement).value).toBe(USER.email);
    expect((within(d).getByLabelText('Password') as HTMLInputElement).value).toBe(s.context.password);
    expect((within(d).getByRole('button', { name: 'Sign in' }) as HTMLButtonElement).disabled).toBe(
      s.context.password === '',
    );
    const alert = within(d).queryByRole('alert');
    expect(alert?.textContent ?? null).toBe(s.context.error);
    expect(screen.getByText('The page, as it was')).toBeTruthy();
  },
  signingIn: async () => {
    expect(dialog()!.querySelector('form')!.getAttribute('aria-busy')).toBe('true');
    expect(h.signIn.calls.at(-1)!.input).toEqual({ identifier: USER.email, password: PASSWORD });
  },
  gaveUp: async () => {
    expect(dialog()).toBeNull();
    expect(h.gaveUp).toHaveBeenCalledTimes(1);
    expect(h.signedInAgain).not.toHaveBeenCalled();
  },
};

describe('reauth model (the session ended during work: signing in again over the page)', () => {
  const paths = checkedShortestPaths(
    reauthMachine,
    { input: { email: USER.email, userId: USER.id }, events },
    checks,
    3,
  );
  for (const path of paths) {
    it(`${pathName(path)}`, async () => {
      h = setup();
      await path.test({
        states: checkStates<Snapshot>(checks),
        events: {
          'reauth.needed': async () => {
            act(() => h.actor().send({ type: 'reauth.needed' }));
          },
          'field.change': async () => {
            await h.ux.type(within(dialog()!).getByLabelText('Password'), PASSWORD);
          },
          'reauth.submit': async () => {
            await h.ux.click(within(dialog()!).getByRole('button', { name: 'Sign in' }));
          },
          'reauth.giveUp': async () => {
            await h.ux.click(within(dialog()!).getByRole('button', { name: 'Go to the sign-in page' }));
          },
          'xstate.done.actor.signInWithPassword': async (step) => {
            const { output } = step.event as unknown as { output: Me };
            await act(async () => h.signIn.next().deferred.resolve(output));
            // Another account is refused in the dialog; the same account closes it (the states check that).
            const refusedOther = output.id === USER.id ? null : OTHER_ACCOUNT_MESSAGE;
            await waitFor(() =>
              expect(screen.queryByText(OTHER_ACCOUNT_MESSAGE)?.textContent ?? null).toBe(refusedOther),
            );
          },
          'xstate.error.actor.signInWithPassword': async () => {
            await act(async () => h.signIn.next().deferred.reject(refused));
            expect(await within(dialog()!).findByText('Incorrect email or password.')).toBeTruthy();
          },
        },
      });
    });
  }
});
