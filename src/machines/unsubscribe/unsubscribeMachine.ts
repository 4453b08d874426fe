/**
 * The page of an e-mail's unsubscribe link (no session needed):
 *
 *   (no token) → noToken
 *   working ─(done)→ done
 *      └─(failed)→ failed ─(retry, only after a failure worth retrying: offline, server trouble)→ working
 *
 * A tampered or expired link is refused by the server (400) with a sentence saying what to do; trying
 * it again would change nothing, so the page offers no retry then.
 */
import { assign, fromPromise, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import type { UnsubscribeResponse } from '../../schemas/notifications.ts';
import { isTransient, toUiError, type UiError } from '../../services/errors.ts';
import { unsubscribe } from '../../services/notificationService.ts';

/** What the page says for an address without a token (a link cut short). */
export const NO_TOKEN = 'The link has no unsubscribe token. Open the link from the e-mail again, in full.';

export interface UnsubscribeInput {
  /** The link's `token` (blank when the address has none). */
  token: string;
}

export interface UnsubscribeContext {
  token: string;
  result: UnsubscribeResponse | null;
  error: UiError | null;
}

export type UnsubscribeEvent = { type: 'retry' };

export const unsubscribeMachine = setup({
  types: {
    context: {} as UnsubscribeContext,
    events: {} as UnsubscribeEvent,
    input: {} as UnsubscribeInput,
  },
  actors: {
    unsubscribe: fromPromise<UnsubscribeResponse, { token: string }>(({ input, signal }) =>
      unsubscribe(input.token, signal),
    ),
  },
  guards: {
    hasToken: ({ context }) => context.token !== '',
    canRetry: ({ context }) => context.error !== null && isTransient(context.error),
  },
}).createMachine({
  id: 'unsubscribe',
  context: ({ input }) => ({ token: input.token.trim(), result: null, error: null }),
  initial: 'starting',
  states: {
    starting: {
      always: [{ guard: 'hasToken', target: 'working' }, { target: 'noToken' }],
    },
    noToken: {
      entry: assign({ error: { kind: 'invalid', status: null, message: NO_TOKEN } }),
    },
    working: {
      invoke: {
        id: 'unsubscribe',
        src: 'unsubscribe',
        input: ({ context }) => ({ token: context.token }),
        onDone: { target: 'done', actions: assign({ result: ({ event }) => event.output, error: null }) },
        onError: { target: 'failed', actions: assign({ error: ({ event }) => toUiError(event.error) }) },
      },
    },
    failed: {
      on: { retry: { guard: 'canRetry', target: 'working' } },
    },
    done: { type: 'final' },
  },
});

export type UnsubscribeRef = ActorRefFrom<typeof unsubscribeMachine>;
export type UnsubscribeSnapshot = SnapshotFrom<typeof unsubscribeMachine>;
