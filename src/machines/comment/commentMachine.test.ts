import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, setup, waitFor, type AnyActorRef } from 'xstate';
import { COMMENT_MAX } from '../../schemas/catalog.ts';
import type { Comment } from '../../schemas/sharedArtifact.ts';
import { asSeenBy } from '../../test/abilityFixtures.ts';
import { makeComment } from '../../test/sharedArtifactFixtures.ts';
import { people } from '../../test/sharedFixtures.ts';
import type { CommentAnswer } from '../sharedArtifactDiscussion/discussionSelectors.ts';
import type { Notice } from '../shared/notice.ts';
import { commentMachine, type CommentInput } from './commentMachine.ts';

const theirs = makeComment({ id: 31 });
// As the server answers them to Tess: she may edit and delete her own comments.
const own = (comment: Comment) => asSeenBy(comment, people.tess.id);
const mine = own(
  makeComment({ id: 32, owner: people.tess.id, username: people.tess.username, text: 'We tried marbles.' }),
);
const posted = own(makeComment({ id: 33, owner: people.tess.id, username: people.tess.username, text: 'Nice idea' }));

const answer: CommentAnswer = {
  ...posted,
  sharedArtifactComments: [theirs, mine, posted],
  sharedPortfolioCommentCount: 5,
};

/** The thread as its discussion starts it, with Theo's and Tess's comments; posting answers with the thread after the post. */
function logic(notify: (notice: Notice) => void) {
  return commentMachine.provide({
    actors: {
      addComment: fromPromise<CommentAnswer, { artifactId: number; text: string }>(async () => answer),
    },
    actions: { notify: (_, notice) => notify(notice) },
  });
}

function start(input: Partial<CommentInput> = {}, comments: Comment[] = [theirs, mine]) {
  const notify = vi.fn<(notice: Notice) => void>();
  const actor = createActor(logic(notify), {
    input: { artifactId: 70, viewerId: people.tess.id, mutable: true, comments, ...input },
  }).start();
  return { actor, notify };
}

/** The thread as the child of a parent that records what it hears. */
function startAsChild() {
  const heard: unknown[] = [];
  const parent = createActor(
    setup({ actors: { thread: logic(() => undefined) } }).createMachine({
      invoke: {
        id: 'thread',
        src: 'thread',
        input: { artifactId: 70, viewerId: people.tess.id, mutable: true, comments: [theirs, mine] },
      },
      on: { '*': { actions: ({ event }) => heard.push(event) } },
    }),
  ).start();
  return { thread: parent.getSnapshot().children['thread'] as AnyActorRef, heard };
}

describe('commentMachine guards', () => {
  it('mayEdit and mayDelete: the viewer may edit and delete their own comment, not another’s', async () => {
    const { actor } = start();
    expect(actor.getSnapshot().can({ type: 'comment.edit', commentId: mine.id })).toBe(true);
    expect(actor.getSnapshot().can({ type: 'comment.delete', commentId: mine.id })).toBe(true);
    expect(actor.getSnapshot().can({ type: 'comment.edit', commentId: theirs.id })).toBe(false);
    expect(actor.getSnapshot().can({ type: 'comment.delete', commentId: theirs.id })).toBe(false);
  });

  it('mayEdit and mayDelete read the server’s abilities, not the owner: an author without them changes nothing', async () => {
    const { actor } = start({}, [theirs, { ...mine, abilities: { edit: false, delete: true } }]);
    expect(actor.getSnapshot().can({ type: 'comment.edit', commentId: mine.id })).toBe(false);
    expect(actor.getSnapshot().can({ type: 'comment.delete', commentId: mine.id })).toBe(true);
  });

  it('mayEdit and canComment: a viewer who may not comment here changes nothing', async () => {
    const { actor } = start({ mutable: false }, [theirs, asSeenBy(mine, people.tess.id, false)]);
    expect(actor.getSnapshot().can({ type: 'comment.edit', commentId: mine.id })).toBe(false);
    expect(actor.getSnapshot().can({ type: 'comment.delete', commentId: mine.id })).toBe(false);
    actor.send({ type: 'comment.draftChange', text: 'Hello' });
    expect(actor.getSnapshot().matches({ composer: 'idle' })).toBe(true);
  });

  it('isBlank: a draft of spaces stays idle and cannot be sent; text can', async () => {
    const { actor } = start();
    actor.send({ type: 'comment.draftChange', text: '   ' });
    expect(actor.getSnapshot().can({ type: 'comment.submit' })).toBe(false);
    actor.send({ type: 'comment.draftChange', text: 'Nice idea' });
    expect(actor.getSnapshot().can({ type: 'comment.submit' })).toBe(true);
  });

  it('isEditSendable: an edit emptied to spaces cannot be saved', async () => {
    const { actor } = start();
    actor.send({ type: 'comment.edit', commentId: mine.id });
    expect(actor.getSnapshot().can({ type: 'comment.save' })).toBe(true);
    actor.send({ type: 'comment.editChange', text: '  ' });
    expect(actor.getSnapshot().can({ type: 'comment.save' })).toBe(false);
  });
});

describe('commentMachine actions', () => {
  it('storeDraft keeps at most the longest comment', async () => {
    const { actor } = start();
    actor.send({ type: 'comment.draftChange', text: 'x'.repeat(COMMENT_MAX + 10) });
    expect(actor.getSnapshot().context.draft).toHaveLength(COMMENT_MAX);
  });

  it('startEditing copies the comment’s text; stopEditing forgets it', async () => {
    const { actor } = start();
    actor.send({ type: 'comment.edit', commentId: mine.id });
    expect(actor.getSnapshot().context.editing).toEqual({ commentId: mine.id, text: mine.text });
    actor.send({ type: 'comment.cancelEdit' });
    expect(actor.getSnapshot().context.editing).toBeNull();
  });

  it('storeAnswer and clearDraft: after a post the thread is the answer’s and the box is empty', async () => {
    const { actor } = start();
    actor.send({ type: 'comment.draftChange', text: 'Nice idea' });
    actor.send({ type: 'comment.submit' });
    await waitFor(actor, (s) => s.matches({ composer: 'idle' }));
    expect(actor.getSnapshot().context.comments.map((c) => c.id)).toEqual([theirs.id, mine.id, posted.id]);
    expect(actor.getSnapshot().context.draft).toBe('');
  });

  it('reportAnswer: the answer goes to the discussion (the parent)', async () => {
    const { thread, heard } = startAsChild();
    thread.send({ type: 'comment.draftChange', text: 'Nice idea' });
    thread.send({ type: 'comment.submit' });
    await waitFor(thread, (s) => s.matches({ composer: 'idle' }));
    expect(heard).toContainEqual({ type: 'comments.answered', answer });
  });

  it('storeComments: the discussion’s comments replace the thread’s (a comment posted at a moment)', () => {
    const { actor } = start();
    actor.send({ type: 'comments.update', comments: [theirs, mine, posted] });
    expect(actor.getSnapshot().context.comments.map((c) => c.id)).toEqual([theirs.id, mine.id, posted.id]);
    expect(actor.getSnapshot().can({ type: 'comment.edit', commentId: posted.id })).toBe(true);
  });

  it('askDelete and forgetDelete hold the comment the question is about', async () => {
    const { actor } = start();
    actor.send({ type: 'comment.delete', commentId: mine.id });
    expect(actor.getSnapshot().context.deletingId).toBe(mine.id);
    actor.send({ type: 'comment.cancelDelete' });
    expect(actor.getSnapshot().context.deletingId).toBeNull();
  });
});
