import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useMemo } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { memoryLocation } from 'wouter/memory-location';
import { createActor } from 'xstate';
import { useAuthWiring } from '../../src/app/wiring/authRoutes.tsx';
import { providePasswordReset } from '../../src/app/wiring/passwordRoutes.tsx';
import {
  passwordResetMachine,
  type PasswordResetEvent,
  type PasswordResetInput,
} from '../../src/machines/passwordReset/passwordResetMachine.ts';
import { PasswordResetActorContext } from '../../src/machines/passwordReset/usePasswordReset.ts';
import { sessionMachine } from '../../src/machines/session/sessionMachine.ts';
import type { AuthResponse, ResetPasswordBody } from '../../src/schemas/auth.ts';
import { ApiError, NetworkError } from '../../src/services/errors.ts';
import { signOut } from '../../src/services/session.ts';
import { clearToasts } from '../../src/views/feedback/toastStore.ts';
import { ForgotPasswordPage } from '../../src/views/pages/ForgotPasswordPage.tsx';
import { ResetPasswordPage } from '../../src/views/pages/ResetPasswordPage.tsx';
import { checkStatesOf } from './support/checkStates.ts';
import { coverageInspector, createPathModel, isInvoking, modelEvents } from './support/coverage.ts';
import { renderInAppShell } from './support/appShell.tsx';
import { controllableActor } from './support/deferred.ts';
import { trackCoverage } from './support/report.ts';
import { makeUser } from './support/users.ts';

trackCoverage(passwordResetMachine);

const user = makeUser('teacher', { username: 'Tess Teacher' });
const CODE = 'one-time-code';
const TOKEN = 'h.p.s';
const VALID_EMAIL = 'tess@example.org';
const INVALID_EMAIL = 'tess@example';
const NEW_PASSWORD = 'brand-new-pass';
const OTHER_PASSWORD = 'brand-new-pasz';
const LINK_REQUESTED = 'If your email was valid, a reset password link will be sent to it.';
const PASSWORD_CHANGED = 'Your password has been changed and you have been logged in.';

const incorrectCode = new ApiError(400, 'incorrect_code', 'Incorrect code provided.', '');
const tooMany = new ApiError(
  429,
  'too_many_requests',
  'Too many reset requests for this address. Please wait an hour and try again.',
  '',
);
const offline = new NetworkError();
/** The alert the reset page shows for each failure the model sends (the forgot page says the same whatever happens). */
const alertFor = new Map<unknown, string>([
  [incorrectCode, 'Incorrect code provided.'],
  [offline, offline.message],
]);

const inputs: Record<'forgot' | 'reset', PasswordResetInput> = {
  forgot: { flow: 'forgot' },
  reset: { flow: 'reset', code: CODE },
};

const userEvents: Record<'forgot' | 'reset', PasswordResetEvent[]> = {
  forgot: [
    { type: 'field.change', field: 'email', value: VALID_EMAIL },
    { type: 'field.change', field: 'email', value: INVALID_EMAIL },
    { type: 'passwordReset.submit' },
  ],
  reset: [
    { type: 'field.change', field: 'password', value: NEW_PASSWORD },
    { type: 'field.change', field: 'passwordConfirmation', value: NEW_PASSWORD },
    { type: 'field.change', field: 'passwordConfirmation', value: OTHER_PASSWORD },
    { type: 'passwordReset.submit' },
  ],
};
const forgotPasswordEvents = [
  { type: 'xstate.done.actor.forgotPassword', output: { ok: true } },
  { type: 'xstate.error.actor.forgotPassword', error: tooMany },
  { type: 'xstate.error.actor.forgotPassword', error: offline },
] as unknown as PasswordResetEvent[];
const resetPasswordEvents = [
  { type: 'xstate.done.actor.resetPassword', output: { jwt: TOKEN, user } },
  { type: 'xstate.error.actor.resetPassword', error: incorrectCode },
  { type: 'xstate.error.actor.resetPassword', error: offline },
] as unknown as PasswordResetEvent[];

function setup(flow: 'forgot' | 'reset') {
  signOut();
  clearToasts();
  const forgotPassword = controllableActor<unknown, { email: string }>();
  const resetPassword = controllableActor<AuthResponse, ResetPasswordBody>();
  const session = createActor(sessionMachine.provide({ actions: { reloadHome: vi.fn<() => void>() } }), {
    input: { hasToken: false },
  }).start();
  const path = flow === 'forgot' ? '/forgot-password' : `/reset-password/${CODE}`;
  const location = memoryLocation({ path, record: true });
  const harness = { forgotPassword, resetPassword, session, location, path, expectedAlerts: [] as string[] };

  /** The route as the app wires it, with the API calls under the test's control. */
  function PageUnderTest() {
    const wiring = useAuthWiring();
    const logic = useMemo(
      () =>
        providePasswordReset(wiring).provide({
          actors: { forgotPassword: forgotPassword.logic, resetPassword: resetPassword.logic },
        }),
      [wiring],
    );
    return (
      <PasswordResetActorContext.Provider logic={logic} options={{ input: inputs[flow], inspect: coverageInspector }}>
        {flow === 'forgot' ? <ForgotPasswordPage /> : <ResetPasswordPage />}
      </PasswordResetActorContext.Provider>
    );
  }

  renderInAppShell(<PageUnderTest />, { session, location });
  return harness;
}

type Harness = ReturnType<typeof setup>;
type Snapshot = {
  value: unknown;
  context: {
    email: string;
    password: string;
    passwordConfirmation: string;
    fieldErrors: Partial<Record<'email' | 'password' | 'passwordConfirmation', string>>;
  };
};

const field = {
  email: () => screen.getByLabelText('Email') as HTMLInputElement,
  password: () => screen.getByLabelText('New Password') as HTMLInputElement,
  passwordConfirmation: () => screen.getByLabelText('Confirm New Password') as HTMLInputElement,
};
const submitButton = () => screen.getByRole('button', { name: 'SUBMIT' }) as HTMLButtonElement;
const alerts = () => screen.queryAllByRole('alert').map((a) => a.querySelector('p')?.textContent);

function expectBusy(busy: boolean) {
  expect(submitButton().disabled).toBe(busy);
  expect(submitButton().getAttribute('aria-busy')).toBe(busy ? 'true' : null);
}

/** The field messages the page must show, read from the model's context. */
function expectFieldMessages(state: Snapshot, names: readonly ('email' | 'password' | 'passwordConfirmation')[]) {
  for (const name of names) {
    const input = field[name]();
    expect(input.value).toBe(state.context[name]);
    const message = state.context.fieldErrors[name];
    const describedBy = input.getAttribute('aria-describedby');
    if (message) {
      expect(input.getAttribute('aria-invalid')).toBe('true');
      expect(document.getElementById(describedBy!)?.textContent).toBe(message);
    } else {
      expect(input.getAttribute('aria-invalid')).toBeNull();
      expect(describedBy).toBeNull();
    }
  }
}

const FORGOT_MESSAGES = { required: 'Email is required.', invalid: 'Please enter a valid email address.' };
const RESET_MESSAGES = {
  required: 'New Password is required.',
  confirm: 'Please confirm your new password.',
  mismatch: 'Passwords do not match.',
};

/** What the page must show in each state of the machine. */
const viewOf: Record<string, (h: Harness, state: Snapshot) => Promise<void>> = {
  'forgot.editing': async (h, state) => {
    await waitFor(() => expectBusy(false));
    expectFieldMessages(state, ['email']);
    const shown = Object.values(FORGOT_MESSAGES).filter((m) => screen.queryByText(m));
    expect(shown).toEqual(state.context.fieldErrors.email ? [state.context.fieldErrors.email] : []);
    expect(h.forgotPassword.calls).toHaveLength(0);
    expect(h.location.history.at(-1)).toBe('/forgot-password');
  },
  'forgot.sending': async (h) => {
    expectBusy(true);
    expect(screen.getByText('Sending the reset link…')).toBeTruthy();
    expect(h.forgotPassword.calls.map((c) => c.input)).toEqual([{ email: VALID_EMAIL }]);
  },
  'forgot.sent': async (h) => {
    await waitFor(() => expect(h.location.history.at(-1)).toBe('/login'));
    expect(screen.getByText(LINK_REQUESTED)).toBeTruthy();
    // The same words whatever the server answered: no error is shown.
    expect(alerts()).toEqual([]);
  },
  'reset.editing': async (h, state) => {
    await waitFor(() => expectBusy(false));
    expectFieldMessages(state, ['password', 'passwordConfirmation']);
    const shown = Object.values(RESET_MESSAGES).filter((m) => screen.queryByText(m));
    const expected = [state.context.fieldErrors.password, state.context.fieldErrors.passwordConfirmation].filter(
      Boolean,
    );
    expect(shown.sort()).toEqual(expected.sort());
    expect(h.resetPassword.calls).toHaveLength(0);
    expect(document.cookie).not.toContain('jwt=');
    expect(alerts()).toEqual(h.expectedAlerts);
    expect(h.location.history.at(-1)).toBe(h.path);
  },
  'reset.submitting': async (h) => {
    expectBusy(true);
    expect(screen.getByText('Saving your new password…')).toBeTruthy();
    expect(h.resetPassword.calls.map((c) => c.input)).toEqual([
      { code: CODE, password: NEW_PASSWORD, passwordConfirmation: NEW_PASSWORD },
    ]);
  },
  'reset.changed': async (h) => {
    await waitFor(() => expect(h.location.history.at(-1)).toBe('/dashboard'));
    expect(screen.getByText(PASSWORD_CHANGED)).toBeTruthy();
    expect(await screen.findByRole('button', { name: user.username })).toBeTruthy();
    expect(h.session.getSnapshot().value).toBe('authenticated');
    expect(document.cookie).not.toContain('jwt='); // the server keeps the token in its HttpOnly cookie
    expect(alerts()).toEqual(h.expectedAlerts);
  },
};

for (const flow of ['forgot', 'reset'] as const) {
  describe(`passwordReset model (${flow})`, () => {
    const model = createPathModel(passwordResetMachine, {
      input: inputs[flow],
      events: modelEvents(userEvents[flow], {
        forgotPassword: forgotPasswordEvents,
        resetPassword: resetPasswordEvents,
      }),
    });
    const paths = model.getShortestPaths();
    for (const path of paths) {
      it(`${path.description}`, async () => {
        const h = setup(flow);
        const ux = userEvent.setup();
        await path.test({
          states: checkStatesOf<Harness, Snapshot & { matches: (value: string) => boolean }>(h, viewOf),
          events: {
            'field.change': async (step) => {
              const event = step.event as Extract<PasswordResetEvent, { type: 'field.change' }>;
              const input = field[event.field]();
              await ux.clear(input);
              await ux.type(input, event.value);
            },
            'passwordReset.submit': async () => {
              await ux.click(submitButton());
            },
            'xstate.done.actor.forgotPassword': async () => {
              await act(async () => h.forgotPassword.next().deferred.resolve({ ok: true }));
            },
            'xstate.error.actor.forgotPassword': async (step) => {
              const error = (step.event as unknown as { error: unknown }).error;
              await act(async () => h.forgotPassword.next().deferred.reject(error));
            },
            'xstate.done.actor.resetPassword': async () => {
              await act(async () => h.resetPassword.next().deferred.resolve({ jwt: TOKEN, user }));
            },
            'xstate.error.actor.resetPassword': async (step) => {
              const error = (step.event as unknown as { error: unknown }).error;
              h.expectedAlerts.push(alertFor.get(error)!);
              await act(async () => h.resetPassword.next().deferred.reject(error));
            },
          },
        });
        // The page made no request the path did not expect: only the one of the state it ended in is open.
        expect(h.forgotPassword.calls).toHaveLength(isInvoking(path.state, 'forgotPassword') ? 1 : 0);
        expect(h.resetPassword.calls).toHaveLength(isInvoking(path.state, 'resetPassword') ? 1 : 0);
      });
    }
  });
}
