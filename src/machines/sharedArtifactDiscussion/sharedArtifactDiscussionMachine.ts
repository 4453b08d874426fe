/**
 * The discussion of one shared artifact (decision 033): it loads the artifact once, spawns its
 * comment thread and its reactions bar with what was loaded, and keeps the thread and the
 * reactions up to date from the answers of the viewer's own changes, without fetching again.
 *
 * loading ─(artifact)→ ready (spawns `thread` and `reactionsBar`)
 *    └─(failed)→ loadFailed ─(retry)→ loading
 * ready:
 *   comments.answered (from the thread: the thread now)        ─→ the thread is patched
 *   reaction.added / reaction.removed (from the bar: the one)  ─→ the reactions are patched
 *   moment.posted (forwarded by the view from the moment composer) ─→ the same, and the thread hears of it
 *   artifact.delete (only while it may be deleted)              ─→ listeners hear `artifact.deleteAsked`
 * After each patch listeners hear one `discussion.changed` with the counts, the comment texts and
 * the reaction flags (the portfolio patches its row instead of fetching itself again).
 *
 * Happy path: the artifact opens, the thread and reactions show; the viewer posts a comment, it
 * shows from the answer and the portfolio's table counts it at once.
 */
import { assign, emit, fromPromise, sendTo, setup, spawnChild } from 'xstate';
import type { Comment, Reaction, SharedArtifactDetail } from '../../schemas/sharedArtifact.ts';
import { toUiError, type UiError } from '../../services/errors.ts';
import { getSharedArtifact } from '../../services/sharedService.ts';
import { commentMachine } from '../comment/commentMachine.ts';
import { reactionsMachine } from '../reactions/reactionsMachine.ts';
import { discussionChange, mayBeDeleted, type CommentAnswer, type DiscussionChange } from './discussionSelectors.ts';

export interface DiscussionInput {
  /** The shared artifact. */
  artifactId: number;
  /** Who is reading (their reactions are the ones they toggle). */
  viewerId: number | null;
  /** Whether the viewer may comment and react here (a member or a researcher). */
  mutable: boolean;
}

export interface DiscussionContext extends DiscussionInput {
  /** The artifact as loaded (its abilities decide the deletion). */
  artifact: SharedArtifactDetail | null;
  /** The thread and the reactions now. */
  comments: readonly Comment[];
  reactions: readonly Reaction[];
  error: UiError | null;
}

/** What a moment composer saved, as the view forwards it (its answer). */
export type MomentPostedEvent =
  | { type: 'moment.posted'; kind: 'comment'; answer: CommentAnswer }
  | { type: 'moment.posted'; kind: 'reaction'; answer: Reaction };

export type DiscussionEvent =
  | { type: 'retry' }
  /** From the thread: the answer to the viewer's new, edited or deleted comment. */
  | { type: 'comments.answered'; answer: CommentAnswer }
  /** From the reactions bar: the reaction the viewer added or removed. */
  | { type: 'reaction.added'; reaction: Reaction }
  | { type: 'reaction.removed'; reaction: Reaction }
  | MomentPostedEvent
  /** The viewer asks to delete the artifact. */
  | { type: 'artifact.delete' };

/** Heard by `actor.on(…)`: after each change the viewer made, and when the deletion may be asked. */
export type DiscussionEmitted =
  { type: 'discussion.changed'; change: DiscussionChange } | { type: 'artifact.deleteAsked' };

const changed = (context: DiscussionContext, portfolioCommentCount: number | null) =>
  ({
    type: 'discussion.changed',
    change: discussionChange(context.artifactId, context.comments, context.reactions, portfolioCommentCount),
  }) as const;

export const sharedArtifactDiscussionMachine = setup({
  types: {
    context: {} as DiscussionContext,
    events: {} as DiscussionEvent,
    input: {} as DiscussionInput,
    emitted: {} as DiscussionEmitted,
  },
  actors: {
    getSharedArtifact: fromPromise<SharedArtifactDetail, { artifactId: number }>(({ input, signal }) =>
      getSharedArtifact(input.artifactId, signal),
    ),
    thread: commentMachine,
    reactionsBar: reactionsMachine,
  },
  guards: {
    mayBeDeleted: ({ context }) => mayBeDeleted(context.artifact, context.comments, context.reactions),
    isMomentComment: (_, params: MomentPostedEvent) => params.kind === 'comment',
  },
  actions: {
    storeArtifact: assign((_, params: { artifact: SharedArtifactDetail }) => ({
      artifact: params.artifact,
      comments: params.artifact.comments,
      reactions: params.artifact.reactions,
      error: null,
    })),
    storeError: assign({ error: (_, params: { error: unknown }) => toUiError(params.error) }),
    spawnThread: spawnChild('thread', {
      id: 'thread',
      input: ({ context }) => ({
        artifactId: context.artifactId,
        viewerId: context.viewerId,
        mutable: context.mutable,
        comments: context.comments,
      }),
    }),
    spawnReactions: spawnChild('reactionsBar', {
      id: 'reactionsBar',
      input: ({ context }) => ({
        artifactId: context.artifactId,
        viewerId: context.viewerId,
        mutable: context.mutable,
        reactions: context.reactions,
      }),
    }),
    storeThread: assign({ comments: (_, params: { answer: CommentAnswer }) => params.answer.sharedArtifactComments }),
    addReaction: assign({
      reactions: ({ context }, params: { reaction: Reaction }) => [
        ...context.reactions.filter((r) => r.id !== params.reaction.id),
        params.reaction,
      ],
    }),
    removeReaction: assign({
      reactions: ({ context }, params: { reaction: Reaction }) =>
        context.reactions.filter((r) => r.id !== params.reaction.id),
    }),
    /** The thread learns of a comment posted at a moment (it holds the comments its guards read). */
    tellThread: sendTo('thread', ({ context }) => ({ type: 'comments.update' as const, comments: context.comments })),
    emitCommentsChanged: emit(({ context }, params: { answer: CommentAnswer }) =>
      changed(context, params.answer.sharedPortfolioCommentCount),
    ),
    emitReactionsChanged: emit(({ context }) => changed(context, null)),
    emitDeleteAsked: emit({ type: 'artifact.deleteAsked' as const }),
  },
}).createMachine({
  id: 'sharedArtifactDiscussion',
  context: ({ input }) => ({ ...input, artifact: null, comments: [], reactions: [], error: null }),
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
      entry: ['spawnThread', 'spawnReactions'],
      on: {
        'comments.answered': {
          actions: [
            { type: 'storeThread', params: ({ event }) => event },
            { type: 'emitCommentsChanged', params: ({ event }) => event },
          ],
        },
        'reaction.added': {
          actions: [{ type: 'addReaction', params: ({ event }) => event }, 'emitReactionsChanged'],
        },
        'reaction.removed': {
          actions: [{ type: 'removeReaction', params: ({ event }) => event }, 'emitReactionsChanged'],
        },
        'moment.posted': [
          {
            guard: { type: 'isMomentComment', params: ({ event }) => event },
            actions: [
              { type: 'storeThread', params: ({ event }) => ({ answer: event.answer as CommentAnswer }) },
              'tellThread',
              { type: 'emitCommentsChanged', params: ({ event }) => ({ answer: event.answer as CommentAnswer }) },
            ],
          },
          {
            actions: [
              { type: 'addReaction', params: ({ event }) => ({ reaction: event.answer as Reaction }) },
              'emitReactionsChanged',
            ],
          },
        ],
        'artifact.delete': { guard: 'mayBeDeleted', actions: 'emitDeleteAsked' },
      },
    },
  },
});

export type SharedArtifactDiscussionMachine = typeof sharedArtifactDiscussionMachine;
