import { SCORES_PER_PERSON_PER_ARTIFACT, type Score, type ScoreData } from '#schemas/rubrics';
import type { User } from '#schemas/user';
import { badRequest, HttpError, notFound } from '../errors.ts';
import { canDeleteScore, canScore, RUBRIC_MESSAGES, seesAllScores } from '../policies/rubricPolicy.ts';
import { canReadShared, SHARED_MESSAGES } from '../policies/sharedPolicy.ts';
import { notificationRepository } from '../repositories/notificationRepository.ts';
import { rubricRepository } from '../repositories/rubricRepository.ts';
import { scoreRepository, type ScoreRecord } from '../repositories/scoreRepository.ts';
import { sharedArtifactRepository } from '../repositories/sharedArtifactRepository.ts';
import { sharedPortfolioRepository, type SharedPortfolioRecord } from '../repositories/sharedPortfolioRepository.ts';
import type { ServiceContext } from './context.ts';
import { assertAllowed } from './decide.ts';
import type { MomentChecker } from './momentChecker.ts';

const invalidScore = (message: string) => badRequest(message, 'invalid_score');

/** Scores given with a shared portfolio's rubric, at a moment of a video or on a whole shared artifact. */
export function createScoreService(ctx: ServiceContext, moments: MomentChecker) {
  const { db } = ctx;

  async function artifactAndPortfolio(artifactId: number, message: string) {
    const artifact = await sharedArtifactRepository.findRecord(db, artifactId);
    const sp = artifact ? await sharedPortfolioRepository.findById(db, artifact.sharedPortfolioId) : null;
    if (!artifact || !sp) throw notFound(message);
    return { artifact, sp };
  }

  const present = (actor: User, sp: SharedPortfolioRecord, r: ScoreRecord): Score => {
    const { scorerId: _s, sharedPortfolioId: _p, artifactOwnerId: _o, ...score } = r;
    return { ...score, abilities: { delete: canDeleteScore(actor, r, sp).ok } };
  };

  return {
    /**
     * Scores a shared artifact on a criterion of its portfolio's rubric, at a moment of one of its
     * videos or on the whole artifact, and tells the artifact's owner.
     * @throws 404 unless the caller may comment there; 400 for a rubric, criterion, level or moment
     *   that does not fit; 409 past the number of scores one person may give one artifact.
     */
    async create(actor: User, body: ScoreData): Promise<Score> {
      const { artifact, sp } = await artifactAndPortfolio(body.sharedArtifact, SHARED_MESSAGES.invalidArtifact);
      assertAllowed(canScore(actor, sp));
      const at = body.moment ? await moments.check('sharedArtifact', artifact.id, body.moment) : null;
      const id = await db.transaction(async (tx) => {
        // Shared: an edit of the rubric waits, so the version checked here is the one stored.
        const rubric = await rubricRepository.findById(tx, body.rubric, 'share');
        const chosen = await rubricRepository.chosenFor(tx, sp.id);
        if (chosen === null) throw invalidScore(RUBRIC_MESSAGES.noRubric);
        if (!rubric || rubric.id !== chosen)
          throw invalidScore(
            rubric && rubric.sharedPortfolioId !== null && rubric.sharedPortfolioId !== sp.id
              ? RUBRIC_MESSAGES.notPortfolios
              : RUBRIC_MESSAGES.notChosen,
          );
        const place = await rubricRepository.placeOf(tx, rubric.versionId, body.criterion, body.level);
        if (!place.criterion) throw invalidScore(RUBRIC_MESSAGES.criterionNotInRubric);
        if (!place.level) throw invalidScore(RUBRIC_MESSAGES.levelNotInCriterion);
        // One at a time per person and artifact, so two at once cannot pass the count together.
        await scoreRepository.lockScorer(tx, artifact.id, actor.id);
        if ((await scoreRepository.countBy(tx, artifact.id, actor.id)) >= SCORES_PER_PERSON_PER_ARTIFACT)
          throw new HttpError(
            409,
            'too_many_scores',
            `One person can give one artifact at most ${SCORES_PER_PERSON_PER_ARTIFACT} scores. Delete scores you no longer need first.`,
          );
        const scoreId = await scoreRepository.add(tx, {
          artifactId: artifact.id,
          versionId: rubric.versionId,
          criterionId: body.criterion,
          levelId: body.level,
          moment: at,
          note: body.note,
          scorerId: actor.id,
        });
        await notificationRepository.recordScore(tx, scoreId);
        return scoreId;
      });
      return present(actor, sp, (await scoreRepository.find(db, id))!);
    },

    /**
     * The scores of a shared artifact the caller may see: all of them for its owner, the
     * portfolio's owner and researchers; her own for anyone else who reads it.
     * @throws 404 unless the caller reads the shared portfolio.
     */
    async list(actor: User, artifactId: number): Promise<Score[]> {
      const { artifact, sp } = await artifactAndPortfolio(artifactId, SHARED_MESSAGES.artifactNotFound);
      const invitee = await sharedPortfolioRepository.isInvitee(db, sp.id, actor.id);
      assertAllowed(canReadShared(actor, sp, invitee, SHARED_MESSAGES.artifactNotFound));
      const all = seesAllScores(actor, artifact, sp);
      const records = await scoreRepository.list(db, artifact.id, all ? null : actor.id);
      return records.map((r) => present(actor, sp, r));
    },

    /** Deletes the caller's own score. @throws 403 / 404 as the policy says. */
    async delete(actor: User, id: number): Promise<Score> {
      const found = await scoreRepository.find(db, id);
      if (!found) throw notFound(RUBRIC_MESSAGES.scoreNotFound);
      const sp = (await sharedPortfolioRepository.findById(db, found.sharedPortfolioId))!;
      assertAllowed(canDeleteScore(actor, found, sp));
      await scoreRepository.delete(db, id);
      return present(actor, sp, found);
    },
  };
}

export type ScoreService = ReturnType<typeof createScoreService>;
