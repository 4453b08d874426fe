import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, type Actor } from 'xstate';
import { signInMethodsMachine } from '../../machines/signInMethods/signInMethodsMachine.ts';
import type { LinkedIdentity, SignInMethodList } from '../../schemas/sso.ts';
// The typed failures the services throw, which the machines turn into messages.
// oxlint-disable-next-line no-restricted-imports
import { ApiError } from '../../services/errors.ts';
import { SignInMethodsDialog } from './SignInMethodsDialog.tsx';

const google: LinkedIdentity = {
  id: 1,
  provider: 'google',
  label: 'Google',
  email: 'ada@school.example',
  linked_at: '2026-10-01T08:00:00.000Z',
};
const district: LinkedIdentity = {
  id: 2,
  provider: 'district',
  label: 'District login',
  email: 'ada.l@district.example',
  linked_at: '2026-11-15T08:00:00.000Z',
};

const actors: Actor<typeof signInMethodsMachine>[] = [];
afterEach(() => {
  for (const actor of actors.splice(0)) actor.stop();
});

/** The dialog opened on Ada's account, with the server's answers given by the test. */
function renderDialog(
  methods: SignInMethodList,
  unlink: (input: { userId: number; identityId: number }) => Promise<SignInMethodList>,
) {
  const notify = vi.fn();
  const unlinkCalls: { userId: number; identityId: number }[] = [];
  const actor = createActor(
    signInMethodsMachine.provide({
      actions: { notify: (_, notice) => notify(notice) },
      actors: {
        listSignInMethods: fromPromise(async () => methods),
        unlinkIdentity: fromPromise<SignInMethodList, { userId: number; identityId: number }>(({ input }) => {
          unlinkCalls.push(input);
          return unlink(input);
        }),
      },
    }),
  ).start();
  actors.push(actor);
  render(<SignInMethodsDialog actorRef={actor} />);
  act(() => actor.send({ type: 'methods.open', account: { id: 40, username: 'Ada Lovelace' } }));
  return { actor, notify, unlinkCalls, ux: userEvent.setup() };
}

const dialog = () => screen.getByRole('dialog', { name: 'Sign-in methods: Ada Lovelace' });
const lines = async () =>
  within(await screen.findByRole('list', { name: 'Sign-in methods' }))
    .getAllByRole('listitem')
    .map((li) => li.textContent);

describe('the sign-in methods dialog', () => {
  it('lists the password state and each linked account with its e-mail and date', async () => {
    renderDialog({ password: false, identities: [google, district] }, async () => ({
      password: false,
      identities: [],
    }));
    expect(await lines()).toEqual([
      'PasswordNo password set',
      'Googleada@school.example · linked 10/01/26Unlink',
      'District loginada.l@district.example · linked 11/15/26Unlink',
    ]);
  });

  it('unlinks one after the question, and shows the methods the server says remain', async () => {
    const h = renderDialog({ password: false, identities: [google, district] }, async () => ({
      password: false,
      identities: [district],
    }));
    await h.ux.click(await screen.findByRole('button', { name: 'Unlink Google (ada@school.example)' }));
    expect(h.unlinkCalls).toEqual([]);
    const question = within(dialog()).getByRole('group', { name: 'Confirm unlinking' });
    expect(question.textContent).toContain('Unlink Google (ada@school.example) from Ada Lovelace?');
    await h.ux.click(within(question).getByRole('button', { name: 'Unlink' }));
    expect(h.unlinkCalls).toEqual([{ userId: 40, identityId: 1 }]);
    expect(await lines()).toEqual([
      'PasswordNo password set',
      'District loginada.l@district.example · linked 11/15/26Unlink',
    ]);
    expect(h.notify).toHaveBeenCalledWith({ message: 'Google is no longer linked to Ada Lovelace.', tone: 'success' });
  });

  it('“Keep it” asks nothing of the server', async () => {
    const h = renderDialog({ password: true, identities: [google] }, async () => ({ password: true, identities: [] }));
    await h.ux.click(await screen.findByRole('button', { name: 'Unlink Google (ada@school.example)' }));
    await h.ux.click(within(dialog()).getByRole('button', { name: 'Keep it' }));
    expect(within(dialog()).queryByRole('group', { name: 'Confirm unlinking' })).toBeNull();
    expect(h.unlinkCalls).toEqual([]);
    expect(await lines()).toHaveLength(2);
  });

  it('a refusal shows the server’s message and leaves the list as it was', async () => {
    const h = renderDialog({ password: false, identities: [google] }, () =>
      Promise.reject(new ApiError(409, 'last_method', 'The account would have no way to sign in.', '')),
    );
    await h.ux.click(await screen.findByRole('button', { name: 'Unlink Google (ada@school.example)' }));
    await h.ux.click(within(dialog()).getByRole('button', { name: 'Unlink' }));
    expect((await within(dialog()).findByRole('alert')).textContent).toBe('The account would have no way to sign in.');
    expect(await lines()).toEqual(['PasswordNo password set', 'Googleada@school.example · linked 10/01/26Unlink']);
    expect(
      (within(dialog()).getByRole('button', { name: 'Unlink Google (ada@school.example)' }) as HTMLButtonElement)
        .disabled,
    ).toBe(false);
    expect(h.notify).not.toHaveBeenCalled();
  });

  it('Escape does not close the dialog while an unlink is under way', async () => {
    let finish!: (methods: SignInMethodList) => void;
    const h = renderDialog(
      { password: true, identities: [google] },
      () => new Promise<SignInMethodList>((resolve) => (finish = resolve)),
    );
    await h.ux.click(await screen.findByRole('button', { name: 'Unlink Google (ada@school.example)' }));
    await h.ux.click(within(dialog()).getByRole('button', { name: 'Unlink' }));
    await h.ux.click(within(dialog()).getByRole('button', { name: 'Unlink' }));
    expect(dialog().contains(document.activeElement)).toBe(true);
    await h.ux.keyboard('{Escape}');
    expect(h.actor.getSnapshot().matches({ open: 'unlinking' })).toBe(true);
    expect(dialog()).toBeTruthy();
    expect(h.unlinkCalls).toHaveLength(1);
    await act(async () => finish({ password: true, identities: [] }));
    await h.ux.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
