import { REACTION_VALUES } from '#schemas/catalog';
import type { MomentBody } from '#schemas/moments';
import type { Comment, Reaction } from '#schemas/sharedArtifact';
import type { User } from '#schemas/user';
import { notFound } from '../errors.ts';
import { abilitiesFor } from '../policies/abilities.ts';
import { canChangeOwn, canWorkInShared, SHARED_MESSAGES } from '../policies/sharedPolicy.ts';
import { notificationRepository } from '../repositories/notificationRepository.ts';
import { discussionRepository } from '../repositories/discussionRepository.ts';
import { sharedArtifactRepository } from '../repositories/sharedArtifactRepository.ts';
import { sharedPortfolioRepository, type SharedPortfolioRecord } from '../repositories/sharedPortfolioRepository.ts';
import type { ServiceContext } from './context.ts';
import { assertAllowed } from './decide.ts';
import type { MomentChecker } from './momentService.ts';

/** A comment with the artifact's comments and the shared portfolio's comment count (as the original answered). */
export type CommentAnswer = Comment & { sharedArtifactComments: Comment[]; sharedPortfolioCommentCount: number };

/** Comments and reactions on shared artifacts. */
export function createDiscussionService(ctx: ServiceContext, moments: MomentChecker) {
  const { db } = ctx;

  async function portfolioOfArtifact(artifactId: number): Promise<SharedPortfolioRecord> {
    const artifact = await sharedArtifactRepository.findRecord(db, artifactId);
    const sp = artifact ? await sharedPortfolioRepository.findById(db, artifact.sharedPortfolioId) : null;
    if (!sp) throw notFound(SHARED_MESSAGES.invalidArtifact);
    return sp;
  }

  /** The answer to a comment change, each comment with what `actor` may do with it. */
  async function answer(
    actor: User,
    commentId: number,
    artifactId: number,
    sp: SharedPortfolioRecord,
    removed?: Comment,
  ): Promise<CommentAnswer> {
    const withAbilities = (c: Comment): Comment => ({ ...c, abilities: abilitiesFor.comment(actor, c, sp) });
    const comments = (await discussionRepository.comments(db, artifactId)).map(withAbilities);
    const comment = removed ? withAbilities(removed) : comments.find((c) => c.id === commentId)!;
    return {
      ...comment,
      sharedArtifactComments: comments,
      sharedPortfolioCommentCount: await discussionRepository.portfolioCommentCount(db, sp.id),
    };
  }

  return {
    /** Adds a comment as the caller (at a moment of a video, when given). @throws 404 unless the caller works in that shared portfolio. */
    async comment(actor: User, artifactId: number, text: string, moment?: MomentBody | null): Promise<CommentAnswer> {
      const sp = await portfolioOfArtifact(artifactId);
      assertAllowed(canWorkInShared(actor, sp, SHARED_MESSAGES.invalidArtifact));
      const at = moment ? await moments.check('sharedArtifact', artifactId, moment) : null;
      // The comment and the notifications it causes are committed together (decision 020).
      const id = await db.transaction(async (tx) => {
        const commentId = await discussionRepository.addComment(tx, artifactId, actor.id, text, at);
        await notificationRepository.recordComment(tx, commentId);
        return commentId;
      });
      return answer(actor, id, artifactId, sp);
    },

    /** Changes the text of the caller's own comment, and its moment when `moment` is given (`null`: the whole artifact). */
    async editComment(actor: User, id: number, text: string, moment?: MomentBody | null): Promise<CommentAnswer> {
      const comment = await discussionRepository.findComment(db, id);
      if (!comment) throw notFound(SHARED_MESSAGES.commentNotFound);
      const sp = (await sharedPortfolioRepository.findById(db, comment.sharedPortfolioId))!;
      assertAllowed(canChangeOwn(actor, comment, sp, SHARED_MESSAGES.commentNotFound));
      const at = moment ? await moments.check('sharedArtifact', comment.sharedArtifact.id, moment) : moment;
      await discussionRepository.editComment(db, id, text, actor.id, at);
      return answer(actor, id, comment.sharedArtifact.id, sp);
    },

    /** Deletes the caller's own comment. */
    async deleteComment(actor: User, id: number): Promise<CommentAnswer> {
      const found = await discussionRepository.findComment(db, id);
      if (!found) throw notFound(SHARED_MESSAGES.commentNotFound);
      const sp = (await sharedPortfolioRepository.findById(db, found.sharedPortfolioId))!;
      assertAllowed(canChangeOwn(actor, found, sp, SHARED_MESSAGES.commentNotFound));
      await discussionRepository.deleteComment(db, id);
      const { sharedPortfolioId: _sp, ...comment } = found;
      return answer(actor, id, comment.sharedArtifact.id, sp, comment);
    },

    /** Comments of the caller's shared portfolios (mobile). */
    comments(actor: User): Promise<Comment[]> {
      return discussionRepository.commentsForMember(db, actor.id);
    },

    /** The four reactions. */
    available(): string[] {
      return [...REACTION_VALUES];
    },

    /** Adds the caller's reaction, at a moment when given (the same value at the same place twice gives back the first). */
    async react(actor: User, artifactId: number, value: string, moment?: MomentBody | null): Promise<Reaction> {
      const sp = await portfolioOfArtifact(artifactId);
      assertAllowed(canWorkInShared(actor, sp, SHARED_MESSAGES.invalidArtifact));
      const at = moment ? await moments.check('sharedArtifact', artifactId, moment) : null;
      return db.transaction(async (tx) => {
        const reaction = await discussionRepository.addReaction(tx, artifactId, actor.id, value, at);
        await notificationRepository.recordReaction(tx, reaction.id);
        return reaction;
      });
    },

    /** Removes the caller's own reaction. */
    async unreact(actor: User, id: number): Promise<Reaction> {
      const found = await discussionRepository.findReaction(db, id);
      if (!found) throw notFound(SHARED_MESSAGES.reactionNotFound);
      const sp = (await sharedPortfolioRepository.findById(db, found.sharedPortfolioId))!;
      assertAllowed(canChangeOwn(actor, found, sp, SHARED_MESSAGES.reactionNotFound));
      await discussionRepository.deleteReaction(db, id);
      const { sharedPortfolioId: _sp, ...reaction } = found;
      return reaction;
    },

    /** Reactions of the caller's shared portfolios (mobile). */
    reactions(actor: User): Promise<Reaction[]> {
      return discussionRepository.reactionsForMember(db, actor.id);
    },
  };
}

export type DiscussionService = ReturnType<typeof createDiscussionService>;
