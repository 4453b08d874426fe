/** The comments of the comment model test: Theo's and Tess's on artifact 70, and the answers to Tess's changes. */
import type { Comment } from '../../../src/schemas/sharedArtifact.ts';
import { asSeenBy } from '../../../src/test/abilityFixtures.ts';
import { makeComment, makeSharedArtifactDetail } from '../../../src/test/sharedArtifactFixtures.ts';
import { people } from '../../../src/test/sharedFixtures.ts';
import { VIDEO } from './sharedMoments.ts';

export type Answer = Comment & { sharedArtifactComments: Comment[]; sharedPortfolioCommentCount: number };

// Theo's comment and Tess's own (the viewer is Tess).
const THEIRS = makeComment({
  id: 31,
  owner: people.theo.id,
  username: people.theo.username,
  text: 'Did anyone test two cars at once?',
});
// Tess's comments as the server answers them to her: she may edit and delete them.
export const MINE = asSeenBy(
  makeComment({
    id: 32,
    owner: people.tess.id,
    username: people.tess.username,
    text: 'We tried marbles.',
    updated_at: '2026-03-04T10:00:00.000Z',
  }),
  people.tess.id,
);
const POSTED = asSeenBy(
  makeComment({
    id: 33,
    owner: people.tess.id,
    username: people.tess.username,
    text: 'Nice idea',
    updated_at: '2026-04-01T10:00:00.000Z',
  }),
  people.tess.id,
);
const EDITED = { ...MINE, text: 'We tried ball bearings.', updated_at: '2026-04-02T10:00:00.000Z' };
/** Artifact 70 as `GET /shared-artifacts/70` answers: whole, with its video and its comments. */
export const DETAIL = makeSharedArtifactDetail({ id: 70, videos: [VIDEO], comments: [THEIRS, MINE] });
const answer = (comment: Comment, list: Comment[]): Answer => ({
  ...comment,
  sharedArtifactComments: list,
  sharedPortfolioCommentCount: list.length,
});
export const ANSWERS = {
  add: answer(POSTED, [THEIRS, MINE, POSTED]),
  edit: answer(EDITED, [THEIRS, EDITED]),
  remove: answer(MINE, [THEIRS]),
};
