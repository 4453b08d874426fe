import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { AuthResponse } from '../../schemas/auth.ts';
import type { Me } from '../../schemas/user.ts';
import { ApiError, ContractError, NetworkError } from '../../services/errors.ts';
import { makeUser } from '../../test/renderApp.tsx';
import {
  LOGIN_FAILED_MESSAGE,
  loginFailureMessage,
  loginMachine,
  PASSWORD_ONLY,
  SSO_MESSAGES,
  validateLogin,
  type LoginCredentials,
  type LoginInput,
} from './loginMachine.ts';
import type { SignInMethods, SignInProvider } from '../../schemas/sso.ts';

const user = makeUser('teacher');

const SCHOOL = { id: 'school', label: 'School account', start: '/api/v1/auth/oidc/school/start' };

function start({
  login,
  fetchMe = async () => user,
  methods = async () => PASSWORD_ONLY,
  input,
}: {
  login: () => Promise<AuthResponse>;
  fetchMe?: () => Promise<Me>;
  methods?: () => Promise<SignInMethods>;
  input?: LoginInput;
}) {
  const completeLogin = vi.fn<(user: Me) => void>();
  const goToProvider = vi.fn<(provider: SignInProvider) => void>();
  const loginCalls: unknown[] = [];
  const actor = createActor(
    loginMachine.provide({
      actors: {
        login: fromPromise<AuthResponse, LoginCredentials>(({ input }) => {
          loginCalls.push(input);
          return login();
        }),
        fetchMe: fromPromise<Me>(() => fetchMe()),
        loadMethods: fromPromise<SignInMethods>(() => methods()),
      },
      actions: {
        completeLogin: (_, params) => completeLogin(params.user),
        goToProvider: (_, params) => goToProvider(params.provider),
      },
    }),
    input ? { input } : {},
  ).start();
  return { actor, completeLogin, loginCalls, goToProvider };
}

function fillIn(actor: ReturnType<typeof start>['actor']) {
  actor.send({ type: 'field.change', field: 'email', value: ' tess@example.org ' });
  actor.send({ type: 'field.change', field: 'password', value: 'secret' });
}

describe('validateLogin', () => {
  it('requires both fields, and a blank e-mail counts as missing', () => {
    expect(validateLogin({ email: '', password: '' })).toEqual({
      email: 'Email is required.',
      password: 'Password is required.',
    });
    expect(validateLogin({ email: '  ', password: 'x' })).toEqual({ email: 'Email is required.' });
    expect(validateLogin({ email: 'tess@example.org', password: 'x' })).toEqual({});
  });
});

describe('loginFailureMessage', () => {
  it.each([
    [
      'a refusal',
      new ApiError(400, 'invalid_credentials', 'Identifier or password invalid.', ''),
      LOGIN_FAILED_MESSAGE,
    ],
    [
      'a blocked account',
      new ApiError(400, 'blocked', 'Your account has been blocked by an administrator', ''),
      LOGIN_FAILED_MESSAGE,
    ],
    [
      'a server error',
      new ApiError(500, 'internal_error', 'An internal server error occurred', ''),
      LOGIN_FAILED_MESSAGE,
    ],
    ['an unexpected answer', new ContractError('/auth/local', []), LOGIN_FAILED_MESSAGE],
    ['anything else', new Error('boom'), LOGIN_FAILED_MESSAGE],
    [
      'too many attempts (the server says how long to wait)',
      new ApiError(429, 'too_many_requests', 'Please wait 15 minutes.', ''),
      'Please wait 15 minutes.',
    ],
    ['no network', new NetworkError(), new NetworkError().message],
  ])('%s', (_, error, message) => {
    expect(loginFailureMessage(error)).toBe(message);
  });
});

describe('loginMachine', () => {
  it('sends nothing while a field is missing', () => {
    const { actor, loginCalls } = start({ login: async () => ({ jwt: 't', user }) });
    actor.send({ type: 'login.submit' });
    expect(actor.getSnapshot().matches({ form: 'editing' })).toBe(true);
    expect(actor.getSnapshot().context.fieldErrors).toEqual({
      email: 'Email is required.',
      password: 'Password is required.',
    });
    actor.send({ type: 'field.change', field: 'email', value: 'tess@example.org' });
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ password: 'Password is required.' });
    expect(loginCalls).toEqual([]);
  });

  it('logs in, keeps no token in the page, loads the user and completes', async () => {
    const { actor, loginCalls, completeLogin } = start({ login: async () => ({ jwt: 'h.p.s', user }) });
    fillIn(actor);
    actor.send({ type: 'login.submit' });
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    await waitFor(actor, (s) => s.status === 'done');
    expect(loginCalls).toEqual([{ identifier: 'tess@example.org', password: 'secret', remember: false }]);
    expect(completeLogin).toHaveBeenCalledWith(user);
    expect(actor.getSnapshot().context.failure).toBeNull();
    expect(document.cookie).not.toContain('jwt='); // the server keeps the token in its HttpOnly cookie
  });

  it('keeps the session only for this browser session unless "keep me signed in" is ticked, and sends the choice', async () => {
    const { actor, loginCalls } = start({
      login: () => Promise.reject(new ApiError(400, 'x', 'Identifier or password invalid.', '')),
    });
    expect(actor.getSnapshot().context.remember).toBe(false);
    fillIn(actor);
    actor.send({ type: 'remember.change', value: true });
    actor.send({ type: 'login.submit' });
    await waitFor(actor, (s) => s.matches({ form: 'editing' }));
    // A failed attempt keeps the choice, like the fields; clearing it is sent too.
    expect(actor.getSnapshot().context.remember).toBe(true);
    actor.send({ type: 'remember.change', value: false });
    actor.send({ type: 'login.submit' });
    await waitFor(actor, (s) => s.matches({ form: 'editing' }) && loginCalls.length === 2);
    expect(loginCalls).toEqual([
      { identifier: 'tess@example.org', password: 'secret', remember: true },
      { identifier: 'tess@example.org', password: 'secret', remember: false },
    ]);
  });

  it('ignores the choice while the request is on its way (what was sent stands)', () => {
    const { actor } = start({ login: () => new Promise(() => undefined) });
    fillIn(actor);
    actor.send({ type: 'login.submit' });
    actor.send({ type: 'remember.change', value: true });
    expect(actor.getSnapshot().context.remember).toBe(false);
  });

  it('goes back to the form with the reason (shown under the form) when the login fails, keeping what was typed', async () => {
    const { actor, completeLogin } = start({
      login: () => Promise.reject(new ApiError(400, 'x', 'Identifier or password invalid.', '')),
    });
    fillIn(actor);
    actor.send({ type: 'login.submit' });
    await waitFor(actor, (s) => s.matches({ form: 'editing' }));
    expect(actor.getSnapshot().context).toMatchObject({
      email: ' tess@example.org ',
      password: 'secret',
      failure: LOGIN_FAILED_MESSAGE,
    });
    // Typing again clears it.
    actor.send({ type: 'field.change', field: 'password', value: 'secret2' });
    expect(actor.getSnapshot().context.failure).toBeNull();
    expect(completeLogin).not.toHaveBeenCalled();
  });

  it('forgets the token when the user cannot be loaded', async () => {
    const { actor, completeLogin } = start({
      login: async () => ({ jwt: 'h.p.s', user }),
      fetchMe: () => Promise.reject(new NetworkError()),
    });
    fillIn(actor);
    actor.send({ type: 'login.submit' });
    await waitFor(actor, (s) => s.matches({ form: 'editing' }));
    expect(actor.getSnapshot().context.failure).toBe(new NetworkError().message);
    expect(document.cookie).not.toContain('jwt=');
    expect(completeLogin).not.toHaveBeenCalled();
  });
});

describe('single sign-on', () => {
  it('leaves for an offered provider; one not offered is ignored', async () => {
    const { actor, goToProvider } = start({
      login: () => new Promise(() => undefined),
      methods: async () => ({ providers: [SCHOOL], passwordLogin: true }),
    });
    actor.send({ type: 'sso.start', provider: 'school' });
    expect(goToProvider).not.toHaveBeenCalled(); // not offered until the methods are known
    await waitFor(actor, (s) => s.matches({ methods: 'ready' }));
    actor.send({ type: 'sso.start', provider: 'elsewhere' });
    expect(goToProvider).not.toHaveBeenCalled();
    actor.send({ type: 'sso.start', provider: 'school' });
    expect(goToProvider).toHaveBeenCalledWith(SCHOOL);
    expect(actor.getSnapshot().matches({ form: 'redirecting' })).toBe(true);
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
  });

  it('PASSWORD_LOGIN=false: the password form takes nothing', async () => {
    const { actor, loginCalls } = start({
      login: async () => ({ jwt: 'h.p.s', user }),
      methods: async () => ({ providers: [SCHOOL], passwordLogin: false }),
    });
    await waitFor(actor, (s) => s.matches({ methods: 'ready' }));
    fillIn(actor);
    actor.send({ type: 'login.submit' });
    expect(actor.getSnapshot().context.email).toBe('');
    expect(actor.getSnapshot().matches({ form: 'editing' })).toBe(true);
    expect(loginCalls).toEqual([]);
  });

  it('methods the page came with are known at once: nothing is loaded, a provider is offered at once', () => {
    const methods = vi.fn(async () => PASSWORD_ONLY);
    const { actor, goToProvider } = start({
      login: () => new Promise(() => undefined),
      methods,
      input: { methods: { providers: [SCHOOL], passwordLogin: true } },
    });
    expect(actor.getSnapshot().matches({ methods: 'ready' })).toBe(true);
    expect(methods).not.toHaveBeenCalled();
    actor.send({ type: 'sso.start', provider: 'school' });
    expect(goToProvider).toHaveBeenCalledWith(SCHOOL);
  });

  it('methods that cannot be read leave the password form alone', async () => {
    const { actor } = start({
      login: async () => ({ jwt: 'h.p.s', user }),
      methods: () => Promise.reject(new NetworkError()),
    });
    await waitFor(actor, (s) => s.matches({ methods: 'ready' }));
    expect(actor.getSnapshot().context.methods).toEqual(PASSWORD_ONLY);
  });

  it('a refused sign-in at a provider starts the page with what to do', () => {
    const { actor } = start({ login: async () => ({ jwt: 'h.p.s', user }), input: { ssoError: 'no_account' } });
    expect(actor.getSnapshot().context.failure).toBe(SSO_MESSAGES.no_account);
  });
});
