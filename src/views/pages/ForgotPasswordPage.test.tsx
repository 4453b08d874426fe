import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { fromPromise } from 'xstate';
import { passwordResetMachine } from '../../machines/passwordReset/passwordResetMachine.ts';
import { PasswordResetActorContext } from '../../machines/passwordReset/usePasswordReset.ts';
import { Toaster } from '../feedback/Toaster.tsx';
import { clearToasts, notify } from '../feedback/toastStore.ts';
import { ForgotPasswordPage } from './ForgotPasswordPage.tsx';

const SENT = 'If your email was valid, a reset password link will be sent to it.';

function renderForgot({
  forgotPassword = async () => ({ ok: true }),
}: { forgotPassword?: (email: string) => Promise<unknown> } = {}) {
  const requests: string[] = [];
  const goToLogin = vi.fn<() => void>();
  const logic = passwordResetMachine.provide({
    actors: {
      forgotPassword: fromPromise<unknown, { email: string }>(({ input }) => {
        requests.push(input.email);
        return forgotPassword(input.email);
      }),
    },
    actions: {
      notifyInfo: (_, params) => notify(params.message, 'info'),
      notifySuccess: (_, params) => notify(params.message, 'success'),
      notifyFailure: (_, params) => notify(params.message, 'error'),
      goToLogin,
      completeLogin: () => {
        throw new Error('The forgot form never logs anybody in');
      },
    },
  });
  const location = memoryLocation({ path: '/forgot-password', record: true });
  render(
    <Router hook={location.hook}>
      <PasswordResetActorContext.Provider logic={logic} options={{ input: { flow: 'forgot' } }}>
        <ForgotPasswordPage />
      </PasswordResetActorContext.Provider>
      <Toaster />
    </Router>,
  );
  return { requests, goToLogin, location, ux: userEvent.setup() };
}

const emailInput = () => screen.getByLabelText('Email') as HTMLInputElement;
const submitButton = () => screen.getByRole('button', { name: 'SUBMIT' }) as HTMLButtonElement;

beforeEach(clearToasts);
afterEach(clearToasts);

describe('ForgotPasswordPage', () => {
  it('shows an e-mail field, SUBMIT and BACK TO LOGIN (spec §2)', () => {
    renderForgot();
    expect(screen.getByRole('heading', { level: 1, name: 'Forgot Password' })).toBeTruthy();
    expect(emailInput().type).toBe('email');
    expect(submitButton().disabled).toBe(false);
    expect(screen.getByRole('link', { name: 'BACK TO LOGIN' }).getAttribute('href')).toBe('/login');
  });

  it('asks for an e-mail address and sends nothing without one', async () => {
    const { ux, requests, goToLogin } = renderForgot();
    await ux.click(submitButton());
    expect(screen.getByText('Email is required.')).toBeTruthy();
    expect(emailInput().getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(emailInput());
    expect(requests).toEqual([]);
    expect(goToLogin).not.toHaveBeenCalled();
  });

  it('refuses an address that is not one, and sends nothing', async () => {
    const { ux, requests } = renderForgot();
    await ux.type(emailInput(), 'tess@example{Enter}');
    expect(screen.getByText('Please enter a valid email address.')).toBeTruthy();
    expect(document.getElementById(emailInput().getAttribute('aria-describedby')!)?.textContent).toBe(
      'Please enter a valid email address.',
    );
    expect(requests).toEqual([]);
    await ux.type(emailInput(), '.org');
    expect(screen.queryByText('Please enter a valid email address.')).toBeNull();
  });

  it('asks for a link, then says the same thing and goes to the login page', async () => {
    let answer!: (value: unknown) => void;
    const { ux, requests, goToLogin } = renderForgot({
      forgotPassword: () => new Promise((resolve) => (answer = resolve)),
    });
    await ux.type(emailInput(), ' tess@example.org ');
    await ux.click(submitButton());
    expect(requests).toEqual(['tess@example.org']);
    expect(submitButton().disabled).toBe(true);
    expect(submitButton().getAttribute('aria-busy')).toBe('true');
    expect(emailInput().readOnly).toBe(true);
    await act(async () => answer({ ok: true }));
    await waitFor(() => expect(goToLogin).toHaveBeenCalledTimes(1));
    expect(screen.getByText(SENT)).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('says the same thing when the request fails (spec §8)', async () => {
    const error = new Error('Too many reset requests for this address.');
    const { ux, goToLogin } = renderForgot({ forgotPassword: () => Promise.reject(error) });
    await ux.type(emailInput(), 'tess@example.org{Enter}');
    await waitFor(() => expect(goToLogin).toHaveBeenCalledTimes(1));
    expect(screen.getByText(SENT)).toBeTruthy();
    expect(screen.queryByText(error.message)).toBeNull();
  });

  it('BACK TO LOGIN leads to /login', async () => {
    const { ux, location } = renderForgot();
    await ux.click(screen.getByRole('link', { name: 'BACK TO LOGIN' }));
    expect(location.history.at(-1)).toBe('/login');
  });
});
