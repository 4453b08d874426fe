/**
 * The comment thread of one shared artifact: its comments, a new comment, and editing or
 * deleting one's own (spec §4, §5, §6; reference §13).
 *
 * loading ─(artifact)→ ready   └─(failed)→ loadFailed ─(retry)→ loading
 * ready (three regions at once):
 *   composer: idle ⇄ drafting (comment.draftChange: blank or not) ─(comment.submit)→ posting ─(posted)→ idle
 *                                                                                        └─(failed)→ drafting (alert)
 *   editor:   viewing ─(comment.edit: may edit)→ editing ─(comment.save)→ saving ─(saved)→ viewing
 *                │                             └─(comment.cancelEdit)→ viewing  └─(failed)→ editing (alert)
 *                └─(comment.delete: may delete)→ confirmingDelete ─(comment.confirmDelete)→ deleting ─(deleted / failed)→ viewing
 *                                             └─(comment.cancelDelete)→ viewing
 *   sync:     upToDate ─(a change)→ scheduled ─(after refetchDelay)→ refetching ─(artifact)→ upToDate
 *
 * Happy path: the user writes a comment (at most 2500 characters; a blank one cannot be sent),
 * sends it and sees it in the list; a second later the artifact's comments are fetched again, and
 * listeners hear `comments.changed` at once (the page refreshes the portfolio's counts). A draft
 * survives editing or deleting one's other comments.
 */
import { assign, emit, fromPromise, raise, setup } from 'xstate';
import { COMMENT_MAX } from '../../schemas/catalog.ts';
import type { Comment, SharedArtifactDetail } from '../../schemas/sharedArtifact.ts';
import { toUiError, type UiError } from '../../services/errors.ts';
import { addComment, deleteComment, editComment, getSharedArtifact } from '../../services/sharedService.ts';
import { effect } from '../shared/effect.ts';
import type { Notice } from '../shared/notice.ts';

export const COMMENT_DELETED_MESSAGE = 'Successfully deleted comment';

/** How long after a change the comments are fetched again (spec §9). */
export const REFETCH_DELAY_MS = 1000;

export interface CommentInput {
  /** The shared artifact. */
  artifactId: number;
  /** Who is reading: their comments can be edited and deleted. */
  viewerId: number | null;
  /** Whether the viewer may comment here (a member or a researcher). */
  mutable: boolean;
}

export interface CommentContext extends CommentInput {
  comments: readonly Comment[];
  /** The new comment as typed. */
  draft: string;
  /** The comment being edited and its text as typed. */
  editing: { commentId: number; text: string } | null;
  /** The comment the delete question is about. */
  deletingId: number | null;
  error: UiError | null;
}

export type CommentEvent =
  | { type: 'comment.draftChange'; text: string }
  | { type: 'comment.submit' }
  | { type: 'comment.edit'; commentId: number }
  | { type: 'comment.editChange'; text: string }
  | { type: 'comment.save' }
  | { type: 'comment.cancelEdit' }
  | { type: 'comment.delete'; commentId: number }
  | { type: 'comment.confirmDelete' }
  | { type: 'comment.cancelDelete' }
  | { type: 'retry' }
  /** Raised by the machine itself after each change. */
  | { type: 'refetch.schedule' };

/** Heard by `actor.on('comments.changed', …)` after each change the viewer made. */
export type CommentsChangedEmitted = { type: 'comments.changed' };

/** What the comment answers carry besides the comment: the artifact's comments now. */
type CommentAnswer = Comment & { sharedArtifactComments: Comment[] };

/** Whether a text is empty or only spaces. */
export const isBlank = (text: string): boolean => text.trim() === '';

/** Whether the server says the viewer may edit or delete a comment of the thread (its `abilities`). */
export const mayChange = (comments: readonly Comment[], commentId: number, what: 'edit' | 'delete'): boolean =>
  comments.some((c) => c.id === commentId && c.abilities?.[what] === true);

/** A text cut to the longest comment. */
const clamp = (text: string): string => text.slice(0, COMMENT_MAX);

const failure = (error: unknown): Notice => ({ message: toUiError(error).message, tone: 'error' });

export const commentMachine = setup({
  types: {
    context: {} as CommentContext,
    events: {} as CommentEvent,
    input: {} as CommentInput,
    emitted: {} as CommentsChangedEmitted,
    tags: {} as 'busy',
  },
  actors: {
    getSharedArtifact: fromPromise<SharedArtifactDetail, { artifactId: number }>(({ input, signal }) =>
      getSharedArtifact(input.artifactId, signal),
    ),
    addComment: fromPromise<CommentAnswer, { artifactId: number; text: string }>(({ input, signal }) =>
      addComment(input.artifactId, input.text, signal),
    ),
    editComment: fromPromise<CommentAnswer, { commentId: number; text: string }>(({ input, signal }) =>
      editComment(input.commentId, input.text, signal),
    ),
    deleteComment: fromPromise<CommentAnswer, { commentId: number }>(({ input, signal }) =>
      deleteComment(input.commentId, signal),
    ),
  },
  delays: {
    refetchDelay: REFETCH_DELAY_MS,
  },
  guards: {
    isBlank: (_, params: { text: string }) => isBlank(params.text),
    hasDraft: ({ context }) => !isBlank(context.draft),
    canComment: ({ context }) => context.mutable && context.viewerId !== null,
    mayEdit: ({ context }, params: { commentId: number }) => mayChange(context.comments, params.commentId, 'edit'),
    mayDelete: ({ context }, params: { commentId: number }) => mayChange(context.comments, params.commentId, 'delete'),
    isEditSendable: ({ context }) => context.editing !== null && !isBlank(context.editing.text),
  },
  actions: {
    storeArtifact: assign({
      comments: (_, params: { artifact: SharedArtifactDetail }) => params.artifact.comments,
      error: null,
    }),
    storeAnswer: assign({ comments: (_, params: { answer: CommentAnswer }) => params.answer.sharedArtifactComments }),
    storeError: assign({ error: (_, params: { error: unknown }) => toUiError(params.error) }),
    storeDraft: assign({ draft: (_, params: { text: string }) => clamp(params.text) }),
    clearDraft: assign({ draft: '' }),
    startEditing: assign({
      editing: ({ context }, params: { commentId: number }) => ({
        commentId: params.commentId,
        text: context.comments.find((c) => c.id === params.commentId)?.text ?? '',
      }),
    }),
    storeEditText: assign({
      editing: ({ context }, params: { text: string }) =>
        context.editing ? { ...context.editing, text: clamp(params.text) } : null,
    }),
    stopEditing: assign({ editing: null }),
    askDelete: assign({ deletingId: (_, params: { commentId: number }) => params.commentId }),
    forgetDelete: assign({ deletingId: null }),
    scheduleRefetch: raise({ type: 'refetch.schedule' }),
    emitChanged: emit({ type: 'comments.changed' as const }),
    /** Tells the user something (provided by the app: a toast; errors as alerts). */
    notify: effect<Notice>('notify'),
  },
}).createMachine({
  id: 'comment',
  context: ({ input }) => ({ ...input, comments: [], draft: '', editing: null, deletingId: null, error: null }),
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
        composer: {
          initial: 'idle',
          states: {
            idle: {
              on: {
                'comment.draftChange': [
                  {
                    guard: { type: 'isBlank', params: ({ event }) => event },
                    actions: { type: 'storeDraft', params: ({ event }) => event },
                  },
                  {
                    guard: 'canComment',
                    target: 'drafting',
                    actions: { type: 'storeDraft', params: ({ event }) => event },
                  },
                ],
              },
            },
            drafting: {
              on: {
                'comment.draftChange': [
                  {
                    guard: { type: 'isBlank', params: ({ event }) => event },
                    target: 'idle',
                    actions: { type: 'storeDraft', params: ({ event }) => event },
                  },
                  { actions: { type: 'storeDraft', params: ({ event }) => event } },
                ],
                'comment.submit': 'posting',
              },
            },
            posting: {
              tags: ['busy'],
              invoke: {
                id: 'addComment',
                src: 'addComment',
                input: ({ context }) => ({ artifactId: context.artifactId, text: context.draft.trim() }),
                onDone: {
                  target: 'idle',
                  actions: [
                    { type: 'storeAnswer', params: ({ event }) => ({ answer: event.output }) },
                    'clearDraft',
                    'scheduleRefetch',
                    'emitChanged',
                  ],
                },
                onError: {
                  target: 'drafting',
                  actions: { type: 'notify', params: ({ event }) => failure(event.error) },
                },
              },
            },
          },
        },
        editor: {
          initial: 'viewing',
          states: {
            viewing: {
              on: {
                'comment.edit': {
                  guard: { type: 'mayEdit', params: ({ event }) => event },
                  target: 'editing',
                  actions: { type: 'startEditing', params: ({ event }) => event },
                },
                'comment.delete': {
                  guard: { type: 'mayDelete', params: ({ event }) => event },
                  target: 'confirmingDelete',
                  actions: { type: 'askDelete', params: ({ event }) => event },
                },
              },
            },
            editing: {
              on: {
                'comment.editChange': { actions: { type: 'storeEditText', params: ({ event }) => event } },
                'comment.save': { guard: 'isEditSendable', target: 'saving' },
                'comment.cancelEdit': { target: 'viewing', actions: 'stopEditing' },
              },
            },
            saving: {
              tags: ['busy'],
              invoke: {
                id: 'editComment',
                src: 'editComment',
                input: ({ context }) => ({ commentId: context.editing!.commentId, text: context.editing!.text.trim() }),
                onDone: {
                  target: 'viewing',
                  actions: [
                    { type: 'storeAnswer', params: ({ event }) => ({ answer: event.output }) },
                    'stopEditing',
                    'scheduleRefetch',
                    'emitChanged',
                  ],
                },
                onError: {
                  target: 'editing',
                  actions: { type: 'notify', params: ({ event }) => failure(event.error) },
                },
              },
            },
            confirmingDelete: {
              on: {
                'comment.confirmDelete': 'deleting',
                'comment.cancelDelete': { target: 'viewing', actions: 'forgetDelete' },
              },
            },
            deleting: {
              tags: ['busy'],
              invoke: {
                id: 'deleteComment',
                src: 'deleteComment',
                input: ({ context }) => ({ commentId: context.deletingId! }),
                onDone: {
                  target: 'viewing',
                  actions: [
                    { type: 'storeAnswer', params: ({ event }) => ({ answer: event.output }) },
                    'forgetDelete',
                    { type: 'notify', params: { message: COMMENT_DELETED_MESSAGE, tone: 'success' } },
                    'scheduleRefetch',
                    'emitChanged',
                  ],
                },
                onError: {
                  target: 'viewing',
                  actions: ['forgetDelete', { type: 'notify', params: ({ event }) => failure(event.error) }],
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

export type CommentMachine = typeof commentMachine;
