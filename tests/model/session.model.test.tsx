import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { memoryLocation } from 'wouter/memory-location';
import { createActor } from 'xstate';
import { App } from '../../src/app/App.tsx';
import { preloadRoutes } from '../../src/app/lazyRoute.tsx';
import { sessionMachine, type SessionEvent } from '../../src/machines/session/sessionMachine.ts';
import { ApiError, NetworkError } from '../../src/services/errors.ts';
import Cookies from 'js-cookie';
import { SESSION_MARKER, signOut } from '../../src/services/session.ts';
import { coverageInspector, createPathModel, modelEvents } from './support/coverage.ts';
import { controllableActor } from './support/deferred.ts';
import { trackCoverage } from './support/report.ts';
import { makeUser } from './support/users.ts';
import { NO_PUBLIC_LINKS } from '../../src/test/renderApp.tsx';

trackCoverage(sessionMachine);

const user = makeUser('teacher', { username: 'Tess Teacher' });
// The app loads each page with its route; load them all first, so every page renders at once.
await preloadRoutes();

const unauthorized = new ApiError(401, 'unauthorized', 'Invalid token.', '');
const offline = new NetworkError();
const config = { showcaseUrl: null, helpUrl: 'https://help.example.org', feedbackUrl: null, ...NO_PUBLIC_LINKS };

const userEvents: SessionEvent[] = [
  { type: 'session.loggedIn', user },
  { type: 'session.logout' },
  { type: 'session.expired' },
  { type: 'retry' },
];
const OFFER = { label: 'District ADFS', url: 'https://adfs.district.example/adfs/ls/?SAMLRequest=x' };
const logoutEvents = [
  { type: 'xstate.done.actor.endServerSession', output: null },
  { type: 'xstate.done.actor.endServerSession', output: OFFER },
  { type: 'xstate.error.actor.endServerSession', error: offline },
] as unknown as SessionEvent[];
const fetchMeEvents = [
  { type: 'xstate.done.actor.fetchMe', output: user },
  { type: 'xstate.error.actor.fetchMe', error: unauthorized },
  { type: 'xstate.error.actor.fetchMe', error: offline },
] as unknown as SessionEvent[];

/** The two calls of a login through the login page, answered for `user`. */
function stubLoginApi() {
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = new URL(String(input)).pathname;
    const body =
      path.endsWith('/auth/local') && init?.method === 'POST'
        ? { jwt: 'a.b.c', user }
        : path.endsWith('/users/me')
          ? user
          : null;
    if (!body) return new Promise<never>(() => undefined);
    return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  });
}

afterEach(() => vi.unstubAllGlobals());

function setup(hasToken: boolean) {
  // The signed-in user is module state: a path that logged in must not leave it to the next one.
  signOut();
  if (hasToken) Cookies.set(SESSION_MARKER, '1', { path: '/' });
  const fetchMe = controllableActor<typeof user>();
  const endServerSession = controllableActor<typeof OFFER | null>();
  const reloadHome = vi.fn<(path: string) => void>();
  const offered = vi.fn<(offer: typeof OFFER) => void>();
  const actor = createActor(
    sessionMachine.provide({
      actors: { fetchMe: fetchMe.logic, endServerSession: endServerSession.logic },
      actions: {
        reloadHome: (_, params) => reloadHome(params.path),
        offerProviderLogout: (_, params) => offered(params.offer),
      },
    }),
    { input: { hasToken }, inspect: coverageInspector },
  );
  actor.start();
  const location = memoryLocation({ path: '/dashboard', record: true });
  render(<App config={config} sessionActor={actor} routerProps={{ hook: location.hook }} />);
  return { actor, fetchMe, endServerSession, reloadHome, offered, location };
}

for (const hasToken of [true, false]) {
  describe(`session model (${hasToken ? 'with' : 'without'} a stored token)`, () => {
    const model = createPathModel(sessionMachine, {
      input: { hasToken },
      events: modelEvents(userEvents, { fetchMe: fetchMeEvents, endServerSession: logoutEvents }),
    });
    const paths = model.getShortestPaths();
    for (const path of paths) {
      it(`${path.description}`, async () => {
        const h = setup(hasToken);
        const ux = userEvent.setup();
        await path.test({
          states: {
            checking: async () => {
              expect(await screen.findByRole('status', { name: 'Loading page' })).toBeTruthy();
            },
            unreachable: async () => {
              expect(await screen.findByRole('heading', { name: 'The portal cannot be reached' })).toBeTruthy();
            },
            anonymous: async () => {
              await waitFor(() => expect(h.location.history.at(-1)).toBe('/home'));
              expect(screen.getByRole('link', { name: 'LOGIN' })).toBeTruthy();
              expect(screen.queryByRole('button', { name: user.username })).toBeNull();
            },
            authenticated: async () => {
              expect(await screen.findByRole('button', { name: user.username })).toBeTruthy();
              expect(screen.getByRole('link', { name: 'PORTFOLIO DASHBOARD' })).toBeTruthy();
            },
            loggingOut: async () => {
              // The server is asked to end the session; the page waits for its answer.
              await waitFor(() => expect(h.endServerSession.calls).toHaveLength(1));
              expect(h.reloadHome).not.toHaveBeenCalled();
            },
            loggedOut: async () => {
              await waitFor(() => expect(h.reloadHome.mock.calls).toEqual([['/']]));
              expect(h.offered).not.toHaveBeenCalled();
              expect(document.cookie).not.toContain('pf_session=');
            },
            providerLogoutOffered: async () => {
              // The login page, after the reload, offers the provider's own sign-out.
              await waitFor(() => expect(h.reloadHome.mock.calls).toEqual([['/login']]));
              expect(h.offered.mock.calls).toEqual([[OFFER]]);
              expect(document.cookie).not.toContain('pf_session=');
            },
          },
          events: {
            'xstate.done.actor.fetchMe': async () => {
              await act(async () => h.fetchMe.next().deferred.resolve(user));
            },
            'xstate.error.actor.fetchMe': async (step) => {
              const error = (step.event as unknown as { error: unknown }).error;
              await act(async () => h.fetchMe.next().deferred.reject(error));
            },
            'xstate.done.actor.endServerSession': async (step) => {
              const output = (step.event as unknown as { output: typeof OFFER | null }).output;
              await act(async () => h.endServerSession.next().deferred.resolve(output));
            },
            'xstate.error.actor.endServerSession': async () => {
              await act(async () => h.endServerSession.next().deferred.reject(offline));
            },
            retry: async () => {
              await ux.click(screen.getByRole('button', { name: 'Try again' }));
            },
            'session.loggedIn': async () => {
              // A real login: LOGIN in the header, the form, the LOGIN button (the login machine then
              // stores the token, loads the user and sends this event; see login.model.test).
              stubLoginApi();
              await ux.click(
                within(screen.getByRole('navigation', { name: 'Main' })).getByRole('link', { name: 'LOGIN' }),
              );
              await ux.type(await screen.findByLabelText('Email'), 'tess@example.org');
              await ux.type(screen.getByLabelText('Password'), 'spiral-demo');
              await ux.click(screen.getByRole('button', { name: 'LOGIN' }));
              await waitFor(() => expect(h.actor.getSnapshot().value).toBe('authenticated'));
            },
            'session.logout': async () => {
              await ux.click(await screen.findByRole('button', { name: user.username }));
              await ux.click(screen.getByRole('menuitem', { name: 'Log Out' }));
            },
            'session.expired': async () => {
              // The API client reports a 401 on any call this way.
              act(() => h.actor.send({ type: 'session.expired' }));
            },
          },
        });
      });
    }
  });
}
