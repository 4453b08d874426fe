/**
 * The comment thread of one shared artifact: a new comment, and editing or deleting one's own
 * (spec §4, §5, §6; reference §13). A child of the artifact's discussion
 * (`sharedArtifactDiscussion`), which loads the comments and hears each answer.
 *
 * Two regions at once:
 *   composer: idle ⇄ drafting (comment.draftChange: blank or not) ─(comment.submit)→ posting ─(posted)→ idle
 *                                                                                        └─(failed)→ drafting (alert)
 *   editor:   viewing ─(comment.edit: may edit)→ editing ─(comment.save)→ saving ─(saved)→ viewing
 *                │                             └─(comment.cancelEdit)→ viewing  └─(failed)→ editing (alert)
 *                └─(comment.delete: may delete)→ confirmingDelete ─(comment.confirmDelete)→ deleting ─(deleted / failed)→ viewing
 *                                             └─(comment.cancelDelete)→ viewing
 * At any time: comments.update (from the discussion: a comment posted at a moment) replaces the comments.
 *
 * Happy path: the user writes a comment (at most 2500 characters; a blank one cannot be sent),
 * sends it and sees it in the list; the answer (the thread now) goes to the discussion, which
 * shows it and tells the portfolio. A draft survives editing or deleting one's other comments.
 */
import { assign, fromPromise, sendTo, setup } from 'xstate';
import { COMMENT_MAX } from '../../schemas/catalog.ts';
import type { Comment } from '../../schemas/sharedArtifact.ts';
import { toUiError } from '../../services/errors.ts';
import { addComment, deleteComment, editComment } from '../../services/sharedService.ts';
import type { CommentAnswer } from '../sharedArtifactDiscussion/discussionSelectors.ts';
import { parentOf } from '../shared/parentOf.ts';
import { effect } from '../shared/effect.ts';
import type { Notice } from '../shared/notice.ts';

export const COMMENT_DELETED_MESSAGE = 'Successfully deleted comment';

export interface CommentInput {
  /** The shared artifact. */
  artifactId: number;
  /** Who is reading: their comments can be edited and deleted. */
  viewerId: number | null;
  /** Whether the viewer may comment here (a member or a researcher). */
  mutable: boolean;
  /** The comments as the discussion loaded them. */
  comments: readonly Comment[];
}

export interface CommentContext extends CommentInput {
  /** The new comment as typed. */
  draft: string;
  /** The comment being edited and its text as typed. */
  editing: { commentId: number; text: string } | null;
  /** The comment the delete question is about. */
  deletingId: number | null;
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
  /** From the discussion: the comments now (after a comment posted at a moment). */
  | { type: 'comments.update'; comments: readonly Comment[] };

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
    tags: {} as 'busy',
  },
  actors: {
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
  guards: {
    isBlank: (_, params: { text: string }) => isBlank(params.text),
    hasDraft: ({ context }) => !isBlank(context.draft),
    canComment: ({ context }) => context.mutable && context.viewerId !== null,
    mayEdit: ({ context }, params: { commentId: number }) => mayChange(context.comments, params.commentId, 'edit'),
    mayDelete: ({ context }, params: { commentId: number }) => mayChange(context.comments, params.commentId, 'delete'),
    isEditSendable: ({ context }) => context.editing !== null && !isBlank(context.editing.text),
  },
  actions: {
    storeComments: assign({ comments: (_, params: { comments: readonly Comment[] }) => params.comments }),
    storeAnswer: assign({ comments: (_, params: { answer: CommentAnswer }) => params.answer.sharedArtifactComments }),
    /** Tells the discussion (the parent) the answer: the thread now and the portfolio's comment count. */
    reportAnswer: sendTo(parentOf, (_, params: { answer: CommentAnswer }) => ({
      type: 'comments.answered' as const,
      answer: params.answer,
    })),
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
    /** Tells the user something (provided by the app: a toast; errors as alerts). */
    notify: effect<Notice>('notify'),
  },
}).createMachine({
  id: 'comment',
  context: ({ input }) => ({ ...input, draft: '', editing: null, deletingId: null }),
  type: 'parallel',
  on: {
    'comments.update': { actions: { type: 'storeComments', params: ({ event }) => event } },
  },
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
                { type: 'reportAnswer', params: ({ event }) => ({ answer: event.output }) },
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
                { type: 'reportAnswer', params: ({ event }) => ({ answer: event.output }) },
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
                { type: 'reportAnswer', params: ({ event }) => ({ answer: event.output }) },
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
  },
});

export type CommentMachine = typeof commentMachine;
