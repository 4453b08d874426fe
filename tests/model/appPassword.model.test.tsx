import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import {
  APP_PASSWORD_MESSAGES,
  appPasswordMachine,
  type AppPasswordEvent,
} from '../../src/machines/appPassword/appPasswordMachine.ts';
import { AppPasswordActorContext } from '../../src/machines/appPassword/useAppPassword.ts';
import type { AppPasswordBody } from '../../src/schemas/sso.ts';
import { ApiError, NetworkError } from '../../src/services/errors.ts';
import { AppPasswordPage } from '../../src/views/pages/AppPasswordPage.tsx';
import { checkStatesOf } from './support/checkStates.ts';
import { coverageInspector, createPathModel, isInvoking, modelEvents } from './support/coverage.ts';
import { controllableActor } from './support/deferred.ts';
import { trackCoverage } from './support/report.ts';

trackCoverage(appPasswordMachine);
afterEach(cleanup);

const PHRASE = 'a long and unusual phrase 42';
const weak = new ApiError(400, 'weak_password', 'This password is too common. Choose one that is harder to guess.', '');
const offline = new NetworkError();
const alertFor = new Map<unknown, string>([
  [weak, weak.message],
  [offline, offline.message],
]);

const userEvents: AppPasswordEvent[] = [
  { type: 'field.change', field: 'password', value: PHRASE },
  { type: 'field.change', field: 'passwordConfirmation', value: PHRASE },
  { type: 'field.change', field: 'passwordConfirmation', value: 'something else' },
  { type: 'submit' },
];
const saveEvents = [
  { type: 'xstate.done.actor.save', output: { jwt: '' } },
  { type: 'xstate.error.actor.save', error: weak },
  { type: 'xstate.error.actor.save', error: offline },
] as unknown as AppPasswordEvent[];

function setup() {
  const save = controllableActor<{ jwt: string }, AppPasswordBody>();
  const logic = appPasswordMachine.provide({ actors: { save: save.logic } });
  render(
    <Router hook={memoryLocation({ path: '/settings/app-password' }).hook}>
      <AppPasswordActorContext.Provider logic={logic} options={{ inspect: coverageInspector }}>
        <AppPasswordPage />
      </AppPasswordActorContext.Provider>
    </Router>,
  );
  return { save, alert: null as string | null };
}
type Harness = ReturnType<typeof setup>;
type Snapshot = {
  value: unknown;
  context: { password: string; passwordConfirmation: string; fieldErrors: Record<string, string>; saved: boolean };
};

const field = (label: string) => screen.getByLabelText(label) as HTMLInputElement;
const saveButton = () =>
  screen.getByRole('button', { name: /SAVE PASSWORD|Saving your password/ }) as HTMLButtonElement;

const viewOf: Record<string, (h: Harness, state: Snapshot) => Promise<void>> = {
  editing: async (h, state) => {
    await waitFor(() => expect(saveButton().disabled).toBe(false));
    expect(field('New Password').value).toBe(state.context.password);
    expect(field('Confirm New Password').value).toBe(state.context.passwordConfirmation);
    expect(screen.queryByText(APP_PASSWORD_MESSAGES.mismatch) !== null).toBe(
      state.context.fieldErrors['passwordConfirmation'] !== undefined,
    );
    expect(screen.queryByText(APP_PASSWORD_MESSAGES.passwordRequired) !== null).toBe(
      state.context.fieldErrors['password'] !== undefined,
    );
    expect(screen.queryByText(APP_PASSWORD_MESSAGES.saved) !== null).toBe(state.context.saved);
    expect(screen.queryByRole('alert')?.textContent ?? null).toBe(h.alert);
    expect(h.save.calls).toHaveLength(0);
  },
  saving: async (h) => {
    expect(saveButton().disabled).toBe(true);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(field('New Password').readOnly).toBe(true);
    expect(h.save.calls.map((c) => c.input)).toEqual([{ password: PHRASE, passwordConfirmation: PHRASE }]);
  },
};

const model = () => createPathModel(appPasswordMachine, { events: modelEvents(userEvents, { save: saveEvents }) });

describe('app password model', () => {
  for (const path of model().getShortestPaths()) {
    it(`${path.description}`, async () => {
      const h = setup();
      const ux = userEvent.setup();
      await path.test({
        states: checkStatesOf<Harness, Snapshot & { matches: (value: string) => boolean }>(h, viewOf),
        events: {
          'field.change': async (step) => {
            const { field: name, value } = step.event as Extract<AppPasswordEvent, { type: 'field.change' }>;
            const input = field(name === 'password' ? 'New Password' : 'Confirm New Password');
            await ux.clear(input);
            await ux.type(input, value);
            h.alert = null;
          },
          submit: async () => {
            await ux.click(saveButton());
            h.alert = null;
          },
          'xstate.done.actor.save': async () => {
            await act(async () => h.save.next().deferred.resolve({ jwt: '' }));
          },
          'xstate.error.actor.save': async (step) => {
            const error = (step.event as unknown as { error: unknown }).error;
            h.alert = alertFor.get(error)!;
            await act(async () => h.save.next().deferred.reject(error));
          },
        },
      });
      expect(h.save.calls).toHaveLength(isInvoking(path.state, 'save') ? 1 : 0);
    });
  }
});
