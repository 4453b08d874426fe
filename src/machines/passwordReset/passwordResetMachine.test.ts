import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { AuthResponse, ResetPasswordBody } from '../../schemas/auth.ts';
import type { User } from '../../schemas/user.ts';
import { ApiError, NetworkError } from '../../services/errors.ts';
import { makeUser } from '../../test/renderApp.tsx';
import {
  PASSWORD_RESET_MESSAGES,
  passwordResetMachine,
  validateForgot,
  validateReset,
  type PasswordResetInput,
} from './passwordResetMachine.ts';

const user = makeUser('teacher');

function start(
  input: PasswordResetInput,
  {
    forgotPassword = async () => ({ ok: true }),
    resetPassword = async () => ({ jwt: 'h.p.s', user }),
  }: { forgotPassword?: () => Promise<unknown>; resetPassword?: () => Promise<AuthResponse> } = {},
) {
  const effects: string[] = [];
  const completeLogin = vi.fn<(user: User) => void>();
  const requests: unknown[] = [];
  const actor = createActor(
    passwordResetMachine.provide({
      actors: {
        forgotPassword: fromPromise<unknown, { email: string }>(({ input }) => {
          requests.push(input);
          return forgotPassword();
        }),
        resetPassword: fromPromise<AuthResponse, ResetPasswordBody>(({ input }) => {
          requests.push(input);
          return resetPassword();
        }),
      },
      actions: {
        notifyInfo: (_, params) => effects.push(`info: ${params.message}`),
        notifySuccess: (_, params) => effects.push(`success: ${params.message}`),
        notifyFailure: (_, params) => effects.push(`error: ${params.message}`),
        goToLogin: () => effects.push('goToLogin'),
        completeLogin: (_, params) => completeLogin(params.user),
      },
    }),
    { input },
  ).start();
  return { actor, effects, completeLogin, requests };
}

describe('validateForgot', () => {
  it('requires a well-formed e-mail address', () => {
    expect(validateForgot({ email: ' ' })).toEqual({ email: 'Email is required.' });
    expect(validateForgot({ email: 'tess@example' })).toEqual({ email: 'Please enter a valid email address.' });
    expect(validateForgot({ email: ' tess@example.org ' })).toEqual({});
  });
});

describe('validateReset', () => {
  it('requires both fields, a long enough password, and the same password twice', () => {
    expect(validateReset({ password: '', passwordConfirmation: '' })).toEqual({
      password: 'New Password is required.',
      passwordConfirmation: 'Please confirm your new password.',
    });
    expect(validateReset({ password: 'brand-new-pass', passwordConfirmation: 'brand-new-pasz' })).toEqual({
      passwordConfirmation: 'Passwords do not match.',
    });
    expect(validateReset({ password: 'short', passwordConfirmation: 'short' })).toEqual({
      password: 'Your new password must be at least 8 characters long.',
    });
    expect(validateReset({ password: '', passwordConfirmation: 'brand-new-pass' })).toEqual({
      password: 'New Password is required.',
    });
    expect(validateReset({ password: 'brand-new-pass', passwordConfirmation: 'brand-new-pass' })).toEqual({});
  });
});

describe('passwordResetMachine, forgot half', () => {
  it('sends nothing for an invalid address', () => {
    const { actor, requests } = start({ flow: 'forgot' });
    actor.send({ type: 'field.change', field: 'email', value: 'nope' });
    actor.send({ type: 'passwordReset.submit' });
    expect(actor.getSnapshot().value).toEqual({ forgot: 'editing' });
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ email: 'Please enter a valid email address.' });
    expect(requests).toEqual([]);
  });

  it.each([
    ['an accepted request', async () => ({ ok: true })],
    ['a refused request', () => Promise.reject(new ApiError(429, 'too_many_requests', 'Too many reset requests.', ''))],
    ['no network', () => Promise.reject(new NetworkError())],
  ])('after %s it says the same thing and goes to the login page', async (_, forgotPassword) => {
    const { actor, effects, requests } = start({ flow: 'forgot' }, { forgotPassword });
    actor.send({ type: 'field.change', field: 'email', value: ' tess@example.org ' });
    actor.send({ type: 'passwordReset.submit' });
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    await waitFor(actor, (s) => s.matches({ forgot: 'sent' }));
    expect(requests).toEqual([{ email: 'tess@example.org' }]);
    expect(effects).toEqual([`info: ${PASSWORD_RESET_MESSAGES.linkRequested}`, 'goToLogin']);
  });
});

describe('passwordResetMachine, reset half', () => {
  const fill = (actor: ReturnType<typeof start>['actor'], confirmation = 'brand-new-pass') => {
    actor.send({ type: 'field.change', field: 'password', value: 'brand-new-pass' });
    actor.send({ type: 'field.change', field: 'passwordConfirmation', value: confirmation });
  };

  it('sends nothing when the passwords differ', () => {
    const { actor, requests } = start({ flow: 'reset', code: 'c0de' });
    fill(actor, 'brand-new-pasz');
    actor.send({ type: 'passwordReset.submit' });
    expect(actor.getSnapshot().context.fieldErrors).toEqual({ passwordConfirmation: 'Passwords do not match.' });
    expect(requests).toEqual([]);
  });

  it('sets the password with the code, keeps no token in the page, says so and lets the user in', async () => {
    const { actor, effects, requests, completeLogin } = start({ flow: 'reset', code: 'c0de' });
    fill(actor);
    actor.send({ type: 'passwordReset.submit' });
    await waitFor(actor, (s) => s.matches({ reset: 'changed' }));
    expect(requests).toEqual([{ code: 'c0de', password: 'brand-new-pass', passwordConfirmation: 'brand-new-pass' }]);
    expect(effects).toEqual([`success: ${PASSWORD_RESET_MESSAGES.passwordChanged}`]);
    expect(completeLogin).toHaveBeenCalledWith(user);
    expect(document.cookie).not.toContain('jwt='); // the server keeps the token in its HttpOnly cookie
  });

  it('says the password was set (not changed) after a welcome link', async () => {
    const { actor, effects } = start({ flow: 'reset', code: 'c0de', welcome: true });
    fill(actor);
    actor.send({ type: 'passwordReset.submit' });
    await waitFor(actor, (s) => s.matches({ reset: 'changed' }));
    expect(effects).toEqual([`success: ${PASSWORD_RESET_MESSAGES.passwordSet}`]);
  });

  it.each([
    [
      'the server’s first message',
      new ApiError(400, 'incorrect_code', 'Incorrect code provided.', ''),
      'Incorrect code provided.',
    ],
    ['the rate-limit message', new ApiError(429, 'too_many_requests', 'Too many attempts.', ''), 'Too many attempts.'],
    ['the network message', new NetworkError(), new NetworkError().message],
  ])('alerts %s and goes back to the form', async (_, error, message) => {
    const { actor, effects, completeLogin } = start(
      { flow: 'reset', code: 'c0de' },
      { resetPassword: () => Promise.reject(error) },
    );
    fill(actor);
    actor.send({ type: 'passwordReset.submit' });
    await waitFor(actor, (s) => s.matches({ reset: 'editing' }) && effects.length > 0);
    expect(effects).toEqual([`error: ${message}`]);
    expect(actor.getSnapshot().context).toMatchObject({
      password: 'brand-new-pass',
      passwordConfirmation: 'brand-new-pass',
    });
    expect(completeLogin).not.toHaveBeenCalled();
    expect(document.cookie).not.toContain('jwt=');
  });
});
