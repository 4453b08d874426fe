/**
 * Edit Participants (on the shared portfolio edit page): who is in, who is invited, and inviting
 * or removing people.
 *
 * closed ─(dialog.open)→ open.loading ─(members)→ open.ready.idle ─(dialog.close)→ closed
 *                            └─(failed)→ open.loadFailed ─(retry)→ open.loading
 * ready: search.change (≥ 3 characters) → ready.searching ─(people found)→ ready.idle
 *        invite.person | invite.submit (an e-mail address) → inviting ─(sent)→ ready (now pending)
 *        participant.remove → confirmingRemoval ─(removal.confirm)→ cancellingInvitation (pending)
 *                                                                 | removingMember (member) → ready
 *
 * Membership follows spec §4 (see membership.ts). The list starts from the members the page
 * loaded, so "Currently Shared with" can be shown before the dialog opens.
 */
import { assign, fromPromise, setup } from 'xstate';
import type { Invitation } from '../../schemas/invitation.ts';
import type { MembersResponse, Person, SharedPortfolio } from '../../schemas/sharedPortfolio.ts';
import { ApiError, toUiError, type UiError } from '../../services/errors.ts';
import { deleteInvitation, getMembers, invite, removeMember } from '../../services/sharedService.ts';
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
  type PendingPerson,
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

/** Who is about to be removed. */
export type Removal = { kind: 'member'; person: Person } | { kind: 'pending'; person: PendingPerson };

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
  | { type: 'participant.remove'; userId: number }
  | { type: 'removal.confirm' }
  | { type: 'removal.cancel' };

const errorMessage = (error: unknown): string => toUiError(error).message;

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
    cancelInvitation: fromPromise<Invitation, { invitationId: number }>(({ input, signal }) =>
      deleteInvitation(input.invitationId, signal),
    ),
    removeMember: fromPromise<SharedPortfolio, { sharedPortfolioId: number; userId: number }>(({ input, signal }) =>
      removeMember(input.sharedPortfolioId, input.userId, signal),
    ),
  },
  guards: {
    isSearchable: (_, params: { text: string }) => params.text.trim().length >= SEARCH_MIN,
    isRefused: ({ context }) => inviteRefusal(context.text, context.membership, context.owner) !== null,
    isListed: ({ context }, params: { userId: number }) =>
      context.membership.members.some((p) => p.id === params.userId) ||
      context.membership.pending.some((p) => p.id === params.userId),
    isRemovingPending: ({ context }) => context.removal?.kind === 'pending',
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
    clearRemoval: assign({ removal: null }),
    dropPending: assign(({ context }) => {
      const removal = context.removal as Extract<Removal, { kind: 'pending' }>;
      return {
        membership: invitationDeleted(context.membership, removal.person.invitationId),
        removal: null,
        announcement: `The invitation of ${removal.person.username} was deleted.`,
      };
    }),
    dropMember: assign(({ context }) => {
      const person = context.removal!.person;
      return {
        membership: removed(context.membership, person.id),
        removal: null,
        announcement: `${person.username} was removed.`,
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
              target: 'confirmingRemoval',
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
                onError: {
                  target: 'idle',
                  actions: {
                    type: 'notify',
                    params: ({ event }) => ({ message: errorMessage(event.error), tone: 'error' }),
                  },
                },
              },
            },
          },
        },
        inviting: {
          tags: ['busy'],
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
                actions: [
                  'clearInvitee',
                  { type: 'refuse', params: ({ event }) => ({ message: errorMessage(event.error) }) },
                ],
              },
              {
                target: 'ready',
                actions: [
                  'clearInvitee',
                  { type: 'notify', params: ({ event }) => ({ message: errorMessage(event.error), tone: 'error' }) },
                ],
              },
            ],
          },
        },
        confirmingRemoval: {
          on: {
            'removal.confirm': [
              { guard: 'isRemovingPending', target: 'cancellingInvitation' },
              { target: 'removingMember' },
            ],
            'removal.cancel': { target: 'ready', actions: 'clearRemoval' },
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
            onDone: { target: 'ready', actions: 'dropPending' },
            onError: {
              target: 'ready',
              actions: [
                'clearRemoval',
                { type: 'notify', params: ({ event }) => ({ message: errorMessage(event.error), tone: 'error' }) },
              ],
            },
          },
        },
        removingMember: {
          tags: ['busy'],
          invoke: {
            id: 'removeMember',
            src: 'removeMember',
            input: ({ context }) => ({
              sharedPortfolioId: context.sharedPortfolioId,
              userId: context.removal!.person.id,
            }),
            onDone: { target: 'ready', actions: 'dropMember' },
            onError: {
              target: 'ready',
              actions: [
                'clearRemoval',
                { type: 'notify', params: ({ event }) => ({ message: errorMessage(event.error), tone: 'error' }) },
              ],
            },
          },
        },
      },
    },
  },
});

export type ParticipantsMachine = typeof participantsMachine;
