import { validateResponses } from '#schemas/responses';
import type { SharedArtifact } from '#schemas/sharedPortfolio';
import type { Responses, Structure } from '#schemas/structure';
import type { User } from '#schemas/user';
import { badRequest, forbidden, notFound } from '../errors.ts';
import { canWriteArtifact, PORTFOLIO_MESSAGES } from '../policies/portfolioPolicy.ts';
import { canWorkInShared, isMember, SHARED_MESSAGES } from '../policies/sharedPolicy.ts';
import { isResearcher } from '../policies/userPolicy.ts';
import { artifactRepository } from '../repositories/artifactRepository.ts';
import { artifactShareRepository } from '../repositories/artifactShareRepository.ts';
import { mediaRepository } from '../repositories/mediaRepository.ts';
import { momentRepository } from '../repositories/momentRepository.ts';
import { portfolioRepository } from '../repositories/portfolioRepository.ts';
import { sharedArtifactRepository, type SharedArtifactRecord } from '../repositories/sharedArtifactRepository.ts';
import { sharedPortfolioRepository, type SharedPortfolioRecord } from '../repositories/sharedPortfolioRepository.ts';
import { versionRepository } from '../repositories/versionRepository.ts';
import type { ServiceContext } from './context.ts';
import { assertAllowed } from './decide.ts';
import { SHARED_ARTIFACT_MESSAGES } from './sharedArtifactMessages.ts';

/**
 * Keeps the answers of a copy that the target's questions can show, in a form they accept
 * (a snapshot never fails because a choice was removed in the target).
 */
function fitResponses(structure: Structure, responses: Responses): Responses {
  const keys = new Set(structure.map((q) => q.key));
  const kept: Responses = {};
  for (const [key, value] of Object.entries(responses)) {
    if (!keys.has(key)) continue;
    const { value: clean, issues } = validateResponses(structure, { [key]: value }, { requireCore: false });
    if (issues.length === 0 && clean[key] !== undefined) kept[key] = clean[key]!;
  }
  return kept;
}

/** What the copies take from the shared-artifact service: one artifact as answered, and one with its shared portfolio. */
interface SharedArtifactReads {
  one(id: number): Promise<SharedArtifact>;
  loadContext(artifactId: number): Promise<{ artifact: SharedArtifactRecord; sp: SharedPortfolioRecord }>;
}

/** Copies into shared portfolios: of a personal artifact (with its owner's notes if asked) or of a shared artifact. */
export function createSharedArtifactCopies(ctx: ServiceContext, { one, loadContext }: SharedArtifactReads) {
  const { db } = ctx;

  /** Copies a snapshot into a shared portfolio the caller works in; the caller owns the copy, whose history starts with it. */
  async function copyInto(
    actor: User,
    targetId: number,
    source: {
      responses: Responses;
      nextCaption: number;
      topic: string | null;
      subject: string | null;
      grades: string[];
    },
    link: (tx: Parameters<Parameters<typeof db.transaction>[0]>[0], newId: number) => Promise<void>,
  ): Promise<SharedArtifact> {
    const target = await sharedPortfolioRepository.findById(db, targetId);
    if (!target) throw notFound(SHARED_MESSAGES.invalidPortfolio);
    if (!isMember(actor, target) && !isResearcher(actor)) {
      // Only an invitee may know that this shared portfolio exists; everyone else hears what a wrong id tells.
      if (!(await sharedPortfolioRepository.isInvitee(db, target.id, actor.id)))
        throw notFound(SHARED_MESSAGES.invalidPortfolio);
      throw forbidden(SHARED_MESSAGES.notMember);
    }
    const id = await db.transaction(async (tx) => {
      const newId = await sharedArtifactRepository.create(tx, {
        sharedPortfolioId: target.id,
        ownerId: actor.id,
        structure: target.structure,
        responses: fitResponses(target.structure, source.responses),
        nextCaption: source.nextCaption,
        portfolioTopic: source.topic,
        portfolioSubject: source.subject,
        portfolioGrades: source.grades,
      });
      await link(tx, newId);
      await versionRepository.record(tx, 'sharedArtifact', newId, { authorId: actor.id, client: 'copy' });
      return newId;
    });
    return one(id);
  }

  return {
    /**
     * Copies a completed personal artifact of the caller into a shared portfolio (reference §9.1);
     * with `includeNotes` the owner's private notes become their moment comments on the copy.
     */
    async shareFromArtifact(
      actor: User,
      artifactId: number,
      targetId: number,
      includeNotes = false,
    ): Promise<SharedArtifact> {
      const record = await artifactRepository.findRecord(db, artifactId);
      if (!record) throw notFound(PORTFOLIO_MESSAGES.artifactNotFound);
      assertAllowed(canWriteArtifact(actor, record));
      if (record.parkingLot) throw badRequest(SHARED_ARTIFACT_MESSAGES.parkingLot, 'parking_lot');
      const portfolio = await portfolioRepository.findById(db, record.portfolioId);
      return copyInto(
        actor,
        targetId,
        {
          responses: record.responses,
          nextCaption: record.nextCaption,
          topic: portfolio?.topic ?? null,
          subject: portfolio?.subject ?? null,
          grades: portfolio?.grades ?? [],
        },
        async (tx, newId) => {
          await mediaRepository.copyLinks(tx, 'artifact', artifactId, newId);
          await artifactShareRepository.setSource(tx, newId, artifactId);
          if (includeNotes) await momentRepository.copyNotesAsComments(tx, artifactId, newId, actor.id);
        },
      );
    },

    /** Copies a shared artifact into another (or the same) shared portfolio; the copier owns the copy (reference §9.2, fixed). */
    async shareFromShared(actor: User, artifactId: number, targetId: number): Promise<SharedArtifact> {
      const { artifact, sp } = await loadContext(artifactId);
      assertAllowed(canWorkInShared(actor, sp, SHARED_MESSAGES.artifactNotFound));
      return copyInto(
        actor,
        targetId,
        {
          responses: artifact.responses,
          nextCaption: artifact.nextCaption,
          topic: artifact.portfolioTopic,
          subject: artifact.portfolioSubject,
          grades: artifact.portfolioGrades,
        },
        (tx, newId) => mediaRepository.copyLinks(tx, 'sharedArtifact', artifactId, newId),
      );
    },
  };
}
