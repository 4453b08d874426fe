/**
 * Edit Participants (on the shared portfolio edit page): who is in, who is invited, and inviting
 * or removing people.
 *
 * closed ─(dialog.open)→ open.loading ─(members)→ open.ready.idle ─(dialog.close)→ closed
 *                            └─(failed)→ open.loadFailed ─(retry)→ open.loading
 * ready: search.change (≥ 3 characters) → ready.searching ─(people found)→ ready.idle
 *        invite.person | invite.submit (an e-mail address) → inviting ─(sent)→ ready (now pending)
 *        participant.remove → removing ─(done: removed or kept)→ ready
 *                                └ invokes participantRemoval: asks first, then deletes the invitation
 *                                  (pending) or removes the member, or the user is told why not
 *
 * Membership follows spec §4 (see membership.ts). The list starts from the members the page
 * loaded, so "Currently Shared with" can be shown before the dialog opens.
 */
import { assign, fromPromise, setup } from 'xstate';
import type { Invitation } from '../../schemas/invitation.ts';
import type { MembersResponse, Person } from '../../schemas/sharedPortfolio.ts';
import { ApiError, toUiError, type UiError } from '../../services/errors.ts';
import { getMembers, invite } from '../../services/sharedService.ts';
import { participantRemovalMachine, type Removal } from '../participantRemoval/participantRemovalMachine.ts';
import { effect } from '../shared/effect.ts';
import {
  invitationDeleted,
  invited,
  inviteRefusal,
  membershipOf,
  removed,
  searchMessage,
  SEARCH_MIN,
  type Membership,
} from './membership.ts';
import type { Notice } from '../shared/notice.ts';

export interface ParticipantsInput {
  sharedPortfolioId: number;
  owner: Person;
  /** The members as the page loaded them (the owner among them). */
  members: readonly Person[];
}

/** Whom an invitation goes to: a known person, or an e-mail address. */
export type Invitee = { to: number; label: string } | { email: string; label: string };

export type { Removal } from '../participantRemoval/participantRemovalMachine.ts';

export interface ParticipantsContext {
  sharedPortfolioId: number;
  owner: Person;
  ownerIsMember: boolean;
  membership: Membership;
  /** The search box. */
  text: string;
  /** What the search box says; `invalid` once a send was refused. */
  message: string | null;
  invalid: boolean;
  /** People matching the text who could be invited. */
  matches: readonly Person[];
  invitee: Invitee | null;
  removal: Removal | null;
  /** The last change, for screen readers. */
  announcement: string;
  error: UiError | null;
}

export type ParticipantsEvent =
  | { type: 'dialog.open' }
  | { type: 'dialog.close' }
  | { type: 'retry' }
  | { type: 'search.change'; text: string }
  | { type: 'invite.submit' }
  | { type: 'invite.person'; person: Person }
  | { type: 'participant.remove'; userId: number };

const errorMessage = (error: unknown): string => toUiError(error).message;

/** A failed request, told as an error. */
const failure = ({ event }: { event: { error: unknown } }): Notice => ({
  message: errorMessage(event.error),
  tone: 'error',
});

export const participantsMachine = setup({
  types: {
    context: {} as ParticipantsContext,
    events: {} as ParticipantsEvent,
    input: {} as ParticipantsInput,
    tags: {} as 'busy',
  },
  actors: {
    fetchMembers: fromPromise<MembersResponse, { sharedPortfolioId: number }>(({ input, signal }) =>
      getMembers(input.sharedPortfolioId, undefined, signal),
    ),
    searchPeople: fromPromise<MembersResponse, { sharedPortfolioId: number; search: string }>(({ input, signal }) =>
      getMembers(input.sharedPortfolioId, input.search, signal),
    ),
    invitePerson: fromPromise<Invitation, { sharedPortfolioId: number; invitee: Invitee }>(({ input, signal }) =>
      invite(
        'to' in input.invitee
          ? { to: input.invitee.to, sharedPortfolio: input.sharedPortfolioId }
          : { email: input.invitee.email, sharedPortfolio: input.sharedPortfolioId },
        signal,
      ),
    ),
    participantRemoval: participantRemovalMachine,
  },
  guards: {
    isSearchable: (_, params: { text: string }) => params.text.trim().length >= SEARCH_MIN,
    isRefused: ({ context }) => inviteRefusal(context.text, context.membership, context.owner) !== null,
    isListed: ({ context }, params: { userId: number }) =>
      context.membership.members.some((p) => p.id === params.userId) ||
      context.membership.pending.some((p) => p.id === params.userId),
    isBadRequest: (_, params: { error: unknown }) => params.error instanceof ApiError && params.error.status === 400,
  },
  actions: {
    resetSearch: assign({
      text: '',
      message: null,
      invalid: false,
      matches: [],
      invitee: null,
      removal: null,
      announcement: '',
    }),
    storeMembership: assign({
      membership: ({ context }, params: { response: MembersResponse }) =>
        membershipOf(params.response, context.owner.id),
      error: null,
    }),
    storeError: assign({ error: (_, params: { error: unknown }) => toUiError(params.error) }),
    storeText: assign(({ context }, params: { text: string }) => ({
      text: params.text,
      message: searchMessage(params.text, context.membership, context.owner),
      invalid: false,
    })),
    storeMatches: assign({ matches: (_, params: { people: readonly Person[] }) => [...params.people] }),
    clearMatches: assign({ matches: [] }),
    refuse: assign({ message: (_, params: { message: string }) => params.message, invalid: true }),
    refuseText: assign(({ context }) => ({
      message: inviteRefusal(context.text, context.membership, context.owner),
      invalid: true,
    })),
    storeInvitee: assign({ invitee: (_, params: { invitee: Invitee }) => params.invitee }),
    addPending: assign(({ context }, params: { invitation: Invitation }) => ({
      membership: invited(context.membership, params.invitation),
      matches: [],
      text: '',
      message: null,
      invalid: false,
      invitee: null,
      announcement: `${params.invitation.to.email} was invited.`,
    })),
    clearInvitee: assign({ invitee: null }),
    storeRemoval: assign({
      removal: ({ context }, params: { userId: number }): Removal | null => {
        const pending = context.membership.pending.find((p) => p.id === params.userId);
        if (pending) return { kind: 'pending', person: pending };
        const member = context.membership.members.find((p) => p.id === params.userId);
        return member ? { kind: 'member', person: member } : null;
      },
    }),
    /** The removal ended: the person is no longer listed (and this is announced), or still is. */
    settleRemoval: assign(({ context }, params: { removed: boolean }) => {
      const removal = context.removal!;
      if (!params.removed) return { removal: null };
      if (removal.kind === 'pending')
        return {
          membership: invitationDeleted(context.membership, removal.person.invitationId),
          removal: null,
          announcement: `The invitation of ${removal.person.username} was deleted.`,
        };
      return {
        membership: removed(context.membership, removal.person.id),
        removal: null,
        announcement: `${removal.person.username} was removed.`,
      };
    }),
    /** Tells the user something (provided by the app: a toast; errors as alerts). */
    notify: effect<Notice>('notify'),
  },
}).createMachine({
  id: 'participants',
  context: ({ input }) => ({
    sharedPortfolioId: input.sharedPortfolioId,
    owner: input.owner,
    ownerIsMember: input.members.some((p) => p.id === input.owner.id),
    membership: { members: input.members.filter((p) => p.id !== input.owner.id), pending: [] },
    text: '',
    message: null,
    invalid: false,
    matches: [],
    invitee: null,
    removal: null,
    announcement: '',
    error: null,
  }),
  initial: 'closed',
  states: {
    closed: {
      on: { 'dialog.open': 'open' },
    },
    open: {
      entry: 'resetSearch',
      initial: 'loading',
      states: {
        loading: {
          invoke: {
            id: 'fetchMembers',
            src: 'fetchMembers',
            input: ({ context }) => ({ sharedPortfolioId: context.sharedPortfolioId }),
            onDone: {
              target: 'ready',
              actions: { type: 'storeMembership', params: ({ event }) => ({ response: event.output }) },
            },
            onError: {
              target: 'loadFailed',
              actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
            },
          },
          on: { 'dialog.close': '#participants.closed' },
        },
        loadFailed: {
          on: {
            retry: 'loading',
            'dialog.close': '#participants.closed',
          },
        },
        ready: {
          initial: 'idle',
          on: {
            'search.change': [
              {
                guard: { type: 'isSearchable', params: ({ event }) => ({ text: event.text }) },
                target: '.searching',
                reenter: true,
                actions: { type: 'storeText', params: ({ event }) => ({ text: event.text }) },
              },
              {
                target: '.idle',
                actions: [{ type: 'storeText', params: ({ event }) => ({ text: event.text }) }, 'clearMatches'],
              },
            ],
            'invite.submit': [
              { guard: 'isRefused', actions: 'refuseText' },
              {
                target: 'inviting',
                actions: {
                  type: 'storeInvitee',
                  params: ({ context }) => ({ invitee: { email: context.text.trim(), label: context.text.trim() } }),
                },
              },
            ],
            'invite.person': {
              target: 'inviting',
              actions: {
                type: 'storeInvitee',
                params: ({ event }) => ({ invitee: { to: event.person.id, label: event.person.username } }),
              },
            },
            'participant.remove': {
              guard: { type: 'isListed', params: ({ event }) => ({ userId: event.userId }) },
              target: 'removing',
              actions: { type: 'storeRemoval', params: ({ event }) => ({ userId: event.userId }) },
            },
            'dialog.close': '#participants.closed',
          },
          states: {
            idle: {},
            searching: {
              invoke: {
                id: 'searchPeople',
                src: 'searchPeople',
                input: ({ context }) => ({ sharedPortfolioId: context.sharedPortfolioId, search: context.text.trim() }),
                onDone: {
                  target: 'idle',
                  actions: [
                    { type: 'storeMembership', params: ({ event }) => ({ response: event.output }) },
                    { type: 'storeMatches', params: ({ event }) => ({ people: event.output.nonMembers }) },
                  ],
                },
                onError: { target: 'idle', actions: { type: 'notify', params: failure } },
              },
            },
          },
        },
        inviting: {
          tags: ['busy'],
          exit: 'clearInvitee',
          invoke: {
            id: 'invitePerson',
            src: 'invitePerson',
            input: ({ context }) => ({ sharedPortfolioId: context.sharedPortfolioId, invitee: context.invitee! }),
            onDone: {
              target: 'ready',
              actions: { type: 'addPending', params: ({ event }) => ({ invitation: event.output }) },
            },
            onError: [
              {
                guard: { type: 'isBadRequest', params: ({ event }) => ({ error: event.error }) },
                target: 'ready',
                actions: { type: 'refuse', params: ({ event }) => ({ message: errorMessage(event.error) }) },
              },
              { target: 'ready', actions: { type: 'notify', params: failure } },
            ],
          },
        },
        // The invoked `participantRemoval` asks first, then deletes the invitation or removes the member.
        removing: {
          invoke: {
            id: 'participantRemoval',
            src: 'participantRemoval',
            input: ({ context }) => ({ sharedPortfolioId: context.sharedPortfolioId, removal: context.removal! }),
            onDone: {
              target: 'ready',
              actions: { type: 'settleRemoval', params: ({ event }) => ({ removed: event.output.removed }) },
            },
          },
        },
      },
    },
  },
});

export type ParticipantsMachine = typeof participantsMachine;
