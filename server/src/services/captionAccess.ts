import type { User } from '#schemas/user';
import type { Cue } from '#schemas/moments';
import { CAPTION_LABEL_MAX, CAPTION_SOURCE_MAX_BYTES } from '#schemas/moments';
import type { Queryable } from '../db/client.ts';
import { badRequest, HttpError, notFound, tooLarge } from '../errors.ts';
import { CaptionError, checkCues, clipToDuration, serializeWebVtt } from '../media/captions.ts';
import { canReadArtifact, PORTFOLIO_MESSAGES } from '../policies/portfolioPolicy.ts';
import { canReadShared, isMember, SHARED_MESSAGES } from '../policies/sharedPolicy.ts';
import { isResearcher } from '../policies/userPolicy.ts';
import { artifactRepository } from '../repositories/artifactRepository.ts';
import { mediaFileRepository } from '../repositories/mediaFileRepository.ts';
import { mediaRepository } from '../repositories/mediaRepository.ts';
import { holderOf, momentRepository, type CaptionHolder } from '../repositories/momentRepository.ts';
import { notificationRepository } from '../repositories/notificationRepository.ts';
import { sharedArtifactRepository } from '../repositories/sharedArtifactRepository.ts';
import { sharedPortfolioRepository } from '../repositories/sharedPortfolioRepository.ts';
import type { ServiceContext } from './context.ts';
import { assertAllowed } from './decide.ts';
import { FILE_NOT_FOUND } from './mediaService.ts';
import { MOMENT_MESSAGES, type MomentChecker } from './momentChecker.ts';

/** A video as one artifact holds it, for its caption tracks. */
export interface HeldVideo {
  id: number;
  kind: 'image' | 'video' | 'document';
  name: string;
  fileName: string;
  duration: number | null;
  where: CaptionHolder;
  canEdit: boolean;
}

/**
 * A label no other track of the video in that artifact has: a second "English" in another
 * language tag is named after its tag ("English (en-GB)"), never "English / English".
 */
export function distinctLabel(label: string, language: string, others: readonly { label: string }[]): string {
  const taken = new Set(others.map((t) => t.label.toLowerCase()));
  if (!taken.has(label.toLowerCase())) return label;
  const named = `${label} (${language})`.slice(0, CAPTION_LABEL_MAX);
  if (!taken.has(named.toLowerCase())) return named;
  for (let n = 2; ; n += 1) {
    const numbered = `${label.slice(0, CAPTION_LABEL_MAX - 12)} (${language.slice(0, 6)} ${n})`;
    if (!taken.has(numbered.toLowerCase())) return numbered;
  }
}

/** Who may read and change a video's caption tracks, and the checks a track passes before it is stored. */
export function createCaptionAccess(ctx: ServiceContext, moments: MomentChecker) {
  const { db } = ctx;

  /**
   * A video as one artifact holds it, with whether the caller may change that artifact's caption
   * tracks: a personal artifact's tracks only its owner (researchers read them); a shared copy's
   * tracks its portfolio's members and researchers (invitees read them), unless someone else
   * holds the copy's edit lock. @throws 404 / 403 / 423 / 400 (not a video).
   */
  async function heldVideo(actor: User, where: CaptionHolder, mediaId: number, edit: boolean): Promise<HeldVideo> {
    let canEdit: boolean;
    if (where.holder === 'artifact') {
      const record = await artifactRepository.findRecord(db, where.holderId);
      if (!record) throw notFound(PORTFOLIO_MESSAGES.artifactNotFound);
      assertAllowed(canReadArtifact(actor, record));
      canEdit = record.ownerId === actor.id;
    } else {
      const { artifact, sp } = await readableShared(actor, where.holderId);
      canEdit = isMember(actor, sp) || isResearcher(actor);
      if (
        edit &&
        canEdit &&
        artifact.lockedUntil &&
        artifact.lockedUntil > new Date() &&
        artifact.lockedBy &&
        artifact.lockedBy.id !== actor.id
      ) {
        throw new HttpError(
          423,
          'locked',
          `This artifact is being edited by ${artifact.lockedBy.username}. Try again once they are done.`,
        );
      }
    }
    const file = await mediaRepository.findHeld(db, where.holder, where.holderId, mediaId);
    if (!file) throw notFound(FILE_NOT_FOUND);
    if (edit && !canEdit)
      throw new HttpError(403, 'forbidden', 'You can read the captions of this video but not change them.');
    if (file.kind !== 'video') throw badRequest(MOMENT_MESSAGES.captionsOnVideos, 'not_a_video');
    return { ...file, where, canEdit };
  }

  /** A stored track and its video as its artifact holds it. @throws 404 (never telling a track exists), 403 / 423. */
  async function captionTrack(actor: User, id: number, edit: boolean) {
    const row = await momentRepository.findCaption(db, id);
    if (!row) throw notFound(MOMENT_MESSAGES.captionNotFound);
    try {
      return { row, video: await heldVideo(actor, holderOf(row), row.media_id, edit) };
    } catch (error) {
      if (error instanceof HttpError && error.statusCode === 404) throw notFound(MOMENT_MESSAGES.captionNotFound);
      if (error instanceof HttpError && error.statusCode === 403 && error.message.startsWith('You can read')) {
        throw new HttpError(403, 'forbidden', 'You can read these captions but not change them.');
      }
      throw error;
    }
  }

  /**
   * A track's size and its writer's room: at most 512 KiB as WebVTT (413), and its bytes within
   * the writer's storage quota, with her files (413; a track she replaces counts once).
   */
  async function checkRoom(
    tx: Queryable,
    actor: User,
    cues: readonly Cue[],
    replaced?: { created_by: number | null; bytes: number | string },
  ): Promise<void> {
    if (Buffer.byteLength(serializeWebVtt(cues), 'utf8') > CAPTION_SOURCE_MAX_BYTES)
      throw tooLarge(MOMENT_MESSAGES.trackTooLarge);
    const quota = ctx.config.storageQuotaBytes;
    const freed = replaced && replaced.created_by === actor.id ? Number(replaced.bytes) : 0;
    // The person's uploads and caption writes are counted one at a time (as parallel uploads are).
    await mediaFileRepository.lockQuota(tx, actor.id);
    const used = await mediaFileRepository.bytesUploadedBy(tx, actor.id);
    if (used - freed + Buffer.byteLength(JSON.stringify(cues), 'utf8') > quota)
      throw new HttpError(413, 'storage_full', MOMENT_MESSAGES.quotaFull);
  }

  /** The owner of a shared copy hears when someone else changes its caption tracks. */
  async function recordEdit(tx: Queryable, actor: User, where: CaptionHolder): Promise<void> {
    if (where.holder === 'sharedArtifact')
      await notificationRepository.recordSnapshotEdited(tx, where.holderId, actor.id);
  }

  /**
   * Cues checked against the video's length (when it can be read); with `clip` (an uploaded
   * file), cues past the end are fitted to it first and `notice` says so. @throws 400 with the first problem.
   */
  async function checkedCues(
    access: HeldVideo,
    parse: () => Cue[],
    clip = false,
  ): Promise<{ cues: Cue[]; notice: string | null }> {
    const duration = await moments.durationOf(access);
    try {
      const fitted = clip ? clipToDuration(parse(), duration) : { cues: parse(), notice: null };
      return { cues: checkCues(fitted.cues, duration), notice: fitted.notice };
    } catch (error) {
      if (error instanceof CaptionError) throw badRequest(error.message, 'invalid_captions');
      throw error;
    }
  }

  /** A shared artifact the caller may read (members, invitees, researchers). @throws 404. */
  async function readableShared(actor: User, id: number) {
    const artifact = await sharedArtifactRepository.findRecord(db, id);
    const sp = artifact ? await sharedPortfolioRepository.findById(db, artifact.sharedPortfolioId) : null;
    if (!artifact || !sp) throw notFound(SHARED_MESSAGES.artifactNotFound);
    const invitee = !isMember(actor, sp) && (await sharedPortfolioRepository.isInvitee(db, sp.id, actor.id));
    assertAllowed(canReadShared(actor, sp, invitee, SHARED_MESSAGES.artifactNotFound));
    return { artifact, sp };
  }

  return { heldVideo, captionTrack, checkRoom, recordEdit, checkedCues, readableShared };
}
