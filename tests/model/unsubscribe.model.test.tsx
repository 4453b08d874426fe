import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import {
  NO_TOKEN,
  unsubscribeMachine,
  type UnsubscribeContext,
  type UnsubscribeEvent,
} from '../../src/machines/unsubscribe/unsubscribeMachine.ts';
import { UnsubscribeActorContext } from '../../src/machines/unsubscribe/useUnsubscribe.ts';
import type { UnsubscribeResponse } from '../../src/schemas/notifications.ts';
import { ApiError, NetworkError } from '../../src/services/errors.ts';
import {
  UNSUBSCRIBE_FAILED,
  UNSUBSCRIBE_TITLE,
  UnsubscribePage,
  unsubscribedText,
} from '../../src/views/pages/UnsubscribePage.tsx';
import { coverageInspector, createPathModel } from './support/coverage.ts';
import { controllableActor } from './support/deferred.ts';
import { trackCoverage } from './support/report.ts';

trackCoverage(unsubscribeMachine);

interface Snapshot {
  value: unknown;
  context: UnsubscribeContext;
  matches: (value: string) => boolean;
  can: (event: UnsubscribeEvent) => boolean;
}

const TOKEN = 'u1.4.comment.1800000000.c2lnbmF0dXJl';
const DONE: UnsubscribeResponse = { kind: 'comment', email: 't***@example.org' };
const offline = new NetworkError();
const tampered = new ApiError(400, 'unknown', 'This unsubscribe link is not valid.', '{}');

const actorEvent = (type: string, payload: Record<string, unknown>) =>
  ({ type, ...payload }) as unknown as UnsubscribeEvent;

function events(snapshot: unknown): UnsubscribeEvent[] {
  const s = snapshot as Snapshot;
  const list: UnsubscribeEvent[] = [];
  if (s.matches('working')) {
    list.push(
      actorEvent('xstate.done.actor.unsubscribe', { output: DONE }),
      actorEvent('xstate.error.actor.unsubscribe', { error: tampered }),
    );
    // Offline only once, so that the retry leads on.
    if (s.context.error === null) list.push(actorEvent('xstate.error.actor.unsubscribe', { error: offline }));
  }
  if (s.matches('failed')) list.push({ type: 'retry' });
  return list.filter((event) => event.type.startsWith('xstate.') || s.can(event));
}

let calls: ReturnType<typeof controllableActor<UnsubscribeResponse, { token: string }>> | null = null;

function setup(token: string) {
  calls = controllableActor<UnsubscribeResponse, { token: string }>();
  const logic = unsubscribeMachine.provide({ actors: { unsubscribe: calls.logic } });
  render(
    <UnsubscribeActorContext.Provider logic={logic} options={{ input: { token }, inspect: coverageInspector }}>
      <UnsubscribePage />
    </UnsubscribeActorContext.Provider>,
  );
  return { ux: userEvent.setup() };
}

afterEach(() => {
  cleanup();
  calls = null;
});

/** What someone who opened the link sees. */
interface UnsubscribeView {
  working: boolean;
  done: string | null;
  problem: string | null;
  retry: boolean;
  settingsLink: boolean;
}

function expectedView(s: Snapshot): UnsubscribeView {
  const failed = s.matches('failed') || s.matches('noToken');
  return {
    working: s.matches('working') || s.matches('starting'),
    done: s.matches('done') ? unsubscribedText(DONE) : null,
    // A refused link changed nothing; after a network failure the page offers to try again.
    problem: failed
      ? `${UNSUBSCRIBE_FAILED}${s.context.error!.message}${s.can({ type: 'retry' }) ? 'Try again' : ' Nothing was changed.'}`
      : null,
    retry: s.can({ type: 'retry' }),
    settingsLink: s.matches('done') || failed,
  };
}

function observedView(): UnsubscribeView {
  const alert = screen.queryByRole('alert');
  return {
    working: screen.queryByText('Unsubscribing…') !== null,
    done: screen.queryByText(/^You will no longer receive/)?.textContent ?? null,
    problem: alert?.textContent ?? null,
    retry: alert ? within(alert).queryByRole('button', { name: 'Try again' }) !== null : false,
    settingsLink:
      screen.queryByRole('link', { name: 'Notification Settings' })?.getAttribute('href') === '/settings/notifications',
  };
}

async function checkView(snapshot: unknown) {
  expect(screen.getByRole('heading', { level: 1, name: UNSUBSCRIBE_TITLE })).toBeTruthy();
  const expected = expectedView(snapshot as Snapshot);
  await waitFor(() => expect(observedView()).toEqual(expected));
}

async function settleWith(step: { event: unknown }) {
  const event = step.event as { type: string; output?: UnsubscribeResponse; error?: unknown };
  const call = calls!.next();
  expect(call.input).toEqual({ token: TOKEN });
  await act(async () =>
    event.type.startsWith('xstate.done') ? call.deferred.resolve(event.output!) : call.deferred.reject(event.error),
  );
}

function pathTitle(path: {
  state: { value: unknown };
  steps: readonly { event: { type: string; error?: Error } }[];
}): string {
  const steps = path.steps
    .map((step) => step.event)
    .filter((event) => event.type !== 'xstate.init')
    .map(
      (event) =>
        `${event.type.replace(/^xstate\.(done|error)\.actor\./, (_, kind: string) => (kind === 'done' ? '✓ ' : '✗ '))}${event.error ? ` (${event.error.name})` : ''}`,
    );
  return `${JSON.stringify(path.state.value)} ← ${steps.join(' → ') || 'start'}`;
}

describe('unsubscribe model (the signed link of a notification e-mail, signed out)', () => {
  const model = createPathModel(unsubscribeMachine, { input: { token: TOKEN }, events });
  const paths = model.getShortestPaths();
  it('has paths to done, a refused link and a retry after going offline', () => {
    expect(paths.map((path) => path.state.value)).toEqual(expect.arrayContaining(['done', 'failed', 'working']));
  });
  for (const path of paths) {
    it(`${pathTitle(path)}`, async () => {
      let checked = 0;
      const h = setup(TOKEN);
      await path.test({
        states: {
          '*': async (snapshot) => {
            await checkView(snapshot);
            checked += 1;
          },
        },
        events: {
          'xstate.done.actor.unsubscribe': settleWith,
          'xstate.error.actor.unsubscribe': settleWith,
          retry: async () => {
            await h.ux.click(within(screen.getByRole('alert')).getByRole('button', { name: 'Try again' }));
          },
        },
      });
      expect(checked).toBe(path.steps.length);
    });
  }
});

describe('unsubscribe model: an address without a token', () => {
  const model = createPathModel(unsubscribeMachine, { input: { token: '  ' }, events });
  for (const path of model.getShortestPaths()) {
    it(`${pathTitle(path)}`, async () => {
      setup('  ');
      await path.test({ states: { '*': checkView }, events: {} });
      expect(screen.getByRole('alert').textContent).toContain(NO_TOKEN);
      // The server is never asked.
      expect(calls!.calls).toEqual([]);
    });
  }
});
