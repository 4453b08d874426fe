import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor, type AnyActorRef } from 'xstate';
import type { Comment, SharedArtifactDetail } from '../../schemas/sharedArtifact.ts';
import { NetworkError } from '../../services/errors.ts';
import { asSeenBy, SHARED_ARTIFACT_ABILITIES } from '../../test/abilityFixtures.ts';
import { makeComment, makeReaction, makeSharedArtifactDetail } from '../../test/sharedArtifactFixtures.ts';
import { people } from '../../test/sharedFixtures.ts';
import type { CommentAnswer, DiscussionChange } from './discussionSelectors.ts';
import { sharedArtifactDiscussionMachine } from './sharedArtifactDiscussionMachine.ts';

const theirs = makeComment({ id: 31 });
const mine = asSeenBy(makeComment({ id: 32, owner: people.tess.id, username: people.tess.username }), people.tess.id);
const theirStar = makeReaction({ id: 41, value: '⭐' });
const myBridge = makeReaction({ id: 42, value: '🌉', owner: people.tess.id });
const atMoment = makeReaction({ id: 44, value: '❓', moment: { media: 61, start: 3, end: null } });
const answer = (list: Comment[], count = list.length): CommentAnswer => ({
  ...list.at(-1)!,
  sharedArtifactComments: list,
  sharedPortfolioCommentCount: count,
});

/** The discussion of artifact 70 as Tess sees it, loaded with `detail` (or failing with `error`). */
function start(detail: Partial<SharedArtifactDetail> = {}, error?: unknown) {
  const loaded = makeSharedArtifactDetail({ id: 70, abilities: SHARED_ARTIFACT_ABILITIES.worker, ...detail });
  const actor = createActor(
    sharedArtifactDiscussionMachine.provide({
      actors: {
        getSharedArtifact: fromPromise<SharedArtifactDetail, { artifactId: number }>(async () => {
          if (error) throw error;
          return loaded;
        }),
      },
    }),
    { input: { artifactId: 70, viewerId: people.tess.id, mutable: true } },
  ).start();
  const changes: DiscussionChange[] = [];
  let asked = 0;
  actor.on('discussion.changed', (event) => changes.push(event.change));
  actor.on('artifact.deleteAsked', () => (asked += 1));
  return { actor, changes, asked: () => asked };
}

const child = (actor: ReturnType<typeof start>['actor'], id: 'thread' | 'reactionsBar') =>
  actor.getSnapshot().children[id] as AnyActorRef;

describe('sharedArtifactDiscussionMachine guards', () => {
  it('mayBeDeleted: the server allows it and nobody commented or reacted', async () => {
    const empty = start();
    await waitFor(empty.actor, (s) => s.matches('ready'));
    expect(empty.actor.getSnapshot().can({ type: 'artifact.delete' })).toBe(true);
    for (const detail of [
      { comments: [theirs] },
      { reactions: [theirStar] },
      { abilities: SHARED_ARTIFACT_ABILITIES.reader },
      { abilities: undefined },
    ]) {
      const { actor } = start(detail);
      await waitFor(actor, (s) => s.matches('ready'));
      expect(actor.getSnapshot().can({ type: 'artifact.delete' }), JSON.stringify(detail)).toBe(false);
    }
  });

  it('mayBeDeleted follows the patches: a reaction forbids it, its removal allows it again', async () => {
    const { actor } = start();
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'reaction.added', reaction: myBridge });
    expect(actor.getSnapshot().can({ type: 'artifact.delete' })).toBe(false);
    actor.send({ type: 'reaction.removed', reaction: myBridge });
    expect(actor.getSnapshot().can({ type: 'artifact.delete' })).toBe(true);
  });

  it('isMomentComment: a comment at a moment patches the thread, a reaction at a moment the reactions', async () => {
    const { actor, changes } = start({ comments: [theirs] });
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'moment.posted', kind: 'comment', answer: answer([theirs, mine], 7) });
    actor.send({ type: 'moment.posted', kind: 'reaction', answer: atMoment });
    expect(actor.getSnapshot().context.comments).toEqual([theirs, mine]);
    expect(actor.getSnapshot().context.reactions).toEqual([atMoment]);
    expect(changes.map((c) => [c.commentCount, c.portfolioCommentCount, c.reactions['❓']])).toEqual([
      [2, 7, false],
      [2, null, true],
    ]);
  });
});

describe('sharedArtifactDiscussionMachine actions', () => {
  it('storeArtifact, spawnThread and spawnReactions: the children start with what was loaded', async () => {
    const { actor } = start({ comments: [theirs, mine], reactions: [theirStar] });
    await waitFor(actor, (s) => s.matches('ready'));
    expect(actor.getSnapshot().context.comments).toEqual([theirs, mine]);
    expect(child(actor, 'thread').getSnapshot().context).toMatchObject({ artifactId: 70, comments: [theirs, mine] });
    expect(child(actor, 'reactionsBar').getSnapshot().context).toMatchObject({
      viewerId: people.tess.id,
      mutable: true,
      reactions: [theirStar],
    });
  });

  it('storeError: a failed load says why; retry loads again', async () => {
    const offline = new NetworkError();
    const { actor } = start({}, offline);
    await waitFor(actor, (s) => s.matches('loadFailed'));
    expect(actor.getSnapshot().context.error?.message).toBe(offline.message);
    expect(actor.getSnapshot().children['thread']).toBeUndefined();
    actor.send({ type: 'retry' });
    expect(actor.getSnapshot().matches('loading')).toBe(true);
  });

  it('storeThread and emitCommentsChanged: a comment answer becomes the thread and one change with its counts', async () => {
    const { actor, changes } = start({ comments: [theirs] });
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'comments.answered', answer: answer([theirs, mine], 9) });
    expect(actor.getSnapshot().context.comments).toEqual([theirs, mine]);
    expect(changes).toEqual([
      {
        artifactId: 70,
        commentCount: 2,
        commentTexts: [theirs.text, mine.text],
        reactions: { '🔖': false, '⭐': false, '🌉': false, '❓': false },
        portfolioCommentCount: 9,
      },
    ]);
  });

  it('addReaction, removeReaction and emitReactionsChanged: the one reaction is patched in or out', async () => {
    const { actor, changes } = start({ reactions: [theirStar] });
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'reaction.added', reaction: myBridge });
    actor.send({ type: 'reaction.added', reaction: myBridge });
    expect(actor.getSnapshot().context.reactions).toEqual([theirStar, myBridge]);
    actor.send({ type: 'reaction.removed', reaction: theirStar });
    expect(actor.getSnapshot().context.reactions).toEqual([myBridge]);
    expect(changes.map((c) => [c.reactions['⭐'], c.reactions['🌉'], c.portfolioCommentCount])).toEqual([
      [true, true, null],
      [true, true, null],
      [false, true, null],
    ]);
  });

  it('tellThread: the thread hears of a comment posted at a moment (it may then be edited)', async () => {
    const { actor } = start({ comments: [theirs] });
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'moment.posted', kind: 'comment', answer: answer([theirs, mine]) });
    expect(child(actor, 'thread').getSnapshot().context.comments).toEqual([theirs, mine]);
    expect(child(actor, 'thread').getSnapshot().can({ type: 'comment.edit', commentId: mine.id })).toBe(true);
  });

  it('emitDeleteAsked: asking to delete is heard only while the artifact may be deleted', async () => {
    const allowed = start();
    await waitFor(allowed.actor, (s) => s.matches('ready'));
    allowed.actor.send({ type: 'artifact.delete' });
    expect(allowed.asked()).toBe(1);
    const discussed = start({ comments: [theirs] });
    await waitFor(discussed.actor, (s) => s.matches('ready'));
    discussed.actor.send({ type: 'artifact.delete' });
    expect(discussed.asked()).toBe(0);
  });
});
