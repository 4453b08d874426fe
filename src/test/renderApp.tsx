import { render, screen, waitFor, within } from '@testing-library/react';
import { StrictMode } from 'react';
import { expect, vi } from 'vitest';
import { memoryLocation } from 'wouter/memory-location';
import { createActor, fromPromise } from 'xstate';
import { App } from '../app/App.tsx';
import { preloadRoutes } from '../app/lazyRoute.tsx';
import { sessionMachine } from '../machines/session/sessionMachine.ts';
import type { AppConfig } from '../schemas/common.ts';
import type { Me } from '../schemas/user.ts';
import { ApiError, NetworkError } from '../services/errors.ts';
import Cookies from 'js-cookie';
import { SESSION_MARKER, signOut } from '../services/session.ts';
import { USER_ABILITIES } from './abilityFixtures.ts';

// The app loads each page with its route; tests load them all first, so every page renders at once.
await preloadRoutes();

const ROLES = {
  teacher: { id: 1, name: 'Teacher', description: 'Teacher', type: 'authenticated' },
  plcLead: { id: 3, name: 'PLC Lead', description: 'PLC Lead', type: 'plc_lead' },
  researcher: { id: 4, name: 'Researcher', description: 'Researcher', type: 'researcher' },
} as const;

const USERNAMES = { teacher: 'Tess Teacher', plcLead: 'Lee Lead', researcher: 'Rita Researcher' } as const;

let nextId = 100;

/** A user as `GET /users/me` returns it. */
export function makeUser(kind: keyof typeof ROLES = 'teacher', overrides: Partial<Me> = {}): Me {
  nextId += 1;
  return {
    id: nextId,
    username: USERNAMES[kind],
    email: `user${nextId}@example.org`,
    provider: 'local',
    confirmed: true,
    blocked: false,
    role: ROLES[kind],
    abilities: USER_ABILITIES[kind],
    created_at: '2026-01-01T10:00:00.000Z',
    updated_at: '2026-01-01T10:00:00.000Z',
    ...overrides,
  };
}

/** The run-time configuration tests start from. */
/** No public link configured (the public pages then show none of them). */
export const NO_PUBLIC_LINKS = {
  contactEmail: null,
  researchEmail: null,
  aboutVideoId: null,
  learnMoreUrl: null,
  iosAppUrl: null,
  androidAppUrl: null,
} as const;

export const testConfig: AppConfig = {
  showcaseUrl: null,
  helpUrl: 'https://help.example.org/guide',
  feedbackUrl: null,
  ...NO_PUBLIC_LINKS,
};

export interface RenderAppOptions {
  /** The signed-in user; `null` (the default) renders the app for an anonymous visitor. */
  user?: Me | null;
  config?: Partial<AppConfig>;
  /** Renders inside `<StrictMode>`, as the real entry point does. */
  strict?: boolean;
  /** A token is stored but the first session check finds no server (later checks answer `user`). */
  offline?: boolean;
}

/**
 * Renders the whole app at `path` with a session actor whose `GET /users/me` is faked: it answers
 * `user` when one is given (a token is stored), and the visitor is anonymous otherwise. Any other
 * API call a page makes stays pending, so pages show their loading state and nothing reaches a network.
 */
export function renderApp(
  path: string,
  { user = null, config = {}, strict = false, offline = false }: RenderAppOptions = {},
) {
  vi.stubGlobal('fetch', () => new Promise<never>(() => undefined));
  if (user || offline) Cookies.set(SESSION_MARKER, '1', { path: '/' });
  const reloadHome = vi.fn<() => void>();
  let checks = 0;
  const fetchMe = fromPromise<Me>(async () => {
    checks += 1;
    if (offline && checks === 1) throw new NetworkError();
    if (user) return user;
    throw new ApiError(401, 'unauthorized', 'Invalid token.', '');
  });
  const sessionActor = createActor(sessionMachine.provide({ actors: { fetchMe }, actions: { reloadHome } }), {
    input: { hasToken: user !== null || offline },
  }).start();
  const location = memoryLocation({ path, record: true });
  // Every navigation in order, pushes and replacements alike (`history` keeps only what Back would show).
  const visits: string[] = [path];
  const hook = (): ReturnType<typeof location.hook> => {
    const [current, navigate] = location.hook();
    return [
      current,
      (to: string, options?: { replace?: boolean }) => {
        visits.push(to);
        navigate(to, options);
      },
    ];
  };
  const app = (
    <App
      config={{ ...testConfig, ...config }}
      sessionActor={sessionActor}
      routerProps={{ hook, searchHook: location.searchHook }}
    />
  );
  const view = render(strict ? <StrictMode>{app}</StrictMode> : app);
  return { ...view, location, visits, sessionActor, reloadHome };
}

/** Renders the app for `user` and waits until the session check is over and the header shows the user. */
export async function renderSignedIn(path: string, user: Me, options: Omit<RenderAppOptions, 'user'> = {}) {
  const rendered = renderApp(path, { ...options, user });
  await screen.findByRole('button', { name: user.username });
  // The page itself follows the session's change (drawn as a transition) and its lazy module:
  // its heading, or its own loading state while its data is on the way.
  await waitFor(
    () => {
      const main = within(screen.getByRole('main'));
      expect(
        main.queryAllByRole('heading', { level: 1 }).length + main.queryAllByRole('status').length,
      ).toBeGreaterThan(0);
    },
    { timeout: 5000 },
  );
  return rendered;
}

/** Where the memory location is now. */
export const currentPath = (location: { history: readonly string[] }): string | undefined => location.history.at(-1);

/** Waits until the app has settled at `path`. */
export async function expectPath(location: { history: readonly string[] }, path: string): Promise<void> {
  await waitFor(
    () => {
      if (currentPath(location) !== path)
        throw new Error(`Expected to be at ${path}, but history is ${location.history.join(' → ')}`);
      // Pages load lazily (their own chunks): the first visit of a page waits for its module.
    },
    { timeout: 5000 },
  );
}

/** Undoes what `renderApp` set up globally: the stubbed fetch and the signed-in user. */
export function resetApp(): void {
  vi.unstubAllGlobals();
  signOut();
}
