import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { COMMENT_MAX } from '../../schemas/catalog.ts';
import type { MomentBody, Note } from '../../schemas/moments.ts';
import type { Reaction } from '../../schemas/sharedArtifact.ts';
import { ApiError } from '../../services/errors.ts';
import { makeComment, makeReaction } from '../../test/sharedArtifactFixtures.ts';
import type { Notice } from '../shared/notice.ts';
import type { CommentAnswer } from '../sharedArtifactDiscussion/discussionSelectors.ts';
import {
  momentCommentMachine,
  roundTime,
  type MomentPost,
  type MomentPostedEmitted,
  type MomentTarget,
} from './momentCommentMachine.ts';

const comment = makeComment({ id: 5, sharedArtifact: 70, text: 'Watch the ramp here' });
const ANSWER: CommentAnswer = { ...comment, sharedArtifactComments: [comment], sharedPortfolioCommentCount: 4 };
const NOTE: Note = {
  id: 8,
  artifact: 31,
  media: 3,
  start: 12.5,
  end: null,
  text: 'Ask about friction',
  created_at: '2026-03-04T15:20:00.000Z',
  updated_at: '2026-03-04T15:20:00.000Z',
};
const REACTION: Reaction = makeReaction({ id: 41, sharedArtifact: 70, value: '⭐' });

function start(
  target: MomentTarget = 'comment',
  answers: { post?: () => Promise<CommentAnswer | Note>; react?: () => Promise<Reaction> } = {},
) {
  const notices: Notice[] = [];
  const posts: MomentPost[] = [];
  const posted: MomentPostedEmitted[] = [];
  const actor = createActor(
    momentCommentMachine.provide({
      actors: {
        postMoment: fromPromise<CommentAnswer | Note, MomentPost>(({ input }) => {
          posts.push(input);
          return (answers.post ?? (async () => (target === 'note' ? NOTE : ANSWER)))();
        }),
        reactAtMoment: fromPromise<Reaction, { artifactId: number; value: string; moment: MomentBody }>(
          answers.react ?? (async () => REACTION),
        ),
      },
      actions: { notify: (_, notice) => notices.push(notice) },
    }),
    { input: { artifactId: target === 'note' ? 31 : 70, target, highlight: null } },
  ).start();
  actor.on('moment.posted', (e) => posted.push(e));
  return { actor, notices, posts, posted };
}

describe('momentCommentMachine guards', () => {
  it('an end is taken only when it is later than the start (to the millisecond)', () => {
    const { actor } = start();
    actor.send({ type: 'moment.start', media: 3, time: 12.0004 });
    expect(actor.getSnapshot().context.anchor).toEqual({ media: 3, start: 12, end: null });
    actor.send({ type: 'moment.setEnd', time: 12.0003 });
    expect(actor.getSnapshot().context.anchor?.end).toBeNull();
    actor.send({ type: 'moment.setEnd', time: 15.25 });
    expect(actor.getSnapshot().context.anchor?.end).toBe(15.25);
    actor.send({ type: 'moment.clearEnd' });
    expect(actor.getSnapshot().context.anchor?.end).toBeNull();
  });

  it('blank text is not posted', () => {
    const { actor, posts } = start();
    actor.send({ type: 'moment.start', media: 3, time: 1 });
    actor.send({ type: 'draft.change', text: '   ' });
    actor.send({ type: 'moment.submit' });
    expect(actor.getSnapshot().value).toBe('composing');
    expect(posts).toEqual([]);
  });

  it('a reaction is placed at a moment of a shared artifact only, never on a private note', () => {
    const { actor } = start('note');
    actor.send({ type: 'moment.start', media: 3, time: 1 });
    actor.send({ type: 'moment.react', value: '⭐' });
    expect(actor.getSnapshot().value).toBe('composing');
  });
});

describe('momentCommentMachine actions', () => {
  it('roundTime keeps milliseconds and never goes below zero', () => {
    expect(roundTime(12.34567)).toBe(12.346);
    expect(roundTime(-2)).toBe(0);
  });

  it('keeps at most the comment limit of text', () => {
    const { actor } = start();
    actor.send({ type: 'moment.start', media: 3, time: 1 });
    actor.send({ type: 'draft.change', text: 'x'.repeat(COMMENT_MAX + 10) });
    expect(actor.getSnapshot().context.text).toHaveLength(COMMENT_MAX);
  });

  it('a comment posts its trimmed text at its moment, says where, emits the answer and forgets the draft', async () => {
    const { actor, notices, posts, posted } = start();
    actor.send({ type: 'moment.start', media: 3, time: 12 });
    actor.send({ type: 'moment.setEnd', time: 15 });
    actor.send({ type: 'draft.change', text: '  Watch the ramp here ' });
    actor.send({ type: 'moment.submit' });
    await waitFor(actor, (s) => s.matches('idle'));
    expect(posts).toEqual([
      { target: 'comment', artifactId: 70, moment: { media: 3, start: 12, end: 15 }, text: 'Watch the ramp here' },
    ]);
    expect(notices).toEqual([{ message: 'Comment added at 0:12–0:15', tone: 'success' }]);
    expect(posted).toEqual([{ type: 'moment.posted', kind: 'comment', answer: ANSWER }]);
    expect(actor.getSnapshot().context).toMatchObject({ anchor: null, text: '', error: null });
  });

  it('a private note is announced as a note and emitted as one', async () => {
    const { actor, notices, posted } = start('note');
    actor.send({ type: 'moment.start', media: 3, time: 12.5 });
    actor.send({ type: 'draft.change', text: 'Ask about friction' });
    actor.send({ type: 'moment.submit' });
    await waitFor(actor, (s) => s.matches('idle'));
    expect(notices).toEqual([{ message: 'Note added at 0:12', tone: 'success' }]);
    expect(posted).toEqual([{ type: 'moment.posted', kind: 'note', answer: NOTE }]);
  });

  it('a refused post keeps the text and the moment and shows why', async () => {
    const refused = new ApiError(400, 'bad_request', 'The moment is past the end of the video.', '');
    const { actor, posted } = start('comment', { post: () => Promise.reject(refused) });
    actor.send({ type: 'moment.start', media: 3, time: 12 });
    actor.send({ type: 'draft.change', text: 'Watch the ramp here' });
    actor.send({ type: 'moment.submit' });
    await waitFor(actor, (s) => s.matches('composing') && s.context.error !== null);
    expect(actor.getSnapshot().context.error?.message).toBe('The moment is past the end of the video.');
    expect(actor.getSnapshot().context.text).toBe('Watch the ramp here');
    expect(actor.getSnapshot().context.anchor).toEqual({ media: 3, start: 12, end: null });
    expect(posted).toEqual([]);
  });

  it('a reaction at a moment is announced and emitted with the answer', async () => {
    const { actor, notices, posted } = start();
    actor.send({ type: 'moment.start', media: 3, time: 65 });
    actor.send({ type: 'moment.react', value: '⭐' });
    await waitFor(actor, (s) => s.matches('idle'));
    expect(notices).toEqual([{ message: 'Reaction placed at 1:05', tone: 'success' }]);
    expect(posted).toEqual([{ type: 'moment.posted', kind: 'reaction', answer: REACTION }]);
  });

  it('the thread keeps its filter, order and highlighted comment whatever the composer does', () => {
    const { actor } = start();
    actor.send({ type: 'thread.filter', filter: { kind: 'video', media: 3 } });
    actor.send({ type: 'thread.sort', sort: 'time' });
    actor.send({ type: 'thread.highlight', commentId: 5 });
    actor.send({ type: 'moment.start', media: 3, time: 1 });
    actor.send({ type: 'moment.cancel' });
    expect(actor.getSnapshot().context).toMatchObject({
      filter: { kind: 'video', media: 3 },
      sort: 'time',
      highlighted: 5,
      anchor: null,
    });
  });
});
