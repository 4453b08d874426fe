import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { memoryLocation } from 'wouter/memory-location';
import { Router } from 'wouter';
import { createActor, fromPromise } from 'xstate';
import { sessionMachine } from '../machines/session/sessionMachine.ts';
import { SessionActorContext } from '../machines/session/useSession.ts';
import { TESS_ME } from '../test/abilityFixtures.ts';
import type * as api from '../services/api.ts';
import { ApiError } from '../services/errors.ts';
import { REAUTH_TITLE } from '../views/session/ReauthDialog.tsx';
import { Reauthentication } from './Reauthentication.tsx';

type Handler = ((error: ApiError) => Promise<boolean>) | null;
const handler = vi.hoisted(() => ({ current: null as Handler }));
vi.mock('../services/api.ts', async (original) => ({
  ...(await original<typeof api>()),
  setReauthenticationHandler: (next: Handler) => {
    handler.current = next;
  },
}));

const user = TESS_ME;

function renderSignedIn() {
  const session = createActor(
    sessionMachine.provide({ actors: { fetchMe: fromPromise(async () => user) }, actions: { reloadHome: () => {} } }),
    { input: { hasToken: false } },
  ).start();
  session.send({ type: 'session.loggedIn', user });
  const { hook, searchHook } = memoryLocation({ path: '/dashboard' });
  return render(
    <SessionActorContext.Provider value={session}>
      <Router hook={hook} searchHook={searchHook}>
        <Reauthentication />
      </Router>
    </SessionActorContext.Provider>,
  );
}

afterEach(() => {
  handler.current = null;
});

describe('Reauthentication (the dialog loads after sign-in)', () => {
  it('a call refused before the dialog has arrived opens it once it is there', async () => {
    const view = renderSignedIn();
    expect(handler.current).not.toBeNull();
    // Refused at once, while the dialog's module is still on its way.
    const again = handler.current!(new ApiError(401, 'unauthorized', 'Invalid token.', ''));
    expect(await screen.findByRole('alertdialog', { name: REAUTH_TITLE })).toBeTruthy();
    // The session ends without an answer (the app is left): the waiting call is not sent again.
    view.unmount();
    await expect(again).resolves.toBe(false);
    expect(handler.current).toBeNull();
  });
});
