import { describe, expect, it } from 'vitest';
import { makeComment, makeReaction } from '../../test/sharedArtifactFixtures.ts';
import { people } from '../../test/sharedFixtures.ts';
import { discussionChange, mayBeDeleted, ownReaction, reactionFlags } from './discussionSelectors.ts';

const theirStar = makeReaction({ id: 41, value: '⭐' });
const myStar = makeReaction({ id: 42, value: '⭐', owner: people.tess.id });
const myStarAtMoment = makeReaction({
  id: 43,
  value: '⭐',
  owner: people.tess.id,
  moment: { media: 61, start: 2, end: null },
});

describe('ownReaction', () => {
  it('is the viewer’s reaction of that value on the whole artifact (its owner is the viewer)', () => {
    expect(ownReaction([theirStar, myStar], people.tess.id, '⭐')).toBe(myStar);
    expect(ownReaction([theirStar, myStarAtMoment], people.tess.id, '⭐')).toBeUndefined();
    expect(ownReaction([theirStar, myStar], people.tess.id, '🌉')).toBeUndefined();
    expect(ownReaction([theirStar, myStar], null, '⭐')).toBeUndefined();
  });
});

describe('reactionFlags and discussionChange', () => {
  it('flag every value given, at a moment too, as the portfolio lists them', () => {
    expect(reactionFlags([myStarAtMoment])).toEqual({ '🔖': false, '⭐': true, '🌉': false, '❓': false });
  });

  it('count the comments (at moments too) and keep their texts in order for the search', () => {
    const comments = [
      makeComment({ id: 1, text: 'a' }),
      makeComment({ id: 2, text: 'b', moment: myStarAtMoment.moment }),
    ];
    expect(discussionChange(70, comments, [], 4)).toMatchObject({
      artifactId: 70,
      commentCount: 2,
      commentTexts: ['a', 'b'],
      portfolioCommentCount: 4,
    });
  });
});

describe('mayBeDeleted', () => {
  const allowed = { abilities: { edit: true, delete: true, comment: true, react: true, copy: true } };
  it('needs the server’s delete ability, no comments and no reactions', () => {
    expect(mayBeDeleted(allowed, [], [])).toBe(true);
    expect(mayBeDeleted(allowed, [makeComment()], [])).toBe(false);
    expect(mayBeDeleted(allowed, [], [theirStar])).toBe(false);
    expect(mayBeDeleted({ abilities: { ...allowed.abilities, delete: false } }, [], [])).toBe(false);
    expect(mayBeDeleted(null, [], [])).toBe(false);
  });
});
