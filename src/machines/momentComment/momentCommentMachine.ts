/**
 * Saying something at a moment of a video: a comment or a reaction on a shared artifact's
 * video, or a private note on one's own artifact's video; and how the comment thread is shown.
 *
 * idle ─(moment.start: "Comment at 3:12")→ composing (anchored at that time of that video)
 * composing ─(draft.change)→ composing; ─(moment.setEnd: a later time)→ a range; ─(moment.clearEnd)→ a time
 *    ├─(moment.submit: some text)→ posting ─(posted)→ idle (listeners hear `moment.posted`)
 *    │                                └─(refused / failed)→ composing (the message shows; the text is kept)
 *    ├─(moment.react: comments only)→ reacting ─(placed)→ idle (`moment.posted`)
 *    │                                   └─(refused / failed)→ composing (the message shows)
 *    └─(moment.cancel)→ idle
 * At any time: the thread is filtered (all / one video / at moments) and sorted (as posted / by
 * time), and a comment is highlighted (the one a marker, a comment's time or the address points at).
 *
 * Happy path: while the video plays, "Comment at 3:12" pauses it and opens the box anchored at
 * 3:12; the teacher writes, posts, and the marker appears on the timeline.
 */
import { assign, emit, fromPromise, setup } from 'xstate';
import type { MomentBody, Note } from '../../schemas/moments.ts';
import type { Reaction } from '../../schemas/sharedArtifact.ts';
import type { CommentAnswer } from '../sharedArtifactDiscussion/discussionSelectors.ts';
import { toUiError, type UiError } from '../../services/errors.ts';
import { addMomentComment, addMomentReaction, addNote } from '../../services/momentService.ts';
import { effect } from '../shared/effect.ts';
import { COMMENT_MAX } from '../../schemas/catalog.ts';
import { formatMoment } from '../../schemas/formatting.ts';
import type { Notice } from '../shared/notice.ts';

/** What a moment becomes: a comment on a shared artifact, or a private note on one's own artifact. */
export type MomentTarget = 'comment' | 'note';

export interface MomentCommentInput {
  /** The shared artifact (comments) or personal artifact (notes). */
  artifactId: number;
  target: MomentTarget;
  /** The comment to highlight at first (the address's `#comment-<id>`). */
  highlight: number | null;
}

/** Which comments the thread shows. */
export type ThreadFilter = { kind: 'all' } | { kind: 'moments' } | { kind: 'video'; media: number };
/** The thread's order: as posted, or by time in the video (comments without a moment last). */
export type ThreadSort = 'posted' | 'time';

export interface MomentCommentContext extends MomentCommentInput {
  /** The moment being commented on. */
  anchor: { media: number; start: number; end: number | null } | null;
  text: string;
  filter: ThreadFilter;
  sort: ThreadSort;
  highlighted: number | null;
  error: UiError | null;
}

export type MomentCommentEvent =
  | { type: 'moment.start'; media: number; time: number }
  | { type: 'moment.setEnd'; time: number }
  | { type: 'moment.clearEnd' }
  | { type: 'draft.change'; text: string }
  | { type: 'moment.submit' }
  | { type: 'moment.react'; value: string }
  | { type: 'moment.cancel' }
  | { type: 'thread.filter'; filter: ThreadFilter }
  | { type: 'thread.sort'; sort: ThreadSort }
  | { type: 'thread.highlight'; commentId: number };

/** Heard by `actor.on('moment.posted', …)` after a comment, reaction or note was saved, with the server's answer. */
export type MomentPostedEmitted =
  | { type: 'moment.posted'; kind: 'comment'; answer: CommentAnswer }
  | { type: 'moment.posted'; kind: 'reaction'; answer: Reaction }
  | { type: 'moment.posted'; kind: 'note'; answer: Note };

/** What the post actor sends. */
export interface MomentPost {
  target: MomentTarget;
  artifactId: number;
  moment: MomentBody & { end: number | null };
  text: string;
}

/** Times are kept to the millisecond (what a video element seeks to). */
export const roundTime = (seconds: number): number => Math.round(Math.max(0, seconds) * 1000) / 1000;

const isBlank = (text: string): boolean => text.trim() === '';

export const momentCommentMachine = setup({
  types: {
    context: {} as MomentCommentContext,
    events: {} as MomentCommentEvent,
    input: {} as MomentCommentInput,
    emitted: {} as MomentPostedEmitted,
    tags: {} as 'busy',
  },
  actors: {
    postMoment: fromPromise<CommentAnswer | Note, MomentPost>(({ input, signal }) =>
      input.target === 'note'
        ? addNote(input.artifactId, { ...input.moment, text: input.text }, signal)
        : addMomentComment(input.artifactId, input.text, input.moment, signal),
    ),
    reactAtMoment: fromPromise<Reaction, { artifactId: number; value: string; moment: MomentBody }>(
      ({ input, signal }) => addMomentReaction(input.artifactId, input.value, input.moment, signal),
    ),
  },
  guards: {
    isLater: ({ context }, params: { time: number }) =>
      context.anchor !== null && roundTime(params.time) > context.anchor.start,
    hasText: ({ context }) => !isBlank(context.text),
    canReact: ({ context }) => context.target === 'comment',
  },
  actions: {
    anchor: assign({
      anchor: (_, params: { media: number; time: number }) => ({
        media: params.media,
        start: roundTime(params.time),
        end: null,
      }),
      text: '',
      error: null,
    }),
    setEnd: assign({
      anchor: ({ context }, params: { time: number }) =>
        context.anchor ? { ...context.anchor, end: roundTime(params.time) } : null,
    }),
    clearEnd: assign({ anchor: ({ context }) => (context.anchor ? { ...context.anchor, end: null } : null) }),
    storeText: assign({ text: (_, params: { text: string }) => params.text.slice(0, COMMENT_MAX) }),
    storeError: assign({ error: (_, params: { error: unknown }) => toUiError(params.error) }),
    forget: assign({ anchor: null, text: '', error: null }),
    storeFilter: assign({ filter: (_, params: { filter: ThreadFilter }) => params.filter }),
    storeSort: assign({ sort: (_, params: { sort: ThreadSort }) => params.sort }),
    highlight: assign({ highlighted: (_, params: { commentId: number }) => params.commentId }),
    emitPosted: emit(
      (_, params: Omit<MomentPostedEmitted, 'type'>) => ({ type: 'moment.posted', ...params }) as MomentPostedEmitted,
    ),
    /** Tells the user something (provided by the app: a toast). */
    notify: effect<Notice>('notify'),
  },
}).createMachine({
  id: 'momentComment',
  context: ({ input }) => ({
    ...input,
    anchor: null,
    text: '',
    filter: { kind: 'all' },
    sort: 'posted',
    highlighted: input.highlight,
    error: null,
  }),
  initial: 'idle',
  on: {
    'thread.filter': { actions: { type: 'storeFilter', params: ({ event }) => event } },
    'thread.sort': { actions: { type: 'storeSort', params: ({ event }) => event } },
    'thread.highlight': { actions: { type: 'highlight', params: ({ event }) => event } },
  },
  states: {
    idle: {
      on: { 'moment.start': { target: 'composing', actions: { type: 'anchor', params: ({ event }) => event } } },
    },
    composing: {
      on: {
        'draft.change': { actions: { type: 'storeText', params: ({ event }) => event } },
        'moment.setEnd': {
          guard: { type: 'isLater', params: ({ event }) => event },
          actions: { type: 'setEnd', params: ({ event }) => event },
        },
        'moment.clearEnd': { actions: 'clearEnd' },
        'moment.submit': { guard: 'hasText', target: 'posting' },
        'moment.react': { guard: 'canReact', target: 'reacting' },
        'moment.cancel': { target: 'idle', actions: 'forget' },
      },
    },
    posting: {
      tags: ['busy'],
      invoke: {
        id: 'postMoment',
        src: 'postMoment',
        input: ({ context }) => ({
          target: context.target,
          artifactId: context.artifactId,
          moment: context.anchor!,
          text: context.text.trim(),
        }),
        onDone: {
          target: 'idle',
          actions: [
            {
              type: 'notify',
              params: ({ context }) => ({
                message: `${context.target === 'note' ? 'Note' : 'Comment'} added at ${formatMoment(context.anchor!)}`,
                tone: 'success',
              }),
            },
            {
              type: 'emitPosted',
              params: ({ context, event }) =>
                context.target === 'note'
                  ? { kind: 'note', answer: event.output as Note }
                  : { kind: 'comment', answer: event.output as CommentAnswer },
            },
            'forget',
          ],
        },
        onError: {
          target: 'composing',
          actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
    reacting: {
      tags: ['busy'],
      invoke: {
        id: 'reactAtMoment',
        src: 'reactAtMoment',
        input: ({ context, event }) => ({
          artifactId: context.artifactId,
          value: (event as Extract<MomentCommentEvent, { type: 'moment.react' }>).value,
          moment: context.anchor!,
        }),
        onDone: {
          target: 'idle',
          actions: [
            {
              type: 'notify',
              params: ({ context }) => ({
                message: `Reaction placed at ${formatMoment(context.anchor!)}`,
                tone: 'success',
              }),
            },
            { type: 'emitPosted', params: ({ event }) => ({ kind: 'reaction', answer: event.output }) },
            'forget',
          ],
        },
        onError: {
          target: 'composing',
          actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
  },
});

export type MomentCommentMachine = typeof momentCommentMachine;
