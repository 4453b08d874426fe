import type { Queryable } from '../db/client.ts';
import { randomUUID } from 'node:crypto';
import type { MediaKind } from '#schemas/media';
import type { GateCheckResponse, SharedArtifactDetail } from '#schemas/sharedArtifact';
import type { SharedArtifact } from '#schemas/sharedPortfolio';
import type { Responses } from '#schemas/structure';
import type { User } from '#schemas/user';
import type { VersionClient } from '#schemas/versions';
import { badRequest, conflict, HttpError, notFound } from '../errors.ts';
import type { MediaStore } from '../media/mediaStore.ts';
import { abilitiesFor } from '../policies/abilities.ts';
import { canReadShared, canWorkInShared, isMember, SHARED_MESSAGES } from '../policies/sharedPolicy.ts';
import { isResearcher } from '../policies/userPolicy.ts';
import { mediaFileRepository } from '../repositories/mediaFileRepository.ts';
import { mediaRepository } from '../repositories/mediaRepository.ts';
import { momentRepository } from '../repositories/momentRepository.ts';
import { notificationRepository } from '../repositories/notificationRepository.ts';
import { discussionRepository } from '../repositories/discussionRepository.ts';
import { sharedArtifactRepository, type SharedArtifactRecord } from '../repositories/sharedArtifactRepository.ts';
import { sharedPortfolioRepository, type SharedPortfolioRecord } from '../repositories/sharedPortfolioRepository.ts';
import { versionRepository, type VersionSource } from '../repositories/versionRepository.ts';
import { assertValidResponses } from './artifactService.ts';
import type { ServiceContext } from './context.ts';
import { assertAllowed } from './decide.ts';
import { FILE_NOT_FOUND, type IncomingFile, type MediaService } from './mediaService.ts';
import { createSharedArtifactCopies } from './sharedArtifactCopies.ts';
import { SHARED_ARTIFACT_MESSAGES, parseUpdatedAt } from './sharedArtifactMessages.ts';
import { restoreFiles, VERSION_MESSAGES } from './versionFiles.ts';

/** An edit lock lasts this long. */
export const LOCK_MINUTES = 15;
/** Renewed, a lock may be held this long in a row; then its holder waits `LOCK_MINUTES` before locking again. */
export const LOCK_MAX_MINUTES = 60;

/** Shared artifacts: read, edit with conflict protection, copy (`sharedArtifactCopies`), lock, delete, media. */
export function createSharedArtifactService(ctx: ServiceContext, store: MediaStore, media: MediaService) {
  const { db } = ctx;

  async function loadContext(
    artifactId: number,
  ): Promise<{ artifact: SharedArtifactRecord; sp: SharedPortfolioRecord }> {
    const artifact = await sharedArtifactRepository.findRecord(db, artifactId);
    if (!artifact) throw notFound(SHARED_MESSAGES.artifactNotFound);
    const sp = await sharedPortfolioRepository.findById(db, artifact.sharedPortfolioId);
    if (!sp) throw notFound(SHARED_MESSAGES.artifactNotFound);
    return { artifact, sp };
  }

  /** Checks a nested path: the artifact belongs to shared portfolio `portfolioId` and the caller works there. */
  async function nested(actor: User, portfolioId: number, artifactId: number) {
    const found = await loadContext(artifactId);
    if (found.artifact.sharedPortfolioId !== portfolioId) throw notFound(SHARED_MESSAGES.artifactNotFound);
    assertAllowed(canWorkInShared(actor, found.sp, SHARED_MESSAGES.artifactNotFound));
    return found;
  }

  async function one(id: number): Promise<SharedArtifact> {
    const [artifact] = await sharedArtifactRepository.load(db, { ids: [id] });
    if (!artifact) throw notFound(SHARED_MESSAGES.artifactNotFound);
    return artifact;
  }

  function assertUnlockedFor(actor: User, a: SharedArtifactRecord): void {
    if (a.lockedUntil && a.lockedUntil > new Date() && a.lockedBy && a.lockedBy.id !== actor.id) {
      throw new HttpError(423, 'locked', SHARED_ARTIFACT_MESSAGES.locked(a.lockedBy.username, a.lockedUntil));
    }
  }

  /**
   * Replaces or merges answers under the row lock, refusing a stale version with 409, and records
   * the version. The version is the `updated_at` the client sent or, when it sent none (the
   * mobile app), the one its user last read or acknowledged at a gate check; with neither, the
   * save is refused too. `files` (a restore) sets the files in the same transaction.
   */
  async function write(
    actor: User,
    id: number,
    updatedAt: string | undefined,
    next: (current: SharedArtifactRecord) => Responses,
    source: VersionSource,
    files?: (tx: Queryable) => Promise<number[]>,
  ): Promise<SharedArtifact> {
    const sent = updatedAt === undefined ? null : parseUpdatedAt(updatedAt);
    if (updatedAt !== undefined && !sent) throw badRequest(SHARED_ARTIFACT_MESSAGES.invalidUpdatedAt);
    const orphans = await db.transaction(async (tx) => {
      const current = (await sharedArtifactRepository.findRecord(tx, id, true))!;
      if (!current) throw notFound(SHARED_MESSAGES.artifactNotFound);
      assertUnlockedFor(actor, current);
      const responses = assertValidResponses(current.structure, next(current), true);
      const seen = sent ?? (await sharedArtifactRepository.seenVersion(tx, actor.id, id));
      if (!seen) throw conflict(SHARED_ARTIFACT_MESSAGES.notSeen);
      if (current.updatedAt.getTime() > seen.getTime())
        throw conflict(SHARED_ARTIFACT_MESSAGES.savedBySomeoneElse(current.updatedAt));
      const version = await sharedArtifactRepository.updateResponses(tx, id, responses, actor.id);
      await sharedArtifactRepository.markSeen(tx, actor.id, id, version);
      await notificationRepository.recordSnapshotEdited(tx, id, actor.id);
      const released = files ? await files(tx) : [];
      await versionRepository.record(tx, 'sharedArtifact', id, source);
      return mediaFileRepository.deleteOrphans(tx, released);
    });
    await store.discard(orphans);
    return one(id);
  }

  const copies = createSharedArtifactCopies(ctx, { one, loadContext });

  return {
    /** One shared artifact with comments and reactions. @throws 404 unless member, invitee or researcher. */
    async get(actor: User, id: number): Promise<SharedArtifactDetail> {
      const { sp } = await loadContext(id);
      const invitee = !isMember(actor, sp) && (await sharedPortfolioRepository.isInvitee(db, sp.id, actor.id));
      assertAllowed(canReadShared(actor, sp, invitee, SHARED_MESSAGES.artifactNotFound));
      const [artifact, comments, reactions] = await Promise.all([
        one(id),
        discussionRepository.comments(db, id),
        discussionRepository.reactions(db, id),
      ]);
      // After the answers: a save in between makes the number newer than they are, never older.
      const version = await versionRepository.latestNumber(db, 'sharedArtifact', id);
      return {
        ...artifact,
        version,
        comments: comments.map((c) => ({ ...c, abilities: abilitiesFor.comment(actor, c, sp) })),
        reactions,
        abilities: abilitiesFor.sharedArtifact(actor, sp),
      };
    },

    /** Shared artifacts of the caller's shared portfolios (mobile). */
    listForMember(actor: User): Promise<SharedArtifact[]> {
      return sharedArtifactRepository.load(db, { memberId: actor.id });
    },

    /**
     * Replaces the answers. With `updated_at` (the version the editor saw) a newer stored
     * version makes it 409 and changes nothing.
     */
    async update(
      actor: User,
      id: number,
      body: { responses: Responses; updated_at?: string | undefined; id?: number | undefined },
      client: VersionClient,
    ): Promise<SharedArtifact> {
      if (body.id !== undefined && body.id !== id) throw badRequest('The id in the body does not match the address.');
      const { sp } = await loadContext(id);
      assertAllowed(canWorkInShared(actor, sp, SHARED_MESSAGES.artifactNotFound));
      const saved = await write(actor, id, body.updated_at, () => body.responses, { authorId: actor.id, client });
      return { ...saved, abilities: abilitiesFor.sharedArtifact(actor, sp) };
    },

    /**
     * Makes version `number` the newest one: its answers and files, as a new version, guarded as a
     * save is (the version the caller saw, 409 when a later one is stored; the edit lock).
     * @throws 404 unless member or researcher, or without such a version; 409 / 423 as a save.
     */
    async restore(actor: User, id: number, number: number, updatedAt: string | undefined): Promise<SharedArtifact> {
      const { sp } = await loadContext(id);
      assertAllowed(canWorkInShared(actor, sp, SHARED_MESSAGES.artifactNotFound));
      const [version] = await versionRepository.withPrevious(db, 'sharedArtifact', id, number);
      if (!version) throw notFound(VERSION_MESSAGES.notFound);
      const answers = await versionRepository.answersAt(db, 'sharedArtifact', id, number);
      const saved = await write(
        actor,
        id,
        updatedAt,
        () => answers,
        { authorId: actor.id, client: 'restore', restoredFrom: number },
        (tx) => restoreFiles(tx, 'sharedArtifact', id, version.files),
      );
      return { ...saved, abilities: abilitiesFor.sharedArtifact(actor, sp) };
    },

    /** The mobile apps' merge update (`null` deletes a key), under the nested path. */
    async merge(
      actor: User,
      portfolioId: number,
      id: number,
      body: { responses: Record<string, Responses[string] | null>; updated_at?: string | undefined },
      client: VersionClient,
    ) {
      await nested(actor, portfolioId, id);
      return write(
        actor,
        id,
        body.updated_at,
        (current) => {
          const merged: Responses = { ...current.responses };
          for (const [key, value] of Object.entries(body.responses)) {
            if (value === null) delete merged[key];
            else merged[key] = value;
          }
          return merged;
        },
        { authorId: actor.id, client },
      );
    },

    /**
     * Whether a save based on version `updatedAt` would overwrite someone else's later save
     * (`warning`, the mobile apps' word). Either answer records the stored version as the one the
     * caller has now seen or, after a warning, acknowledged: a following save without
     * `updated_at` may overwrite that version and no later one.
     */
    async gateCheck(
      actor: User,
      portfolioId: number,
      id: number,
      updatedAt: string | undefined,
    ): Promise<GateCheckResponse> {
      const { artifact } = await nested(actor, portfolioId, id);
      const seen = parseUpdatedAt(updatedAt);
      if (!seen) return { type: 'error', message: SHARED_ARTIFACT_MESSAGES.invalidUpdatedAt };
      const stored = artifact.updatedAt;
      await sharedArtifactRepository.markSeen(db, actor.id, id, stored);
      if (stored.getTime() > seen.getTime()) {
        return {
          type: 'warning',
          message: SHARED_ARTIFACT_MESSAGES.savedBySomeoneElse(stored),
          updated_at: stored.toISOString(),
          saved_by: artifact.updatedBy,
        };
      }
      return { type: 'ok', message: SHARED_ARTIFACT_MESSAGES.safe, updated_at: stored.toISOString() };
    },

    /**
     * Takes the 15-minute edit lock (again, for its holder). A hold continues across renewals and
     * re-locks within `LOCK_MINUTES` of its end, for at most `LOCK_MAX_MINUTES`; then its holder
     * waits `LOCK_MINUTES` like everyone else. @throws 423 while someone else holds it, or while its holder rests.
     */
    async lock(actor: User, portfolioId: number, id: number) {
      await nested(actor, portfolioId, id);
      const result = await db.transaction(async (tx) => {
        const current = (await sharedArtifactRepository.findRecord(tx, id, true))!;
        assertUnlockedFor(actor, current);
        const now = Date.now();
        const lockMs = LOCK_MINUTES * 60_000;
        const maxMs = LOCK_MAX_MINUTES * 60_000;
        const mine =
          current.lockedBy?.id === actor.id && current.lockStartedAt !== null && current.lockedUntil !== null;
        const continuing = mine && current.lockedUntil!.getTime() + lockMs > now;
        const startedAt = continuing ? current.lockStartedAt! : new Date(now);
        const end = startedAt.getTime() + maxMs;
        if (end - now < 1_000) {
          throw new HttpError(
            423,
            'locked',
            SHARED_ARTIFACT_MESSAGES.lockRest(new Date(current.lockedUntil!.getTime() + lockMs)),
          );
        }
        const lock = { code: randomUUID(), until: new Date(Math.min(now + lockMs, end)), by: actor.id, startedAt };
        await sharedArtifactRepository.setLock(tx, id, lock);
        return lock;
      });
      return { ...(await one(id)), lock: result.code, lockedUntil: result.until.toISOString() };
    },

    /**
     * Releases the lock with its code (or when it is expired / absent). The artifact's owner, the
     * shared portfolio's lead and a researcher may release another member's lock without its code
     * (a colleague who left for the day keeps nobody out).
     */
    async unlock(
      actor: User,
      portfolioId: number,
      id: number,
      code: string | undefined,
    ): Promise<Record<string, never>> {
      const { sp } = await nested(actor, portfolioId, id);
      await db.transaction(async (tx) => {
        const current = (await sharedArtifactRepository.findRecord(tx, id, true))!;
        const active = current.lockCode && current.lockedUntil && current.lockedUntil > new Date();
        // Another's lock only: one's own lock still needs its current code (a stale tab releases nothing).
        const othersLock = current.lockedBy !== null && current.lockedBy.id !== actor.id;
        const mayRelease =
          othersLock && (current.ownerId === actor.id || sp.ownerId === actor.id || isResearcher(actor));
        if (active && code !== current.lockCode && !mayRelease)
          throw badRequest(SHARED_ARTIFACT_MESSAGES.unlockFailed(current.lockedUntil!));
        await sharedArtifactRepository.endLock(tx, id);
      });
      return {};
    },

    /** Deletes a shared artifact without comments and reactions; files nothing else holds are deleted. */
    async remove(actor: User, id: number): Promise<SharedArtifact> {
      const { artifact: record, sp } = await loadContext(id);
      assertAllowed(canWorkInShared(actor, sp, SHARED_MESSAGES.artifactNotFound));
      assertUnlockedFor(actor, record);
      const artifact = await one(id);
      const orphans = await db.transaction(async (tx) => {
        const mediaIds = await mediaRepository.idsOf(tx, 'sharedArtifact', [id]);
        if (!(await sharedArtifactRepository.deleteIfQuiet(tx, id)))
          throw badRequest(SHARED_ARTIFACT_MESSAGES.hasActivity, 'has_activity');
        return mediaFileRepository.deleteOrphans(tx, mediaIds);
      });
      await store.discard(orphans);
      return artifact;
    },

    shareFromArtifact: copies.shareFromArtifact,
    shareFromShared: copies.shareFromShared,

    /**
     * Upload to a shared artifact (keeps its `updated_at`, so nobody's gate check trips; records a
     * version). @throws 423 while someone else holds the lock.
     */
    async upload(
      actor: User,
      params: { id: number; artifactId: number; kind: MediaKind },
      read: () => Promise<IncomingFile | undefined>,
      client: VersionClient,
      reservation: string | null = null,
    ) {
      const { artifact } = await nested(actor, params.id, params.artifactId);
      assertUnlockedFor(actor, artifact);
      const file = await media.storeFor(
        actor,
        'sharedArtifact',
        params.artifactId,
        params.kind,
        read,
        false,
        client,
        reservation,
      );
      return { ...file, parentSharedArtifact: await one(params.artifactId) };
    },

    /** The record a finished resumable upload became, answered again to its creator. @throws 404 when gone. */
    async uploaded(actor: User, params: { id: number; artifactId: number; kind: MediaKind }, fileId: number) {
      await nested(actor, params.id, params.artifactId);
      const file = await mediaRepository.findLinked(db, 'sharedArtifact', params.artifactId, fileId, params.kind);
      if (!file) throw notFound(FILE_NOT_FOUND);
      return { ...file, parentSharedArtifact: await one(params.artifactId) };
    },

    /** Checks that `actor` may upload to the shared artifact (a resumable upload, before its first byte). @throws 404/403/423. */
    async authorizeUpload(actor: User, params: { id: number; artifactId: number }): Promise<void> {
      const { artifact } = await nested(actor, params.id, params.artifactId);
      assertUnlockedFor(actor, artifact);
    },

    /** Removes a file from a shared artifact and records a version; deletes the file when nothing else (no history) holds it. */
    async removeFile(
      actor: User,
      params: { id: number; artifactId: number; kind: MediaKind; fileId: number },
      client: VersionClient,
    ) {
      const { artifact } = await nested(actor, params.id, params.artifactId);
      assertUnlockedFor(actor, artifact);
      const file = await mediaRepository.findLinked(
        db,
        'sharedArtifact',
        params.artifactId,
        params.fileId,
        params.kind,
      );
      if (!file) throw notFound(FILE_NOT_FOUND);
      const orphans = await db.transaction(async (tx) => {
        if (await momentRepository.hasMomentsOn(tx, params.artifactId, params.fileId))
          throw badRequest(SHARED_ARTIFACT_MESSAGES.hasMoments, 'has_moments');
        await mediaRepository.unlink(tx, 'sharedArtifact', params.artifactId, params.fileId);
        await versionRepository.record(tx, 'sharedArtifact', params.artifactId, { authorId: actor.id, client });
        return mediaFileRepository.deleteOrphans(tx, [params.fileId]);
      });
      await store.discard(orphans);
      return { ...file, parentSharedArtifact: await one(params.artifactId) };
    },
  };
}

export type SharedArtifactService = ReturnType<typeof createSharedArtifactService>;
