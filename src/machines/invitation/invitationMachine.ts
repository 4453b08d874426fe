/**
 * The Invitation page (`/invitation/{id}`): join a shared portfolio or decline.
 *
 * starting → loading.invitation ─(invitation)→ loading.portfolio ─(artifacts)→ pending
 *    │            ├─(404)→ notFound                   └─(failed)→ loadFailed ─(retry)→ loading
 *    └─(no id)→ notFound
 * pending ─(invitation.accept)→ accepting ─(joined)→ accepted ─(after 1 s)→ finished (dashboard)
 *    │                              └─(failed)→ pending (alert)
 *    └─(invitation.delete)→ confirmingDelete ─(delete.confirm)→ deleting ─(deleted)→ deleted ─(after 1 s)→ finished
 *                                └─(delete.cancel)→ pending          └─(failed)→ pending (alert)
 */
import { assign, fromPromise, setup } from 'xstate';
import type { Invitation } from '../../schemas/invitation.ts';
import type { SharedPortfolio } from '../../schemas/sharedPortfolio.ts';
import { ApiError, toUiError, type UiError } from '../../services/errors.ts';
import { acceptInvitation, deleteInvitation, getInvitation, getSharedPortfolio } from '../../services/sharedService.ts';
import { effect } from '../shared/effect.ts';
import type { Notice } from '../shared/notice.ts';

export const INVITATION_MESSAGES = {
  notFound: 'Invitation not found.',
  accepted: 'Successfully accepted invitation',
  deleted: 'Successfully deleted invitation',
} as const;

/** How long the page waits before going to the dashboard (spec §9). */
export const REDIRECT_DELAY_MS = 1000;

export interface InvitationInput {
  /** The invitation's id; `null` when the address holds no valid id. */
  invitationId: number | null;
}

export interface InvitationContext {
  invitationId: number | null;
  invitation: Invitation | null;
  /** The shared portfolio with its artifacts. */
  sharedPortfolio: SharedPortfolio | null;
  error: UiError | null;
}

export type InvitationEvent =
  | { type: 'invitation.accept' }
  | { type: 'invitation.delete' }
  | { type: 'delete.confirm' }
  | { type: 'delete.cancel' }
  | { type: 'retry' };

const failure = (error: unknown): Notice => ({ message: toUiError(error).message, tone: 'error' });

export const invitationMachine = setup({
  types: {
    context: {} as InvitationContext,
    events: {} as InvitationEvent,
    input: {} as InvitationInput,
    tags: {} as 'busy',
  },
  actors: {
    fetchInvitation: fromPromise<Invitation, { id: number }>(({ input, signal }) => getInvitation(input.id, signal)),
    fetchSharedPortfolio: fromPromise<SharedPortfolio, { id: number }>(({ input, signal }) =>
      getSharedPortfolio(input.id, signal),
    ),
    acceptInvitation: fromPromise<SharedPortfolio, { id: number }>(({ input, signal }) =>
      acceptInvitation(input.id, signal),
    ),
    deleteInvitation: fromPromise<Invitation, { id: number }>(({ input, signal }) =>
      deleteInvitation(input.id, signal),
    ),
  },
  delays: {
    redirectDelay: REDIRECT_DELAY_MS,
  },
  guards: {
    hasId: ({ context }) => context.invitationId !== null,
    isNotFound: (_, params: { error: unknown }) => params.error instanceof ApiError && params.error.status === 404,
  },
  actions: {
    storeInvitation: assign({ invitation: (_, params: { invitation: Invitation }) => params.invitation }),
    storeSharedPortfolio: assign({
      sharedPortfolio: (_, params: { sharedPortfolio: SharedPortfolio }) => params.sharedPortfolio,
      error: null,
    }),
    storeError: assign({ error: (_, params: { error: unknown }) => toUiError(params.error) }),
    /** Tells the user something (provided by the app: a toast; errors as alerts). */
    notify: effect<Notice>('notify'),
    /** Goes to the dashboard (provided by the app). */
    navigateToDashboard: effect('navigateToDashboard'),
  },
}).createMachine({
  id: 'invitation',
  context: ({ input }) => ({ invitationId: input.invitationId, invitation: null, sharedPortfolio: null, error: null }),
  initial: 'starting',
  states: {
    starting: {
      always: [{ guard: 'hasId', target: 'loading' }, { target: 'notFound' }],
    },
    loading: {
      initial: 'invitation',
      states: {
        invitation: {
          invoke: {
            id: 'fetchInvitation',
            src: 'fetchInvitation',
            input: ({ context }) => ({ id: context.invitationId! }),
            onDone: {
              target: 'portfolio',
              actions: { type: 'storeInvitation', params: ({ event }) => ({ invitation: event.output }) },
            },
            onError: [
              {
                guard: { type: 'isNotFound', params: ({ event }) => ({ error: event.error }) },
                target: '#invitation.notFound',
              },
              {
                target: '#invitation.loadFailed',
                actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
              },
            ],
          },
        },
        portfolio: {
          invoke: {
            id: 'fetchSharedPortfolio',
            src: 'fetchSharedPortfolio',
            input: ({ context }) => ({ id: context.invitation!.sharedPortfolio.id }),
            onDone: {
              target: '#invitation.pending',
              actions: { type: 'storeSharedPortfolio', params: ({ event }) => ({ sharedPortfolio: event.output }) },
            },
            onError: {
              target: '#invitation.loadFailed',
              actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
            },
          },
        },
      },
    },
    loadFailed: {
      on: { retry: 'loading' },
    },
    notFound: {},
    pending: {
      on: {
        'invitation.accept': 'accepting',
        'invitation.delete': 'confirmingDelete',
      },
    },
    confirmingDelete: {
      on: {
        'delete.confirm': 'deleting',
        'delete.cancel': 'pending',
      },
    },
    accepting: {
      tags: ['busy'],
      invoke: {
        id: 'acceptInvitation',
        src: 'acceptInvitation',
        input: ({ context }) => ({ id: context.invitationId! }),
        onDone: {
          target: 'accepted',
          actions: { type: 'notify', params: { message: INVITATION_MESSAGES.accepted, tone: 'success' } },
        },
        onError: { target: 'pending', actions: { type: 'notify', params: ({ event }) => failure(event.error) } },
      },
    },
    deleting: {
      tags: ['busy'],
      invoke: {
        id: 'deleteInvitation',
        src: 'deleteInvitation',
        input: ({ context }) => ({ id: context.invitationId! }),
        onDone: {
          target: 'deleted',
          actions: { type: 'notify', params: { message: INVITATION_MESSAGES.deleted, tone: 'success' } },
        },
        onError: { target: 'pending', actions: { type: 'notify', params: ({ event }) => failure(event.error) } },
      },
    },
    accepted: {
      after: { redirectDelay: 'finished' },
    },
    deleted: {
      after: { redirectDelay: 'finished' },
    },
    finished: {
      type: 'final',
      entry: 'navigateToDashboard',
    },
  },
});

export type InvitationMachine = typeof invitationMachine;
