import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { fromPromise } from 'xstate';
import { loginMachine, PASSWORD_ONLY, SSO_MESSAGES, type LoginInput } from '../../machines/login/loginMachine.ts';
import type { SignInMethods, SignInProvider } from '../../schemas/sso.ts';
import { LoginActorContext } from '../../machines/login/useLogin.ts';
import type { AuthResponse } from '../../schemas/auth.ts';
import type { Me } from '../../schemas/user.ts';
import { makeUser } from '../../test/renderApp.tsx';
import { Toaster } from '../feedback/Toaster.tsx';
import { clearToasts } from '../feedback/toastStore.ts';
import { LoginPage } from './LoginPage.tsx';

type Credentials = { identifier: string; password: string; remember: boolean };

const user = makeUser('teacher');

function renderLogin({
  login = async () => ({ jwt: 'h.p.s', user }),
  fetchMe = async () => user,
  methods = async () => PASSWORD_ONLY,
  input,
}: {
  login?: (input: Credentials) => Promise<AuthResponse>;
  fetchMe?: () => Promise<Me>;
  methods?: () => Promise<SignInMethods>;
  input?: LoginInput;
} = {}) {
  const loginCalls: Credentials[] = [];
  const completeLogin = vi.fn<(user: Me) => void>();
  const goToProvider = vi.fn<(provider: SignInProvider) => void>();
  const logic = loginMachine.provide({
    actors: {
      login: fromPromise<AuthResponse, Credentials>(({ input }) => {
        loginCalls.push(input);
        return login(input);
      }),
      fetchMe: fromPromise<Me>(() => fetchMe()),
      loadMethods: fromPromise<SignInMethods>(() => methods()),
    },
    actions: {
      completeLogin: (_, params) => completeLogin(params.user),
      goToProvider: (_, params) => goToProvider(params.provider),
    },
  });
  const location = memoryLocation({ path: '/login', record: true });
  render(
    <Router hook={location.hook}>
      <LoginActorContext.Provider logic={logic} options={input ? { input } : {}}>
        <LoginPage />
      </LoginActorContext.Provider>
      <Toaster />
    </Router>,
  );
  return { loginCalls, completeLogin, goToProvider, location, ux: userEvent.setup() };
}

const emailInput = () => screen.getByLabelText('Email') as HTMLInputElement;
const passwordInput = () => screen.getByLabelText('Password') as HTMLInputElement;
const loginButton = () => screen.getByRole('button', { name: 'LOGIN' }) as HTMLButtonElement;

async function fillIn(ux: ReturnType<typeof userEvent.setup>, email: string, password: string) {
  await ux.type(emailInput(), email);
  await ux.type(passwordInput(), password);
}

beforeEach(clearToasts);
afterEach(clearToasts);

describe('LoginPage', () => {
  it('shows the login form of spec §2', () => {
    renderLogin();
    expect(screen.getByRole('heading', { level: 1, name: 'Login' })).toBeTruthy();
    expect(emailInput().type).toBe('email');
    expect(passwordInput().type).toBe('password');
    expect(screen.getByRole('link', { name: 'Forgot your password?' }).getAttribute('href')).toBe('/forgot-password');
    expect(loginButton().disabled).toBe(false);
    expect(document.title).toBe('Login · PracticeFolio');
  });

  it('asks for both fields and sends nothing while one is missing', async () => {
    const { ux, loginCalls } = renderLogin();
    await ux.click(loginButton());
    expect(screen.getByText('Email is required.')).toBeTruthy();
    expect(screen.getByText('Password is required.')).toBeTruthy();
    expect(emailInput().getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(emailInput().getAttribute('aria-describedby')!)?.textContent).toBe(
      'Email is required.',
    );
    expect(document.activeElement).toBe(emailInput());

    await ux.type(emailInput(), 'tess@example.org');
    expect(screen.queryByText('Email is required.')).toBeNull();
    expect(emailInput().getAttribute('aria-invalid')).toBeNull();
    await ux.click(loginButton());
    expect(screen.getByText('Password is required.')).toBeTruthy();
    expect(document.activeElement).toBe(passwordInput());
    expect(loginCalls).toEqual([]);
  });

  it('a blank e-mail address counts as missing', async () => {
    const { ux, loginCalls } = renderLogin();
    await fillIn(ux, '   ', 'secret-password');
    await ux.click(loginButton());
    expect(screen.getByText('Email is required.')).toBeTruthy();
    expect(loginCalls).toEqual([]);
  });

  it('logs in with the e-mail as identifier, keeps no token in the page and lets the user in', async () => {
    const { ux, loginCalls, completeLogin } = renderLogin();
    await fillIn(ux, ' tess@example.org ', 'secret-password');
    await ux.keyboard('{Enter}');
    await waitFor(() => expect(completeLogin).toHaveBeenCalledWith(user));
    expect(loginCalls).toEqual([{ identifier: 'tess@example.org', password: 'secret-password', remember: false }]);
    expect(document.cookie).not.toContain('jwt='); // the server keeps the token in its HttpOnly cookie
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('waits with a disabled, busy LOGIN button while the request runs, and sends it only once', async () => {
    let answer!: (response: AuthResponse) => void;
    const { ux, loginCalls, completeLogin } = renderLogin({
      login: () => new Promise((resolve) => (answer = resolve)),
    });
    await fillIn(ux, 'tess@example.org', 'secret-password');
    await ux.click(loginButton());
    expect(loginButton().disabled).toBe(true);
    expect(loginButton().getAttribute('aria-busy')).toBe('true');
    expect(screen.getByTestId('busy-indicator')).toBeTruthy();
    expect(screen.getByText('Logging in…')).toBeTruthy();
    expect(emailInput().readOnly).toBe(true);
    await ux.type(passwordInput(), '{Enter}');
    expect(loginCalls).toHaveLength(1);
    await act(async () => answer({ jwt: 'h.p.s', user }));
    await waitFor(() => expect(completeLogin).toHaveBeenCalledTimes(1));
  });

  it('after a refused login it alerts the spec’s message and keeps the form (spec §8)', async () => {
    const { ux, completeLogin } = renderLogin({ login: () => Promise.reject(new Error('refused')) });
    await fillIn(ux, 'tess@example.org', 'wrong-password');
    await ux.click(loginButton());
    expect((await screen.findByRole('alert')).textContent).toContain('Incorrect email or password.');
    expect(emailInput().value).toBe('tess@example.org');
    expect(passwordInput().value).toBe('wrong-password');
    expect(loginButton().disabled).toBe(false);
    expect(loginButton().getAttribute('aria-busy')).toBeNull();
    expect(document.cookie).not.toContain('jwt=');
    expect(completeLogin).not.toHaveBeenCalled();
  });

  it('forgets the token again when the user cannot be loaded', async () => {
    const { ux, completeLogin } = renderLogin({ fetchMe: () => Promise.reject(new Error('gone')) });
    await fillIn(ux, 'tess@example.org', 'secret-password');
    await ux.click(loginButton());
    expect((await screen.findByRole('alert')).textContent).toContain('Something went wrong. Please try again.');
    expect(document.cookie).not.toContain('jwt=');
    expect(loginButton().disabled).toBe(false);
    expect(completeLogin).not.toHaveBeenCalled();
  });

  it('offers "Keep me signed in", unticked by default, with a hint for shared computers; the label ticks it and the choice is sent', async () => {
    const { ux, loginCalls, completeLogin } = renderLogin();
    const keep = screen.getByRole('checkbox', { name: 'Keep me signed in' }) as HTMLInputElement;
    expect(keep.checked).toBe(false);
    expect(document.getElementById(keep.getAttribute('aria-describedby')!)?.textContent).toBe(
      'For 30 days on this device. Leave it unticked on a shared or public computer.',
    );
    // The label is part of the target: clicking its text ticks the box, and again clears it.
    await ux.click(screen.getByText('Keep me signed in'));
    expect(keep.checked).toBe(true);
    await ux.click(screen.getByText('Keep me signed in'));
    expect(keep.checked).toBe(false);
    await ux.click(keep);
    expect(keep.checked).toBe(true);
    await fillIn(ux, 'tess@example.org', 'secret-password');
    await ux.click(loginButton());
    await waitFor(() => expect(completeLogin).toHaveBeenCalledWith(user));
    expect(loginCalls).toEqual([{ identifier: 'tess@example.org', password: 'secret-password', remember: true }]);
  });

  it('the box waits with the form while the request runs', async () => {
    const { ux } = renderLogin({ login: () => new Promise(() => undefined) });
    await fillIn(ux, 'tess@example.org', 'secret-password');
    await ux.click(loginButton());
    const keep = screen.getByRole('checkbox', { name: 'Keep me signed in' }) as HTMLInputElement;
    expect(keep.disabled).toBe(true);
    await ux.click(screen.getByText('Keep me signed in'));
    expect(keep.checked).toBe(false);
  });

  it('the forgot-password link leads to /forgot-password', async () => {
    const { ux, location } = renderLogin();
    await ux.click(screen.getByRole('link', { name: 'Forgot your password?' }));
    expect(location.history.at(-1)).toBe('/forgot-password');
  });
});

describe('LoginPage: school accounts', () => {
  const school = { id: 'school', label: 'Springfield Schools', start: '/api/v1/auth/oidc/school/start' };
  const google = { id: 'google', label: 'Google', start: '/api/v1/auth/oidc/google/start' };

  it('shows a "Sign in with" button for each provider above the e-mail form, and leaves for the one chosen', async () => {
    const { ux, goToProvider } = renderLogin({
      methods: async () => ({ providers: [school, google], passwordLogin: true }),
    });
    const first = await screen.findByRole('button', { name: 'Sign in with Springfield Schools' });
    expect(screen.getByRole('button', { name: 'Sign in with Google' })).toBeTruthy();
    // Above the form, in reading order.
    expect(first.compareDocumentPosition(emailInput()) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    await ux.click(first);
    expect(goToProvider).toHaveBeenCalledWith(school);
    expect((first as HTMLButtonElement).disabled).toBe(true);
  });

  it('PASSWORD_LOGIN=false: only the school accounts are offered', async () => {
    renderLogin({ methods: async () => ({ providers: [school], passwordLogin: false }) });
    await screen.findByRole('button', { name: 'Sign in with Springfield Schools' });
    expect(screen.queryByLabelText('Email')).toBeNull();
    expect(screen.queryByRole('button', { name: 'LOGIN' })).toBeNull();
    expect(screen.getByText('Log in with your school account.')).toBeTruthy();
  });

  it.each(Object.entries(SSO_MESSAGES))('a refused sign-in (%s) ends here with what to do', async (code, message) => {
    renderLogin({
      input: { ssoError: code as keyof typeof SSO_MESSAGES },
      methods: async () => ({ providers: [school], passwordLogin: false }),
    });
    await screen.findByRole('button', { name: 'Sign in with Springfield Schools' });
    expect(screen.getByRole('alert').textContent).toBe(message);
  });
});
