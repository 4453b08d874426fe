/**
 * Sign-in methods dialog (researchers, on Manage Users): how one account signs in, and unlinking
 * one of its single sign-on identities.
 *
 * closed ─(methods.open)→ open.loading ─(methods)→ open.shown ─(identity.unlink)→ open.confirming
 *                           └─(failed)→ open.loadFailed        ↑      (identity.cancel)┘   │(identity.confirm)
 *                                ─(retry)→ open.loading        └─(unlinked / refused)─ open.unlinking
 * open ─(dialog.close)→ closed
 *
 * The server decides: the list shown after an unlink is its answer, and a refusal shows its
 * message in the dialog with the list unchanged. The account keeps its other methods.
 */
import { assign, fromPromise, not, setup, stateIn } from 'xstate';
import type { LinkedIdentity, SignInMethodList } from '../../schemas/sso.ts';
import type { User } from '../../schemas/user.ts';
import { toUiError, type UiError } from '../../services/errors.ts';
import { listSignInMethods, unlinkIdentity } from '../../services/userService.ts';
import { effect } from '../shared/effect.ts';
import type { Notice } from '../shared/notice.ts';

/** The account whose methods are shown. */
export type MethodsAccount = Pick<User, 'id' | 'username'>;

export interface SignInMethodsContext {
  account: MethodsAccount | null;
  /** The server's last answer for the account. */
  methods: SignInMethodList | null;
  /** The identity asked about, while confirming or unlinking. */
  pending: LinkedIdentity | null;
  /** Why the methods could not be loaded. */
  loadError: UiError | null;
  /** Why the server refused the last unlink. */
  refusal: string | null;
}

export type SignInMethodsEvent =
  | { type: 'methods.open'; account: MethodsAccount }
  | { type: 'dialog.close' }
  | { type: 'retry' }
  | { type: 'identity.unlink'; identity: LinkedIdentity }
  | { type: 'identity.cancel' }
  | { type: 'identity.confirm' };

const EMPTY = { account: null, methods: null, pending: null, loadError: null, refusal: null };

export const signInMethodsMachine = setup({
  types: {
    context: {} as SignInMethodsContext,
    events: {} as SignInMethodsEvent,
    tags: {} as 'busy',
  },
  actors: {
    listSignInMethods: fromPromise<SignInMethodList, { userId: number }>(({ input, signal }) =>
      listSignInMethods(input.userId, signal),
    ),
    unlinkIdentity: fromPromise<SignInMethodList, { userId: number; identityId: number }>(({ input, signal }) =>
      unlinkIdentity(input.userId, input.identityId, signal),
    ),
  },
  guards: {
    canClose: not(stateIn({ open: 'unlinking' })),
    /** Only an identity the server listed for the account is asked about. */
    isListed: ({ context }, params: { identity: LinkedIdentity }) =>
      context.methods?.identities.some((i) => i.id === params.identity.id) ?? false,
  },
  actions: {
    reset: assign(EMPTY),
    storeAccount: assign((_, params: { account: MethodsAccount }) => ({ ...EMPTY, account: params.account })),
    storeMethods: assign({
      methods: (_, params: { methods: SignInMethodList }) => params.methods,
      loadError: null,
      pending: null,
    }),
    storeLoadError: assign({ loadError: (_, params: { error: unknown }) => toUiError(params.error) }),
    storePending: assign({
      pending: (_, params: { identity: LinkedIdentity }) => params.identity,
      refusal: null,
    }),
    dropPending: assign({ pending: null }),
    storeRefusal: assign({
      refusal: (_, params: { error: unknown }) => toUiError(params.error).message,
      pending: null,
    }),
    /** Tells the user something (provided by the app: a toast). */
    notify: effect<Notice>('notify'),
  },
}).createMachine({
  id: 'signInMethods',
  context: EMPTY,
  initial: 'closed',
  states: {
    closed: {
      entry: 'reset',
      on: {
        'methods.open': {
          target: 'open',
          actions: { type: 'storeAccount', params: ({ event }) => ({ account: event.account }) },
        },
      },
    },
    open: {
      initial: 'loading',
      // An unlink under way is seen through before the dialog closes.
      on: { 'dialog.close': { guard: 'canClose', target: 'closed' } },
      states: {
        loading: {
          tags: ['busy'],
          invoke: {
            id: 'listSignInMethods',
            src: 'listSignInMethods',
            input: ({ context }) => ({ userId: context.account!.id }),
            onDone: {
              target: 'shown',
              actions: { type: 'storeMethods', params: ({ event }) => ({ methods: event.output }) },
            },
            onError: {
              target: 'loadFailed',
              actions: { type: 'storeLoadError', params: ({ event }) => ({ error: event.error }) },
            },
          },
        },
        loadFailed: {
          on: { retry: 'loading' },
        },
        shown: {
          on: {
            'identity.unlink': {
              guard: { type: 'isListed', params: ({ event }) => ({ identity: event.identity }) },
              target: 'confirming',
              actions: { type: 'storePending', params: ({ event }) => ({ identity: event.identity }) },
            },
          },
        },
        confirming: {
          on: {
            'identity.cancel': { target: 'shown', actions: 'dropPending' },
            'identity.confirm': 'unlinking',
          },
        },
        unlinking: {
          tags: ['busy'],
          invoke: {
            id: 'unlinkIdentity',
            src: 'unlinkIdentity',
            input: ({ context }) => ({ userId: context.account!.id, identityId: context.pending!.id }),
            onDone: {
              target: 'shown',
              actions: [
                {
                  type: 'notify',
                  params: ({ context }) => ({
                    message: `${context.pending!.label} is no longer linked to ${context.account!.username}.`,
                    tone: 'success',
                  }),
                },
                { type: 'storeMethods', params: ({ event }) => ({ methods: event.output }) },
              ],
            },
            onError: {
              target: 'shown',
              actions: { type: 'storeRefusal', params: ({ event }) => ({ error: event.error }) },
            },
          },
        },
      },
    },
  },
});

export type SignInMethodsMachine = typeof signInMethodsMachine;
