/**
 * The emoji reactions of one shared artifact (spec §4, §9; reference §13): each user toggles
 * only their own.
 *
 * loading ─(artifact)→ ready   └─(failed)→ loadFailed ─(retry)→ loading
 * ready (two regions at once):
 *   toggle: idle ─(reaction.toggle: one of mine)→ removing ─(removed / failed)→ idle
 *             └──(reaction.toggle: not mine)→ adding ─(added / failed)→ idle
 *   sync:   upToDate ─(a change)→ scheduled ─(after refetchDelay)→ refetching ─(artifact)→ upToDate
 *
 * Happy path: the user picks ⭐; it counts at once, listeners hear `reactions.changed` (the page
 * refreshes the portfolio), and a second later the artifact's reactions are fetched again.
 * Picking ⭐ again removes the user's own ⭐.
 */
import { assign, emit, fromPromise, raise, setup } from 'xstate';
import type { ReactionValue } from '../../schemas/catalog.ts';
import type { Reaction, SharedArtifactDetail } from '../../schemas/sharedArtifact.ts';
import { toUiError, type UiError } from '../../services/errors.ts';
import { addReaction, getSharedArtifact, removeReaction } from '../../services/sharedService.ts';
import { effect } from '../shared/effect.ts';
import { ownReaction } from './reactionSelectors.ts';
import type { Notice } from '../shared/notice.ts';

/** How long after a change the reactions are fetched again (spec §9). */
export const REFETCH_DELAY_MS = 1000;

export interface ReactionsInput {
  /** The shared artifact. */
  artifactId: number;
  /** Who is reacting: their reactions are the ones they toggle. */
  viewerId: number | null;
  /** Whether the viewer may react here (a member or a researcher). */
  mutable: boolean;
}

export interface ReactionsContext extends ReactionsInput {
  reactions: readonly Reaction[];
  /** The reaction being added or removed. */
  pending: ReactionValue | null;
  error: UiError | null;
}

export type ReactionsEvent =
  | { type: 'reaction.toggle'; value: ReactionValue }
  | { type: 'retry' }
  /** Raised by the machine itself after each change. */
  | { type: 'refetch.schedule' };

/** Heard by `actor.on('reactions.changed', …)` after each change the viewer made. */
export type ReactionsChangedEmitted = { type: 'reactions.changed' };

const failure = (error: unknown): Notice => ({ message: toUiError(error).message, tone: 'error' });

export const reactionsMachine = setup({
  types: {
    context: {} as ReactionsContext,
    events: {} as ReactionsEvent,
    input: {} as ReactionsInput,
    emitted: {} as ReactionsChangedEmitted,
    tags: {} as 'busy',
  },
  actors: {
    getSharedArtifact: fromPromise<SharedArtifactDetail, { artifactId: number }>(({ input, signal }) =>
      getSharedArtifact(input.artifactId, signal),
    ),
    addReaction: fromPromise<Reaction, { artifactId: number; value: ReactionValue }>(({ input, signal }) =>
      addReaction(input.artifactId, input.value, signal),
    ),
    removeReaction: fromPromise<Reaction, { reactionId: number }>(({ input, signal }) =>
      removeReaction(input.reactionId, signal),
    ),
  },
  delays: {
    refetchDelay: REFETCH_DELAY_MS,
  },
  guards: {
    canReact: ({ context }) => context.mutable && context.viewerId !== null,
    isMine: ({ context }, params: { value: ReactionValue }) =>
      context.mutable && ownReaction(context.reactions, context.viewerId, params.value) !== undefined,
  },
  actions: {
    storeArtifact: assign({
      reactions: (_, params: { artifact: SharedArtifactDetail }) => params.artifact.reactions,
      error: null,
    }),
    storeError: assign({ error: (_, params: { error: unknown }) => toUiError(params.error) }),
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
    scheduleRefetch: raise({ type: 'refetch.schedule' }),
    emitChanged: emit({ type: 'reactions.changed' as const }),
    /** Tells the user something (provided by the app: errors as alerts). */
    notify: effect<Notice>('notify'),
  },
}).createMachine({
  id: 'reactions',
  context: ({ input }) => ({ ...input, reactions: [], pending: null, error: null }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'getSharedArtifact',
        src: 'getSharedArtifact',
        input: ({ context }) => ({ artifactId: context.artifactId }),
        onDone: {
          target: 'ready',
          actions: { type: 'storeArtifact', params: ({ event }) => ({ artifact: event.output }) },
        },
        onError: {
          target: 'loadFailed',
          actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    loadFailed: {
      on: { retry: 'loading' },
    },
    ready: {
      type: 'parallel',
      states: {
        toggle: {
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
                    'scheduleRefetch',
                    'emitChanged',
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
                    'scheduleRefetch',
                    'emitChanged',
                  ],
                },
                onError: {
                  target: 'idle',
                  actions: ['clearPending', { type: 'notify', params: ({ event }) => failure(event.error) }],
                },
              },
            },
          },
        },
        sync: {
          initial: 'upToDate',
          states: {
            upToDate: {
              on: { 'refetch.schedule': 'scheduled' },
            },
            // Changes while a fetch is scheduled are in that fetch; one during a fetch schedules another.
            scheduled: {
              after: { refetchDelay: 'refetching' },
            },
            refetching: {
              on: { 'refetch.schedule': 'scheduled' },
              invoke: {
                id: 'getSharedArtifact',
                src: 'getSharedArtifact',
                input: ({ context }) => ({ artifactId: context.artifactId }),
                onDone: {
                  target: 'upToDate',
                  actions: { type: 'storeArtifact', params: ({ event }) => ({ artifact: event.output }) },
                },
                onError: {
                  target: 'upToDate',
                  actions: { type: 'notify', params: ({ event }) => failure(event.error) },
                },
              },
            },
          },
        },
      },
    },
  },
});

export type ReactionsMachine = typeof reactionsMachine;
