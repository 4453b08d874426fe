import {
  RUBRIC_VERSIONS_MAX,
  RUBRICS_INSTALLATION_MAX,
  RUBRICS_PER_PORTFOLIO_MAX,
  sameCriteria,
  type PortfolioRubric,
  type Rubric,
  type RubricData,
} from '#schemas/rubrics';
import type { User } from '#schemas/user';
import { HttpError, badRequest, notFound } from '../errors.ts';
import {
  canChooseRubric,
  canCreateRubric,
  canEditRubric,
  canReadRubric,
  canScore,
  RUBRIC_MESSAGES,
} from '../policies/rubricPolicy.ts';
import { canReadShared, SHARED_MESSAGES } from '../policies/sharedPolicy.ts';
import { isResearcher } from '../policies/userPolicy.ts';
import { rubricRepository, type RubricRecord } from '../repositories/rubricRepository.ts';
import { sharedPortfolioRepository, type SharedPortfolioRecord } from '../repositories/sharedPortfolioRepository.ts';
import type { Queryable } from '../db/client.ts';
import type { ServiceContext } from './context.ts';
import { assertAllowed } from './decide.ts';

/** Rubrics (installation-wide or of one shared portfolio) and the rubric a shared portfolio scores with. */
export function createRubricService(ctx: ServiceContext) {
  const { db } = ctx;

  async function portfolio(db: Queryable, id: number): Promise<SharedPortfolioRecord> {
    const sp = await sharedPortfolioRepository.findById(db, id);
    if (!sp) throw notFound(SHARED_MESSAGES.notFound);
    return sp;
  }

  /** The shared portfolio a rubric belongs to (`null`: installation-wide). */
  const scopeOf = async (db: Queryable, r: RubricRecord) =>
    r.sharedPortfolioId === null ? null : sharedPortfolioRepository.findById(db, r.sharedPortfolioId);

  /** Rubrics as answers carry them, with their current criteria and what `actor` may do. */
  async function present(db: Queryable, actor: User, records: readonly RubricRecord[]): Promise<Rubric[]> {
    const criteria = await rubricRepository.criteriaOf(
      db,
      records.map((r) => r.versionId),
    );
    const scopes = new Map<number, SharedPortfolioRecord | null>();
    for (const r of records)
      if (r.sharedPortfolioId !== null && !scopes.has(r.sharedPortfolioId))
        scopes.set(r.sharedPortfolioId, await scopeOf(db, r));
    const editable = (r: RubricRecord) =>
      canEditRubric(actor, r.sharedPortfolioId === null ? null : (scopes.get(r.sharedPortfolioId) ?? null)).ok;
    // What uses a rubric is told to those who may edit (and so delete) it, who see its portfolios.
    const usage = await rubricRepository.usageOf(
      db,
      records.filter(editable).map((r) => r.id),
    );
    return records.map((r) => ({
      id: r.id,
      name: r.name,
      description: r.description,
      sharedPortfolio: r.sharedPortfolioId,
      version: r.version,
      used: r.used,
      criteria: criteria.get(r.versionId) ?? [],
      usage: usage.get(r.id) ?? null,
      created_at: r.createdAt,
      updated_at: r.updatedAt,
      abilities: { edit: editable(r) },
    }));
  }

  async function readable(actor: User, id: number): Promise<RubricRecord> {
    const r = await rubricRepository.findById(db, id);
    if (!r) throw notFound(RUBRIC_MESSAGES.notFound);
    const sp = await scopeOf(db, r);
    const invitee = sp ? await sharedPortfolioRepository.isInvitee(db, sp.id, actor.id) : false;
    assertAllowed(canReadRubric(actor, sp, invitee));
    return r;
  }

  return {
    /**
     * The rubrics the caller sees: installation-wide ones and those of her shared portfolios (every
     * one for researchers); with `sharedPortfolio`, those that portfolio may choose; with
     * `installationOnly`, the installation-wide ones.
     * @throws 404 for a shared portfolio the caller may not read.
     */
    async list(actor: User, sharedPortfolioId?: number, installationOnly = false): Promise<Rubric[]> {
      if (sharedPortfolioId !== undefined) {
        const sp = await portfolio(db, sharedPortfolioId);
        const invitee = await sharedPortfolioRepository.isInvitee(db, sp.id, actor.id);
        assertAllowed(canReadShared(actor, sp, invitee));
      }
      const records = await rubricRepository.list(
        db,
        isResearcher(actor) ? null : actor.id,
        sharedPortfolioId ?? null,
        installationOnly,
      );
      return present(db, actor, records);
    },

    /** One rubric with its current criteria. @throws 404 unless the caller reads its shared portfolio. */
    async get(actor: User, id: number): Promise<Rubric> {
      return (await present(db, actor, [await readable(actor, id)]))[0]!;
    },

    /**
     * Makes a rubric for a shared portfolio (its owner, researchers) or the installation (researchers).
     * @throws 403 / 404 as the policy says; 400 when the scope already has the most rubrics.
     */
    async create(actor: User, body: RubricData & { sharedPortfolio: number | null }): Promise<Rubric> {
      const sp = body.sharedPortfolio === null ? null : await portfolio(db, body.sharedPortfolio);
      assertAllowed(canCreateRubric(actor, sp));
      const id = await db.transaction(async (tx) => {
        // One rubric at a time per scope, so two at once cannot pass the count together.
        await rubricRepository.lockScope(tx, sp?.id ?? null);
        const max = sp ? RUBRICS_PER_PORTFOLIO_MAX : RUBRICS_INSTALLATION_MAX;
        if ((await rubricRepository.countInScope(tx, sp?.id ?? null)) >= max)
          throw new HttpError(
            409,
            'too_many_rubrics',
            sp
              ? `A shared portfolio can have at most ${max} rubrics. Edit one of them instead.`
              : `The installation can have at most ${max} rubrics. Edit one of them instead.`,
          );
        return rubricRepository.create(
          tx,
          { sharedPortfolioId: sp?.id ?? null, name: body.name, description: body.description, createdBy: actor.id },
          body.criteria,
        );
      });
      return this.get(actor, id);
    },

    /**
     * Changes a rubric. Criteria that scores already use are kept as they were: the change becomes
     * the rubric's next version. @throws 403 / 404 as the policy says.
     */
    async update(actor: User, id: number, body: RubricData): Promise<Rubric> {
      await db.transaction(async (tx) => {
        const r = await rubricRepository.findById(tx, id, 'update');
        if (!r) throw notFound(RUBRIC_MESSAGES.notFound);
        const sp = await scopeOf(tx, r);
        const invitee = sp ? await sharedPortfolioRepository.isInvitee(tx, sp.id, actor.id) : false;
        assertAllowed(canReadRubric(actor, sp, invitee));
        assertAllowed(canEditRubric(actor, sp));
        const current = (await rubricRepository.criteriaOf(tx, [r.versionId])).get(r.versionId) ?? [];
        if (!sameCriteria(current, body.criteria)) {
          if (!r.used) await rubricRepository.replaceCriteria(tx, r.versionId, body.criteria);
          else if (r.version >= RUBRIC_VERSIONS_MAX)
            throw new HttpError(
              409,
              'too_many_versions',
              `A rubric can have at most ${RUBRIC_VERSIONS_MAX} versions. Make a new rubric instead.`,
            );
          else await rubricRepository.addVersion(tx, r.id, r.version + 1, actor.id, body.criteria);
        }
        await rubricRepository.updateDetails(tx, r.id, body.name, body.description);
      });
      return this.get(actor, id);
    },

    /**
     * Deletes a rubric that nothing uses; the rubric as it was. Scores keep the version they were
     * given with, so a rubric with scores stays (its portfolios stop using it by choosing another
     * rubric or none); a rubric that shared portfolios score with is deleted once they chose another.
     * @throws 403 / 404 as for editing it; 409 when scores or shared portfolios use it.
     */
    async delete(actor: User, id: number): Promise<Rubric> {
      return db.transaction(async (tx) => {
        // Scoring holds a share lock on the rubric: no score can arrive between the check and the delete.
        const r = await rubricRepository.findById(tx, id, 'update');
        if (!r) throw notFound(RUBRIC_MESSAGES.notFound);
        const sp = await scopeOf(tx, r);
        const invitee = sp ? await sharedPortfolioRepository.isInvitee(tx, sp.id, actor.id) : false;
        assertAllowed(canReadRubric(actor, sp, invitee));
        assertAllowed(canEditRubric(actor, sp));
        const rubric = (await present(tx, actor, [r]))[0]!;
        const usage = rubric.usage ?? { scores: 0, portfolios: [] };
        if (usage.scores > 0) throw new HttpError(409, 'rubric_scored', RUBRIC_MESSAGES.scored(usage));
        if (usage.portfolios.length > 0) throw new HttpError(409, 'rubric_chosen', RUBRIC_MESSAGES.chosen(usage));
        await rubricRepository.delete(tx, r.id);
        return rubric;
      });
    },

    /** The rubric a shared portfolio scores with. @throws 404 unless the caller reads that portfolio. */
    async chosen(actor: User, sharedPortfolioId: number): Promise<PortfolioRubric> {
      const sp = await portfolio(db, sharedPortfolioId);
      const invitee = await sharedPortfolioRepository.isInvitee(db, sp.id, actor.id);
      assertAllowed(canReadShared(actor, sp, invitee));
      const id = await rubricRepository.chosenFor(db, sp.id);
      const record = id === null ? null : await rubricRepository.findById(db, id);
      return {
        rubric: record ? (await present(db, actor, [record]))[0]! : null,
        abilities: { score: canScore(actor, sp).ok && record !== null, choose: canChooseRubric(actor, sp).ok },
      };
    },

    /**
     * Chooses the rubric a shared portfolio scores with (`null`: none).
     * @throws 403 / 404 as the policy says; 400 for a rubric of another portfolio.
     */
    async choose(actor: User, sharedPortfolioId: number, rubricId: number | null): Promise<PortfolioRubric> {
      const sp = await portfolio(db, sharedPortfolioId);
      assertAllowed(canChooseRubric(actor, sp));
      if (rubricId !== null) {
        const r = await rubricRepository.findById(db, rubricId);
        if (!r) throw badRequest(RUBRIC_MESSAGES.notFound, 'invalid_rubric');
        if (r.sharedPortfolioId !== null && r.sharedPortfolioId !== sp.id)
          throw badRequest(RUBRIC_MESSAGES.notPortfolios, 'invalid_rubric');
      }
      await rubricRepository.choose(db, sp.id, rubricId);
      return this.chosen(actor, sp.id);
    },
  };
}

export type RubricService = ReturnType<typeof createRubricService>;
