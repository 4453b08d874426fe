/**
 * The emoji reactions of one shared artifact (spec §4, §9; reference §13): each user toggles
 * only their own. A child of the artifact's discussion (`sharedArtifactDiscussion`), which loads
 * the reactions and hears each reaction added or removed.
 *
 * idle ─(reaction.toggle: one of mine)→ removing ─(removed / failed)→ idle
 *   └──(reaction.toggle: not mine)→ adding ─(added / failed)→ idle
 *
 * Happy path: the user picks ⭐; it counts once the answer is there (the discussion patches it in
 * and tells the portfolio). Picking ⭐ again removes the user's own ⭐.
 */
import { assign, fromPromise, sendTo, setup } from 'xstate';
import type { ReactionValue } from '../../schemas/catalog.ts';
import type { Reaction } from '../../schemas/sharedArtifact.ts';
import { toUiError } from '../../services/errors.ts';
import { addReaction, removeReaction } from '../../services/sharedService.ts';
import { effect } from '../shared/effect.ts';
import { ownReaction } from '../sharedArtifactDiscussion/discussionSelectors.ts';
import { parentOf } from '../shared/parentOf.ts';
import type { Notice } from '../shared/notice.ts';

export interface ReactionsInput {
  /** The shared artifact. */
  artifactId: number;
  /** Who is reacting: their reactions are the ones they toggle. */
  viewerId: number | null;
  /** Whether the viewer may react here (a member or a researcher). */
  mutable: boolean;
  /** The reactions as the discussion loaded them. */
  reactions: readonly Reaction[];
}

export interface ReactionsContext extends ReactionsInput {
  /** The reaction being added or removed. */
  pending: ReactionValue | null;
}

export type ReactionsEvent = { type: 'reaction.toggle'; value: ReactionValue };

const failure = (error: unknown): Notice => ({ message: toUiError(error).message, tone: 'error' });

export const reactionsMachine = setup({
  types: {
    context: {} as ReactionsContext,
    events: {} as ReactionsEvent,
    input: {} as ReactionsInput,
    tags: {} as 'busy',
  },
  actors: {
    addReaction: fromPromise<Reaction, { artifactId: number; value: ReactionValue }>(({ input, signal }) =>
      addReaction(input.artifactId, input.value, signal),
    ),
    removeReaction: fromPromise<Reaction, { reactionId: number }>(({ input, signal }) =>
      removeReaction(input.reactionId, signal),
    ),
  },
  guards: {
    canReact: ({ context }) => context.mutable && context.viewerId !== null,
    isMine: ({ context }, params: { value: ReactionValue }) =>
      context.mutable && ownReaction(context.reactions, context.viewerId, params.value) !== undefined,
  },
  actions: {
    markPending: assign({ pending: (_, params: { value: ReactionValue }) => params.value }),
    clearPending: assign({ pending: null }),
    addToList: assign({
      reactions: ({ context }, params: { reaction: Reaction }) => [
        ...context.reactions.filter((r) => r.id !== params.reaction.id),
        params.reaction,
      ],
    }),
    removeFromList: assign({
      reactions: ({ context }, params: { reaction: Reaction }) =>
        context.reactions.filter((r) => r.id !== params.reaction.id),
    }),
    /** Tells the discussion (the parent) the reaction added or removed. */
    reportAdded: sendTo(parentOf, (_, params: { reaction: Reaction }) => ({
      type: 'reaction.added' as const,
      reaction: params.reaction,
    })),
    reportRemoved: sendTo(parentOf, (_, params: { reaction: Reaction }) => ({
      type: 'reaction.removed' as const,
      reaction: params.reaction,
    })),
    /** Tells the user something (provided by the app: errors as alerts). */
    notify: effect<Notice>('notify'),
  },
}).createMachine({
  id: 'reactions',
  context: ({ input }) => ({ ...input, pending: null }),
  initial: 'idle',
  states: {
    idle: {
      on: {
        'reaction.toggle': [
          {
            guard: { type: 'isMine', params: ({ event }) => event },
            target: 'removing',
            actions: { type: 'markPending', params: ({ event }) => event },
          },
          {
            guard: 'canReact',
            target: 'adding',
            actions: { type: 'markPending', params: ({ event }) => event },
          },
        ],
      },
    },
    adding: {
      tags: ['busy'],
      invoke: {
        id: 'addReaction',
        src: 'addReaction',
        input: ({ context }) => ({ artifactId: context.artifactId, value: context.pending! }),
        onDone: {
          target: 'idle',
          actions: [
            { type: 'addToList', params: ({ event }) => ({ reaction: event.output }) },
            'clearPending',
            { type: 'reportAdded', params: ({ event }) => ({ reaction: event.output }) },
          ],
        },
        onError: {
          target: 'idle',
          actions: ['clearPending', { type: 'notify', params: ({ event }) => failure(event.error) }],
        },
      },
    },
    removing: {
      tags: ['busy'],
      invoke: {
        id: 'removeReaction',
        src: 'removeReaction',
        input: ({ context }) => ({
          reactionId: ownReaction(context.reactions, context.viewerId, context.pending!)!.id,
        }),
        onDone: {
          target: 'idle',
          actions: [
            { type: 'removeFromList', params: ({ event }) => ({ reaction: event.output }) },
            'clearPending',
            { type: 'reportRemoved', params: ({ event }) => ({ reaction: event.output }) },
          ],
        },
        onError: {
          target: 'idle',
          actions: ['clearPending', { type: 'notify', params: ({ event }) => failure(event.error) }],
        },
      },
    },
  },
});

export type ReactionsMachine = typeof reactionsMachine;
