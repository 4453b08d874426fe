/**
 * What the discussion of a shared artifact derives from its comments and reactions. Apart from
 * the machine, so that the views' hooks and the reactions bar load without it.
 */
import { REACTION_VALUES } from '../../schemas/catalog.ts';
import type { Comment, Reaction, SharedArtifactDetail } from '../../schemas/sharedArtifact.ts';

/** What the comment answers carry besides the comment: the thread now and the portfolio's comment count. */
export type CommentAnswer = Comment & { sharedArtifactComments: Comment[]; sharedPortfolioCommentCount: number };

/**
 * What a change of the discussion means for the artifact's row in its portfolio: the counts, the
 * texts the search reads and the reaction flags, as the portfolio would answer them now. The
 * portfolio's comment count is known after a comment answer (`null`: unchanged).
 */
export interface DiscussionChange {
  artifactId: number;
  commentCount: number;
  commentTexts: string[];
  reactions: Record<string, boolean>;
  portfolioCommentCount: number | null;
}

/**
 * The viewer's own reaction of this value on the whole artifact (not at a moment of a video), if
 * any. Reactions carry no abilities from the server (only who made them: `owner`), so "own" is
 * decided here, once, by comparing that with the viewer.
 */
export function ownReaction(
  reactions: readonly Reaction[],
  viewerId: number | null,
  value: string,
): Reaction | undefined {
  return viewerId === null
    ? undefined
    : reactions.find((r) => r.value === value && r.owner.id === viewerId && r.moment === null);
}

/** Which reactions an artifact has, by emoji (as its portfolio lists them: moments included). */
export const reactionFlags = (reactions: readonly Reaction[]): Record<string, boolean> =>
  Object.fromEntries(REACTION_VALUES.map((v) => [v, reactions.some((r) => r.value === v)]));

/** The change a portfolio patches in, from the discussion now. */
export const discussionChange = (
  artifactId: number,
  comments: readonly Comment[],
  reactions: readonly Reaction[],
  portfolioCommentCount: number | null,
): DiscussionChange => ({
  artifactId,
  commentCount: comments.length,
  commentTexts: comments.map((c) => c.text),
  reactions: reactionFlags(reactions),
  portfolioCommentCount,
});

/**
 * Whether the artifact may be deleted: the server allows it (its `abilities.delete`) and nobody
 * has commented or reacted (the server refuses it otherwise).
 */
export const mayBeDeleted = (
  artifact: Pick<SharedArtifactDetail, 'abilities'> | null,
  comments: readonly Comment[],
  reactions: readonly Reaction[],
): boolean => artifact?.abilities?.delete === true && comments.length === 0 && reactions.length === 0;
