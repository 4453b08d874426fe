/**
 * Removing someone from a shared portfolio (Edit Participants), invoked by `participants` once the
 * user asked to remove a listed person: the user is asked first, then a pending invitee's
 * invitation is deleted or a member is removed, or the user is told why not.
 *
 * confirming ─(removal.confirm, pending)→ cancellingInvitation ─(deleted)→ removed
 *    │       ─(removal.confirm, member)→ removingMember ─(removed)→ removed
 *    │                                   (either failed: the user is told)→ kept
 *    └─(removal.cancel)→ kept
 */
import { assign, fromPromise, setup } from 'xstate';
import type { Invitation } from '../../schemas/invitation.ts';
import type { Person, SharedPortfolio } from '../../schemas/sharedPortfolio.ts';
import { toUiError } from '../../services/errors.ts';
import { deleteInvitation, removeMember } from '../../services/sharedService.ts';
import type { PendingPerson } from '../participants/membership.ts';
import { effect } from '../shared/effect.ts';
import type { Notice } from '../shared/notice.ts';

/** Who is about to be removed. */
export type Removal = { kind: 'member'; person: Person } | { kind: 'pending'; person: PendingPerson };

export interface ParticipantRemovalInput {
  sharedPortfolioId: number;
  removal: Removal;
}

/** Whether the person is no longer listed (else the user declined or was told why not). */
export interface ParticipantRemovalOutput {
  removed: boolean;
}

export type ParticipantRemovalEvent = { type: 'removal.confirm' } | { type: 'removal.cancel' };

const failure = ({ event }: { event: { error: unknown } }): Notice => ({
  message: toUiError(event.error).message,
  tone: 'error',
});

export const participantRemovalMachine = setup({
  types: {
    context: {} as ParticipantRemovalInput & ParticipantRemovalOutput,
    events: {} as ParticipantRemovalEvent,
    input: {} as ParticipantRemovalInput,
    output: {} as ParticipantRemovalOutput,
    tags: {} as 'busy',
  },
  actors: {
    cancelInvitation: fromPromise<Invitation, { invitationId: number }>(({ input, signal }) =>
      deleteInvitation(input.invitationId, signal),
    ),
    removeMember: fromPromise<SharedPortfolio, { sharedPortfolioId: number; userId: number }>(({ input, signal }) =>
      removeMember(input.sharedPortfolioId, input.userId, signal),
    ),
  },
  guards: {
    isRemovingPending: ({ context }) => context.removal.kind === 'pending',
  },
  actions: {
    markRemoved: assign({ removed: true }),
    /** Tells the user something (provided by the app: errors as alerts). */
    notify: effect<Notice>('notify'),
  },
}).createMachine({
  id: 'participantRemoval',
  context: ({ input }) => ({ ...input, removed: false }),
  output: ({ context }) => ({ removed: context.removed }),
  initial: 'confirming',
  states: {
    confirming: {
      on: {
        'removal.confirm': [
          { guard: 'isRemovingPending', target: 'cancellingInvitation' },
          { target: 'removingMember' },
        ],
        'removal.cancel': 'kept',
      },
    },
    cancellingInvitation: {
      tags: ['busy'],
      invoke: {
        id: 'cancelInvitation',
        src: 'cancelInvitation',
        input: ({ context }) => ({
          invitationId: (context.removal as Extract<Removal, { kind: 'pending' }>).person.invitationId,
        }),
        onDone: { target: 'removed', actions: 'markRemoved' },
        onError: { target: 'kept', actions: { type: 'notify', params: failure } },
      },
    },
    removingMember: {
      tags: ['busy'],
      invoke: {
        id: 'removeMember',
        src: 'removeMember',
        input: ({ context }) => ({ sharedPortfolioId: context.sharedPortfolioId, userId: context.removal.person.id }),
        onDone: { target: 'removed', actions: 'markRemoved' },
        onError: { target: 'kept', actions: { type: 'notify', params: failure } },
      },
    },
    removed: { type: 'final' },
    kept: { type: 'final' },
  },
});

export type ParticipantRemovalMachine = typeof participantRemovalMachine;
