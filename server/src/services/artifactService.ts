import { isDeepStrictEqual } from 'node:util';
import type { Artifact, ArtifactCreateBody, ArtifactMergeBody, ArtifactUpdateBody } from '#schemas/artifact';
import { validateResponses } from '#schemas/responses';
import type { Responses, Structure } from '#schemas/structure';
import type { User } from '#schemas/user';
import type { VersionClient } from '#schemas/versions';
import { badRequest, conflict, notFound } from '../errors.ts';
import { abilitiesFor } from '../policies/abilities.ts';
import {
  canReadArtifact,
  canWriteArtifact,
  canWritePortfolio,
  PORTFOLIO_MESSAGES,
} from '../policies/portfolioPolicy.ts';
import { artifactRepository, type ArtifactRecord } from '../repositories/artifactRepository.ts';
import { mediaFileRepository } from '../repositories/mediaFileRepository.ts';
import { mediaRepository } from '../repositories/mediaRepository.ts';
import { portfolioRepository } from '../repositories/portfolioRepository.ts';
import { versionRepository } from '../repositories/versionRepository.ts';
import type { ServiceContext } from './context.ts';
import { assertAllowed } from './decide.ts';
import type { MediaStore } from '../media/mediaStore.ts';
import { SHARED_ARTIFACT_MESSAGES, parseUpdatedAt } from './sharedArtifactMessages.ts';
import { restoreFiles, VERSION_MESSAGES } from './versionFiles.ts';

export const ARTIFACT_MESSAGES = {
  backToLot: 'A completed artifact cannot go back to the parking lot.',
  idMismatch: 'The id in the body does not match the address.',
  structureFixed: 'The questions of an artifact cannot be changed.',
} as const;

/** Turns response problems into one 400 naming the first. */
export function assertValidResponses(structure: Structure, responses: Responses, requireCore: boolean): Responses {
  const { value, issues } = validateResponses(structure, responses, { requireCore });
  if (issues.length > 0) throw badRequest(issues[0]!.message, 'invalid_responses');
  return value;
}

const normalise = (structure: Structure) =>
  structure.map((q) => Object.fromEntries(Object.entries(q).filter(([, v]) => v !== undefined)));
/** Whether two question lists are the same, whatever the order of each question's fields (jsonb reorders them). */
const sameStructure = (a: Structure, b: Structure) => isDeepStrictEqual(normalise(a), normalise(b));

/** Personal artifacts: create in the parking lot, read, save, submit, merge (mobile), delete. */
export function createArtifactService(ctx: ServiceContext, store: MediaStore) {
  const { db } = ctx;

  async function record(id: number): Promise<ArtifactRecord> {
    const r = await artifactRepository.findRecord(db, id);
    if (!r) throw notFound(PORTFOLIO_MESSAGES.artifactNotFound);
    return r;
  }

  async function loadOne(id: number): Promise<Artifact> {
    const [artifact] = await artifactRepository.load(db, { ids: [id] });
    if (!artifact) throw notFound(PORTFOLIO_MESSAGES.artifactNotFound);
    return artifact;
  }

  return {
    /**
     * A new artifact in portfolio `portfolioId`, in the parking lot unless `parkingLot: false`
     * (then every core question must be answered). Its questions are the portfolio's. One created
     * with answers is saved: its first version is recorded with it.
     * @throws 404 / 403 per policy; 400 for invalid responses.
     */
    async create(actor: User, portfolioId: number, body: ArtifactCreateBody, client: VersionClient): Promise<Artifact> {
      const portfolio = await portfolioRepository.findById(db, portfolioId);
      if (!portfolio) throw notFound(PORTFOLIO_MESSAGES.notFound);
      assertAllowed(canWritePortfolio(actor, portfolio));
      if (body?.structure && body.structure.length > 0 && !sameStructure(body.structure, portfolio.structure)) {
        throw badRequest(ARTIFACT_MESSAGES.structureFixed, 'structure_fixed');
      }
      const parkingLot = body?.parkingLot ?? true;
      const responses = assertValidResponses(portfolio.structure, body?.responses ?? {}, !parkingLot);
      // An empty new artifact (Create New Artifact, the mobile wizard's first call) is kept only once saved.
      const saved = !parkingLot || Object.keys(responses).length > 0;
      const id = await db.transaction(async (tx) => {
        const created = await artifactRepository.create(tx, {
          portfolioId,
          structure: portfolio.structure,
          responses,
          parkingLot,
          saved,
        });
        if (saved) await versionRepository.record(tx, 'artifact', created, { authorId: actor.id, client });
        return created;
      });
      return loadOne(id);
    },

    /**
     * One artifact. A never-saved one exists only for its owner's editor.
     * @throws 404 unless the caller owns it or (once saved) is a researcher.
     */
    async get(actor: User, id: number): Promise<Artifact> {
      const r = await record(id);
      assertAllowed(canReadArtifact(actor, r));
      if (!r.saved && r.ownerId !== actor.id) throw notFound(PORTFOLIO_MESSAGES.artifactNotFound);
      return { ...(await loadOne(id)), abilities: abilitiesFor.artifact(actor, r) };
    },

    /** The caller's own artifacts (the mobile apps' list). */
    async listOwn(actor: User): Promise<Artifact[]> {
      return artifactRepository.load(db, { ownerId: actor.id });
    },

    /**
     * Replaces the responses; `parkingLot: false` submits to the portfolio. A completed artifact
     * stays completed. Records a version.
     * @throws 400 for invalid responses or a return to the lot; 404 / 403 per policy.
     */
    async update(actor: User, id: number, body: ArtifactUpdateBody, client: VersionClient): Promise<Artifact> {
      if (body.id !== undefined && body.id !== id) throw badRequest(ARTIFACT_MESSAGES.idMismatch);
      assertAllowed(canWriteArtifact(actor, await record(id)));
      await db.transaction(async (tx) => {
        const current = await artifactRepository.lockRecord(tx, id);
        if (!current) throw notFound(PORTFOLIO_MESSAGES.artifactNotFound);
        const parkingLot = body.parkingLot ?? current.parkingLot;
        if (!current.parkingLot && parkingLot) throw badRequest(ARTIFACT_MESSAGES.backToLot, 'completed');
        const responses = assertValidResponses(current.structure, body.responses, !parkingLot);
        await artifactRepository.update(tx, id, { responses, parkingLot });
        await versionRepository.record(tx, 'artifact', id, { authorId: actor.id, client });
      });
      return loadOne(id);
    },

    /**
     * The mobile apps' merge update under `/portfolios/{id}/artifacts/{artifactId}/responses`:
     * each key overwrites, `null` deletes it. Records a version.
     * @throws 404 when the artifact is not in that portfolio.
     */
    async merge(
      actor: User,
      portfolioId: number,
      id: number,
      body: ArtifactMergeBody,
      client: VersionClient,
    ): Promise<Artifact> {
      const r = await record(id);
      if (r.portfolioId !== portfolioId) throw notFound(PORTFOLIO_MESSAGES.artifactNotFound);
      assertAllowed(canWriteArtifact(actor, r));
      await db.transaction(async (tx) => {
        const current = await artifactRepository.lockRecord(tx, id);
        if (!current) throw notFound(PORTFOLIO_MESSAGES.artifactNotFound);
        if (body.structure && body.structure.length > 0 && !sameStructure(body.structure, current.structure)) {
          throw badRequest(ARTIFACT_MESSAGES.structureFixed, 'structure_fixed');
        }
        const parkingLot = body.parkingLot ?? current.parkingLot;
        if (!current.parkingLot && parkingLot) throw badRequest(ARTIFACT_MESSAGES.backToLot, 'completed');
        const merged: Responses = { ...current.responses };
        for (const [key, value] of Object.entries(body.responses ?? {})) {
          if (value === null) delete merged[key];
          else merged[key] = value;
        }
        const responses = assertValidResponses(current.structure, merged, !parkingLot);
        await artifactRepository.update(tx, id, { responses, parkingLot });
        await versionRepository.record(tx, 'artifact', id, { authorId: actor.id, client });
      });
      return loadOne(id);
    },

    /**
     * Makes version `number` the newest one: its answers and files, as a new version. With
     * `updatedAt` (the artifact's version the caller saw) a later stored one makes it 409, as a
     * shared artifact's save; the answers must suit the artifact as a save's do.
     * @throws 404 / 403 per policy or without such a version; 400 / 409 as a save.
     */
    async restore(actor: User, id: number, number: number, updatedAt: string | undefined): Promise<Artifact> {
      assertAllowed(canWriteArtifact(actor, await record(id)));
      const sent = updatedAt === undefined ? null : parseUpdatedAt(updatedAt);
      if (updatedAt !== undefined && !sent) throw badRequest(SHARED_ARTIFACT_MESSAGES.invalidUpdatedAt);
      const [version] = await versionRepository.withPrevious(db, 'artifact', id, number);
      if (!version) throw notFound(VERSION_MESSAGES.notFound);
      const answers = await versionRepository.answersAt(db, 'artifact', id, number);
      const orphans = await db.transaction(async (tx) => {
        const current = await artifactRepository.lockRecord(tx, id);
        if (!current) throw notFound(PORTFOLIO_MESSAGES.artifactNotFound);
        if (sent && Date.parse(current.updatedAt) > sent.getTime()) throw conflict(SHARED_ARTIFACT_MESSAGES.notSeen);
        const responses = assertValidResponses(current.structure, answers, !current.parkingLot);
        await artifactRepository.update(tx, id, { responses, parkingLot: current.parkingLot });
        const released = await restoreFiles(tx, 'artifact', id, version.files);
        await versionRepository.record(tx, 'artifact', id, {
          authorId: actor.id,
          client: 'restore',
          restoredFrom: number,
        });
        return mediaFileRepository.deleteOrphans(tx, released);
      });
      await store.discard(orphans);
      return loadOne(id);
    },

    /**
     * Deletes an artifact; files no other artifact holds are deleted from disk.
     * @throws 404 / 403 per policy.
     */
    async remove(actor: User, id: number): Promise<Artifact> {
      assertAllowed(canWriteArtifact(actor, await record(id)));
      const artifact = await loadOne(id);
      await deleteArtifacts(db, store, [id]);
      return artifact;
    },
  };
}

/**
 * Deletes artifacts and the files no other artifact holds (rows in one transaction, then the
 * files). Returns how many artifacts were deleted.
 */
export async function deleteArtifacts(
  db: ServiceContext['db'],
  store: Pick<MediaStore, 'discard'>,
  ids: readonly number[],
): Promise<number> {
  if (ids.length === 0) return 0;
  const files = await db.transaction(async (tx) => {
    const mediaIds = await mediaRepository.idsOf(tx, 'artifact', ids);
    await artifactRepository.deleteMany(tx, ids);
    return mediaFileRepository.deleteOrphans(tx, mediaIds);
  });
  await store.discard(files);
  return ids.length;
}
