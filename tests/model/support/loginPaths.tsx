import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useMemo } from 'react';
import { expect, vi } from 'vitest';
import { memoryLocation } from 'wouter/memory-location';
import { createActor } from 'xstate';
import { provideLogin, useAuthWiring } from '../../../src/app/wiring/authRoutes.tsx';
import { loginMachine, type LoginEvent, type LoginInput } from '../../../src/machines/login/loginMachine.ts';
import { LoginActorContext } from '../../../src/machines/login/useLogin.ts';
import { sessionMachine } from '../../../src/machines/session/sessionMachine.ts';
import type { AuthResponse } from '../../../src/schemas/auth.ts';
import type { SignInMethods, SignInProvider } from '../../../src/schemas/sso.ts';
import { ApiError, NetworkError } from '../../../src/services/errors.ts';
import { signOut } from '../../../src/services/session.ts';
import { clearToasts } from '../../../src/views/feedback/toastStore.ts';
import { LoginPage } from '../../../src/views/pages/LoginPage.tsx';
import { checkStatesOf } from './checkStates.ts';
import { coverageInspector, createPathModel, isInvoking, modelEvents } from './coverage.ts';
import { renderInAppShell } from './appShell.tsx';
import { controllableActor } from './deferred.ts';
import { makeUser } from './users.ts';

const user = makeUser('teacher', { username: 'Tess Teacher' });
const EMAIL = 'tess@example.org';
const PASSWORD = 'spiral-demo';
const TOKEN = 'h.p.s';

/** Each failure the model sends, and the alert the page must show for it. */
const refused = new ApiError(400, 'invalid_credentials', 'Identifier or password invalid.', '');
const tooMany = new ApiError(
  429,
  'too_many_requests',
  'Too many failed login attempts. Please wait 15 minutes and try again.',
  '',
);
const offline = new NetworkError();
const serverDown = new ApiError(500, 'internal_error', 'An internal server error occurred', '');
const alertFor = new Map<unknown, string>([
  [refused, 'Incorrect email or password.'],
  [tooMany, 'Too many failed login attempts. Please wait 15 minutes and try again.'],
  [offline, offline.message],
  [serverDown, 'An internal server error occurred'],
]);

const userEvents: LoginEvent[] = [
  { type: 'field.change', field: 'email', value: EMAIL },
  { type: 'field.change', field: 'password', value: PASSWORD },
  { type: 'remember.change', value: true },
  { type: 'remember.change', value: false },
  { type: 'login.submit' },
  { type: 'sso.start', provider: 'school' },
  { type: 'providerLogout.follow' },
];
/** The provider's sign-out that a logout before the page load offered (the second model's input). */
export const PROVIDER_LOGOUT = { label: 'District ADFS', url: 'https://adfs.district.example/adfs/ls/?SAMLRequest=x' };
const SCHOOL = { id: 'school', label: 'School account', start: '/api/v1/auth/oidc/school/start' };
export const METHODS: SignInMethods = { providers: [SCHOOL], passwordLogin: true };
const methodsEvents = [
  { type: 'xstate.done.actor.loadMethods', output: METHODS },
  { type: 'xstate.error.actor.loadMethods', error: offline },
] as unknown as LoginEvent[];
const loginEvents = [
  { type: 'xstate.done.actor.login', output: { jwt: TOKEN, user } },
  { type: 'xstate.error.actor.login', error: refused },
  { type: 'xstate.error.actor.login', error: tooMany },
  { type: 'xstate.error.actor.login', error: offline },
] as unknown as LoginEvent[];
const fetchMeEvents = [
  { type: 'xstate.done.actor.fetchMe', output: user },
  { type: 'xstate.error.actor.fetchMe', error: offline },
  { type: 'xstate.error.actor.fetchMe', error: serverDown },
] as unknown as LoginEvent[];

type Credentials = { identifier: string; password: string; remember: boolean };

function setup(input: LoginInput) {
  signOut();
  clearToasts();
  const login = controllableActor<AuthResponse, Credentials>();
  const fetchMe = controllableActor<typeof user>();
  const loadMethods = controllableActor<SignInMethods>();
  const goToProvider = vi.fn<(provider: SignInProvider) => void>();
  const goToProviderLogout = vi.fn<(url: string) => void>();
  const session = createActor(sessionMachine.provide({ actions: { reloadHome: vi.fn<() => void>() } }), {
    input: { hasToken: false },
  }).start();
  const location = memoryLocation({ path: '/login', record: true });
  const harness = {
    login,
    fetchMe,
    loadMethods,
    goToProvider,
    goToProviderLogout,
    session,
    location,
    expectedAlerts: [] as string[],
  };

  /** The login route as the app wires it, with the two API calls under the test's control. */
  function LoginUnderTest() {
    const wiring = useAuthWiring();
    const logic = useMemo(
      () =>
        provideLogin(wiring).provide({
          actors: { login: login.logic, fetchMe: fetchMe.logic, loadMethods: loadMethods.logic },
          actions: {
            goToProvider: (_, params) => goToProvider(params.provider),
            goToProviderLogout: (_, params) => goToProviderLogout(params.url),
          },
        }),
      [wiring],
    );
    return (
      <LoginActorContext.Provider logic={logic} options={{ inspect: coverageInspector, input }}>
        <LoginPage />
      </LoginActorContext.Provider>
    );
  }

  renderInAppShell(<LoginUnderTest />, { session, location });
  return harness;
}

type Harness = ReturnType<typeof setup>;
type Snapshot = {
  value: unknown;
  context: {
    email: string;
    password: string;
    remember: boolean;
    fieldErrors: { email?: string; password?: string };
    methods: SignInMethods | null;
    providerLogout: typeof PROVIDER_LOGOUT | null;
  };
};

const emailInput = () => screen.getByLabelText('Email') as HTMLInputElement;
const passwordInput = () => screen.getByLabelText('Password') as HTMLInputElement;
const loginButton = () => screen.getByRole('button', { name: 'LOGIN' }) as HTMLButtonElement;
const keepSignedIn = () => screen.getByRole('checkbox', { name: 'Keep me signed in' }) as HTMLInputElement;

function expectBusy(busy: boolean) {
  expect(loginButton().disabled).toBe(busy);
  expect(loginButton().getAttribute('aria-busy')).toBe(busy ? 'true' : null);
  expect(emailInput().readOnly).toBe(busy);
  expect(keepSignedIn().disabled).toBe(busy);
}

/** The alerts on screen, oldest first. */
const alerts = () => screen.queryAllByRole('alert').map((a) => a.querySelector('p')?.textContent);

/** What the page must show in each state of the machine. */
const schoolButton = () => screen.queryByRole('button', { name: 'Sign in with School account' });
const providerLogoutButton = () =>
  screen.queryByRole('button', { name: 'Also sign out of District ADFS' }) as HTMLButtonElement | null;

const viewOf: Record<string, (h: Harness, state: Snapshot) => Promise<void>> = {
  // Until the ways to sign in are known (or when they cannot be read), the password form stands alone.
  'methods.loading': async (h) => {
    expect(schoolButton()).toBeNull();
    expect(h.loadMethods.calls).toHaveLength(1);
  },
  'methods.ready': async (_h, state) => {
    await waitFor(() => expect(schoolButton() !== null).toBe(state.context.methods!.providers.length > 0));
    expect(screen.getByLabelText('Email')).toBeTruthy();
  },
  'form.signingOutAtProvider': async (h) => {
    expect(h.goToProviderLogout.mock.calls).toEqual([[PROVIDER_LOGOUT.url]]);
    expect(providerLogoutButton()!.disabled).toBe(true);
    expectBusy(true);
  },
  'form.redirecting': async (h) => {
    expect(h.goToProvider.mock.calls).toEqual([[SCHOOL]]);
    expect((schoolButton() as HTMLButtonElement).disabled).toBe(true);
    expectBusy(true);
  },
  'form.editing': async (h, state) => {
    await waitFor(() => expectBusy(false));
    expect(emailInput().value).toBe(state.context.email);
    expect(passwordInput().value).toBe(state.context.password);
    expect(keepSignedIn().checked).toBe(state.context.remember);
    const messages = { email: 'Email is required.', password: 'Password is required.' } as const;
    for (const field of ['email', 'password'] as const) {
      const input = field === 'email' ? emailInput() : passwordInput();
      if (state.context.fieldErrors[field]) {
        expect(screen.getByText(messages[field])).toBeTruthy();
        expect(input.getAttribute('aria-invalid')).toBe('true');
      } else {
        expect(screen.queryByText(messages[field])).toBeNull();
        expect(input.getAttribute('aria-invalid')).toBeNull();
      }
    }
    // Invalid input sends nothing; a failure leaves no token behind.
    expect(h.login.calls).toHaveLength(0);
    expect(h.fetchMe.calls).toHaveLength(0);
    expect(document.cookie).not.toContain('jwt=');
    expect(alerts()).toEqual(h.expectedAlerts);
    expect(h.location.history.at(-1)).toBe('/login');
    // The provider's sign-out is offered exactly when the logout before this page load offered it.
    expect(providerLogoutButton()?.disabled ?? null).toBe(state.context.providerLogout ? false : null);
    expect(h.goToProviderLogout).not.toHaveBeenCalled();
  },
  'form.submitting': async (h, state) => {
    expectBusy(true);
    expect(screen.getByText('Logging in…')).toBeTruthy();
    // "Keep me signed in" goes with the request as the box shows it (off unless ticked).
    expect(keepSignedIn().checked).toBe(state.context.remember);
    expect(h.login.calls.map((c) => c.input)).toEqual([
      { identifier: EMAIL, password: PASSWORD, remember: state.context.remember },
    ]);
  },
  'form.loadingUser': async (h) => {
    expectBusy(true);
    expect(document.cookie).not.toContain('jwt='); // the server keeps the token in its HttpOnly cookie
    expect(h.fetchMe.calls).toHaveLength(1);
  },
  'form.loggedIn': async (h) => {
    await waitFor(() => expect(h.location.history.at(-1)).toBe('/dashboard'));
    expect(await screen.findByRole('button', { name: user.username })).toBeTruthy();
    expect(h.session.getSnapshot().value).toBe('authenticated');
    expect(document.cookie).not.toContain('jwt='); // the server keeps the token in its HttpOnly cookie
    expect(alerts()).toEqual(h.expectedAlerts);
  },
};

/**
 * The login machine's path model, with every user action and every answer of the two API calls;
 * `input`: the page opened after a logout that offered the provider's sign-out, or with the ways
 * to sign in embedded in it.
 */
export const loginModel = (input: LoginInput = {}) =>
  createPathModel(loginMachine, {
    input,
    events: modelEvents(userEvents, { login: loginEvents, fetchMe: fetchMeEvents, loadMethods: methodsEvents }),
  });

type LoginPath = ReturnType<ReturnType<typeof loginModel>['getShortestPaths']>[number];

/**
 * Replays one generated path on the login page as the app wires it: each event becomes what a
 * user does (or the API answers), and after each step the page must show what the state says.
 */
export async function checkLoginPath(path: LoginPath, input: LoginInput = {}): Promise<void> {
  const h = setup(input);
  const ux = userEvent.setup();
  await path.test({
    states: checkStatesOf<Harness, Snapshot & { matches: (value: string) => boolean }>(h, viewOf),
    events: {
      'field.change': async (step) => {
        const { field, value } = step.event as Extract<LoginEvent, { type: 'field.change' }>;
        const input = field === 'email' ? emailInput() : passwordInput();
        await ux.clear(input);
        await ux.type(input, value);
      },
      'remember.change': async (step) => {
        const { value } = step.event as Extract<LoginEvent, { type: 'remember.change' }>;
        // A person changes the box by clicking its label; a change to what it shows already is no click.
        if (keepSignedIn().checked !== value) await ux.click(screen.getByText('Keep me signed in'));
      },
      'login.submit': async () => {
        await ux.click(loginButton());
      },
      'sso.start': async () => {
        await ux.click(schoolButton()!);
      },
      'providerLogout.follow': async () => {
        await ux.click(providerLogoutButton()!);
      },
      'xstate.done.actor.loadMethods': async () => {
        await act(async () => h.loadMethods.next().deferred.resolve(METHODS));
      },
      'xstate.error.actor.loadMethods': async () => {
        await act(async () => h.loadMethods.next().deferred.reject(offline));
      },
      'xstate.done.actor.login': async () => {
        await act(async () => h.login.next().deferred.resolve({ jwt: TOKEN, user }));
      },
      'xstate.error.actor.login': async (step) => {
        const error = (step.event as unknown as { error: unknown }).error;
        h.expectedAlerts.push(alertFor.get(error)!);
        await act(async () => h.login.next().deferred.reject(error));
      },
      'xstate.done.actor.fetchMe': async () => {
        await act(async () => h.fetchMe.next().deferred.resolve(user));
      },
      'xstate.error.actor.fetchMe': async (step) => {
        const error = (step.event as unknown as { error: unknown }).error;
        h.expectedAlerts.push(alertFor.get(error)!);
        await act(async () => h.fetchMe.next().deferred.reject(error));
      },
    },
  });
  // The page made no request the path did not expect: only the one of the state it ended in is open.
  expect(h.login.calls).toHaveLength(isInvoking(path.state, 'login') ? 1 : 0);
  expect(h.fetchMe.calls).toHaveLength(isInvoking(path.state, 'fetchMe') ? 1 : 0);
  // A page that came with the ways to sign in never asks for them.
  if (input.methods) expect(h.loadMethods.calls).toHaveLength(0);
}
