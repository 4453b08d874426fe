import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { fromPromise } from 'xstate';
import { passwordResetMachine } from '../../machines/passwordReset/passwordResetMachine.ts';
import { PasswordResetActorContext } from '../../machines/passwordReset/usePasswordReset.ts';
import type { AuthResponse, ResetPasswordBody } from '../../schemas/auth.ts';
import type { User } from '../../schemas/user.ts';
import { makeUser, renderApp, resetApp } from '../../test/renderApp.tsx';
import { Toaster } from '../feedback/Toaster.tsx';
import { clearToasts, notify } from '../feedback/toastStore.ts';
import { ResetPasswordPage } from './ResetPasswordPage.tsx';

const CHANGED = 'Your password has been changed and you have been logged in.';
const user = makeUser('teacher');

function renderReset({
  code = 'one-time-code',
  resetPassword = async () => ({ jwt: 'h.p.s', user }),
}: {
  code?: string;
  resetPassword?: (body: ResetPasswordBody) => Promise<AuthResponse>;
} = {}) {
  const requests: ResetPasswordBody[] = [];
  const completeLogin = vi.fn<(user: User) => void>();
  const logic = passwordResetMachine.provide({
    actors: {
      resetPassword: fromPromise<AuthResponse, ResetPasswordBody>(({ input }) => {
        requests.push(input);
        return resetPassword(input);
      }),
    },
    actions: {
      notifyInfo: (_, params) => notify(params.message, 'info'),
      notifySuccess: (_, params) => notify(params.message, 'success'),
      notifyFailure: (_, params) => notify(params.message, 'error'),
      goToLogin: () => {
        throw new Error('The reset form never leaves for the login page by itself');
      },
      completeLogin: (_, params) => completeLogin(params.user),
    },
  });
  const location = memoryLocation({ path: `/reset-password/${code}`, record: true });
  render(
    <Router hook={location.hook}>
      <PasswordResetActorContext.Provider logic={logic} options={{ input: { flow: 'reset', code } }}>
        <ResetPasswordPage />
      </PasswordResetActorContext.Provider>
      <Toaster />
    </Router>,
  );
  return { requests, completeLogin, location, ux: userEvent.setup() };
}

const passwordInput = () => screen.getByLabelText('New Password') as HTMLInputElement;
const confirmationInput = () => screen.getByLabelText('Confirm New Password') as HTMLInputElement;
const submitButton = () => screen.getByRole('button', { name: 'SUBMIT' }) as HTMLButtonElement;

beforeEach(clearToasts);
afterEach(clearToasts);

describe('ResetPasswordPage', () => {
  it('shows New Password, Confirm New Password, SUBMIT and BACK TO LOGIN (spec §2)', () => {
    renderReset();
    expect(screen.getByRole('heading', { level: 1, name: 'Reset Password' })).toBeTruthy();
    expect(passwordInput().type).toBe('password');
    expect(confirmationInput().type).toBe('password');
    expect(passwordInput().autocomplete).toBe('new-password');
    expect(submitButton().disabled).toBe(false);
    expect(screen.getByRole('link', { name: 'BACK TO LOGIN' }).getAttribute('href')).toBe('/login');
  });

  it('asks for both fields and sends nothing while one is missing', async () => {
    const { ux, requests } = renderReset();
    await ux.click(submitButton());
    expect(screen.getByText('New Password is required.')).toBeTruthy();
    expect(screen.getByText('Please confirm your new password.')).toBeTruthy();
    expect(passwordInput().getAttribute('aria-invalid')).toBe('true');
    expect(confirmationInput().getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(passwordInput());
    expect(requests).toEqual([]);
  });

  it('says when the passwords differ, without asking the server', async () => {
    const { ux, requests } = renderReset();
    await ux.type(passwordInput(), 'brand-new-pass');
    await ux.type(confirmationInput(), 'brand-new-pasz{Enter}');
    expect(screen.getByText('Passwords do not match.')).toBeTruthy();
    expect(document.getElementById(confirmationInput().getAttribute('aria-describedby')!)?.textContent).toBe(
      'Passwords do not match.',
    );
    expect(document.activeElement).toBe(confirmationInput());
    expect(passwordInput().getAttribute('aria-invalid')).toBeNull();
    expect(requests).toEqual([]);
  });

  it('says when the new password is too short, as the server would', async () => {
    const { ux, requests } = renderReset();
    await ux.type(passwordInput(), 'short');
    await ux.type(confirmationInput(), 'short{Enter}');
    expect(screen.getByText('Your new password must be at least 8 characters long.')).toBeTruthy();
    expect(requests).toEqual([]);
  });

  it('sets the password with the code of the link, keeps no token in the page, says so and lets the user in', async () => {
    let answer!: (response: AuthResponse) => void;
    const { ux, requests, completeLogin } = renderReset({
      resetPassword: () => new Promise((resolve) => (answer = resolve)),
    });
    await ux.type(passwordInput(), 'brand-new-pass');
    await ux.type(confirmationInput(), 'brand-new-pass');
    await ux.click(submitButton());
    expect(requests).toEqual([
      { code: 'one-time-code', password: 'brand-new-pass', passwordConfirmation: 'brand-new-pass' },
    ]);
    expect(submitButton().disabled).toBe(true);
    expect(submitButton().getAttribute('aria-busy')).toBe('true');
    expect(screen.getByText('Saving your new password…')).toBeTruthy();
    await act(async () => answer({ jwt: 'h.p.s', user }));
    await waitFor(() => expect(completeLogin).toHaveBeenCalledWith(user));
    expect(document.cookie).not.toContain('jwt='); // the server keeps the token in its HttpOnly cookie
    expect(screen.getByText(CHANGED)).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  // Which message each failure gives is the machine's (see passwordResetMachine.test.ts); the page shows it and stays.
  it('alerts a failure and keeps the form', async () => {
    const alert = 'Something went wrong. Please try again.';
    const { ux, completeLogin } = renderReset({ resetPassword: () => Promise.reject(new Error('refused')) });
    await ux.type(passwordInput(), 'brand-new-pass');
    await ux.type(confirmationInput(), 'brand-new-pass{Enter}');
    expect((await screen.findByRole('alert')).textContent).toContain(alert);
    expect(passwordInput().value).toBe('brand-new-pass');
    expect(submitButton().disabled).toBe(false);
    expect(document.cookie).not.toContain('jwt=');
    expect(completeLogin).not.toHaveBeenCalled();
  });
});

describe('ResetPasswordPage for people who never had a password', () => {
  afterEach(resetApp);

  it('is "Set your password" after a welcome link (a new account or an invitation), "Reset Password" otherwise', async () => {
    renderApp('/reset-password/c0de?welcome=1');
    expect(await screen.findByRole('heading', { level: 1, name: 'Set your password' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Reset Password' })).toBeNull();
    cleanup();
    resetApp();
    renderApp('/reset-password/c0de');
    expect(await screen.findByRole('heading', { level: 1, name: 'Reset Password' })).toBeTruthy();
  });
});
