import { randomBytes } from 'node:crypto';
import { Metadata } from '@tus/server';
import { mediaKindOf, type ResumableCreateHeaders, ResumableUploadMetadataSchema } from '#schemas/resumableUpload';
import type { User } from '#schemas/user';
import type { VersionClient } from '#schemas/versions';
import { badRequest, HttpError, notFound, tooLarge, tooManyRequests } from '../errors.ts';
import { UPLOAD_MESSAGES } from '../http/multipart.ts';
import { EMPTY_FILE } from '../media/uploadReceiver.ts';
import type { ResumableStore } from '../media/resumable/resumableStore.ts';
import { resumableUploadRepository, type ResumableUploadRow } from '../repositories/resumableUploadRepository.ts';
import type { ServiceContext } from './context.ts';
import type { MediaService } from './mediaService.ts';
import type { SharedArtifactService } from './sharedArtifactService.ts';

/** An unfinished upload expires this long after its last byte (or its creation). */
export const RESUMABLE_EXPIRES_AFTER_MS = 24 * 60 * 60 * 1000;

/** How many unfinished resumable uploads one person may have at once. */
export const MAX_UNFINISHED_UPLOADS = 20;

export const RESUMABLE_MESSAGES = {
  notFound: 'Upload not found. It may have expired or been cancelled: send the file again.',
  tooMany: `You have ${MAX_UNFINISHED_UPLOADS} unfinished uploads. Finish or cancel one before you start another.`,
  finishing: 'This upload is already being saved.',
  complete: 'This upload is complete: it takes no more bytes.',
} as const;

/** The first problem of a metadata or header check, as a sentence. */
function firstIssue(
  error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] },
  where: string,
): string {
  const issue = error.issues[0]!;
  const key = issue.path.map(String).join('.');
  const message = key && !issue.message.startsWith(key) ? `${key}: ${issue.message}` : issue.message;
  return `${where}: ${message}`;
}

/**
 * Resumable (tus) uploads: created for a signed-in person after the same policies as a multipart
 * upload allowed it (with the length reserved from her quota), bound to her, expired a day after
 * their last byte, and once complete turned into the same file record as a multipart upload by
 * the same code (type read from the first bytes, limits, formats and media jobs).
 */
export function createResumableUploadService(
  ctx: ServiceContext,
  deps: { media: MediaService; sharedArtifacts: SharedArtifactService; store: ResumableStore },
) {
  const { db } = ctx;
  const { media, sharedArtifacts, store } = deps;
  const expiry = () => ctx.clock.now() + RESUMABLE_EXPIRES_AFTER_MS;

  /** Deletes an upload's parts and its row (its reservation is given back). */
  async function discard(id: string): Promise<void> {
    await store.remove(id).catch((error: unknown) => {
      // Parts already gone (a repeated termination) are no reason to keep the row.
      ctx.log.debug({ err: error, upload: id }, 'resumable upload had no parts to delete');
    });
    await resumableUploadRepository.remove(db, id);
  }

  return {
    /**
     * `POST /uploads/tus`, before any byte is read: checks the headers and metadata, the policy of
     * the target artifact (headers already validated by the route), the size limit, the number of unfinished uploads and the quota (the
     * length is reserved), and records the upload. Resolves with its new id.
     * @throws 400 for headers or metadata that do not fit, 404/403/423 per policy, 413, 429.
     */
    async create(actor: User, headers: ResumableCreateHeaders): Promise<string> {
      let raw: Record<string, string | null>;
      try {
        raw = Metadata.parse(headers['upload-metadata']);
      } catch {
        throw badRequest('Upload-Metadata must be key-value pairs with base64 values.', 'invalid_upload_metadata');
      }
      const parsed = ResumableUploadMetadataSchema.safeParse(raw);
      if (!parsed.success) throw badRequest(firstIssue(parsed.error, 'Upload-Metadata'), 'invalid_upload_metadata');
      const meta = parsed.data;
      const length = headers['upload-length'];
      const target = { id: meta.portfolioId, artifactId: meta.artifactId };
      if (meta.target === 'artifact') await media.authorizeUpload(actor, target);
      else await sharedArtifacts.authorizeUpload(actor, target);
      if (length === 0) throw badRequest(EMPTY_FILE, 'empty_file');
      if (length > ctx.config.uploadLimitBytes) throw tooLarge(UPLOAD_MESSAGES.tooLarge(ctx.config.uploadLimitBytes));
      const id = randomBytes(18).toString('base64url');
      await db.transaction(async (tx) => {
        await media.assertRoomFor(tx, actor, length);
        if ((await resumableUploadRepository.countOf(tx, actor.id)) >= MAX_UNFINISHED_UPLOADS)
          throw tooManyRequests(RESUMABLE_MESSAGES.tooMany);
        await resumableUploadRepository.insert(tx, {
          id,
          ownerId: actor.id,
          target: meta.target,
          portfolioId: meta.portfolioId,
          artifactId: meta.artifactId,
          kind: mediaKindOf(meta.kind),
          name: meta.filename,
          alt: meta.alt ?? null,
          description: meta.description ?? null,
          length,
          expiresAt: expiry(),
        });
      });
      return id;
    },

    /** The caller's own unfinished upload. @throws 404 for anyone else's, and for one that expired or is gone. */
    async owned(actor: User, id: string): Promise<ResumableUploadRow> {
      const row = await resumableUploadRepository.find(db, id);
      if (!row || row.ownerId !== actor.id || row.expiresAt <= ctx.clock.now())
        throw notFound(RESUMABLE_MESSAGES.notFound);
      return row;
    },

    /** Forgets an upload whose creation the tus library refused after it was recorded. */
    async forget(id: string): Promise<void> {
      await discard(id);
    },

    /** An upload's parts were deleted (the store's report): an unfinished one's row goes, and its reservation with it. */
    async removed(id: string): Promise<void> {
      await resumableUploadRepository.removeUnfinished(db, id);
    },

    /** Bytes arrived (the store's report): the offset now, and the expiry a day later. */
    async progressed(id: string, offset: number): Promise<void> {
      await resumableUploadRepository.progressed(db, id, offset, expiry());
    },

    /**
     * The last byte arrived: the upload becomes its file record, through the same steps as a
     * multipart upload (the policy checked again: the artifact may have gone or been locked
     * meanwhile), recording the artifact's version through `client`. Once it is recorded, its parts
     * go and its row is kept finished (with the record's id) until its expiry; refused for good,
     * both go.
     * @throws 409 while another request finishes it; the multipart upload's own errors.
     */
    async finish(actor: User, id: string, client: VersionClient) {
      const row = await resumableUploadRepository.claim(db, id, expiry());
      if (!row || row.ownerId !== actor.id) throw new HttpError(409, 'upload_finishing', RESUMABLE_MESSAGES.finishing);
      const read = async () => ({
        file: await store.read(id),
        local: store.localPath(id),
        filename: row.name,
        fields: {
          ...(row.alt === null ? {} : { alt: row.alt }),
          ...(row.description === null ? {} : { description: row.description }),
        },
        finish: async () => undefined,
      });
      const params = { id: row.portfolioId, artifactId: row.artifactId, kind: row.kind };
      try {
        const result =
          row.target === 'artifact'
            ? await media.uploadToArtifact(actor, params, read, client, id)
            : await sharedArtifacts.upload(actor, params, read, client, id);
        await store.remove(id).catch((error: unknown) => {
          // Left behind, the parts go with the row at its expiry.
          ctx.log.warn({ err: error, upload: id }, 'parts of a finished resumable upload not deleted');
        });
        return result;
      } catch (error) {
        // A refusal (a wrong type, no room, the artifact gone) is final; anything else may pass on a repeated request.
        if (error instanceof HttpError && error.statusCode < 500) await discard(id);
        else await resumableUploadRepository.unclaim(db, id);
        throw error;
      }
    },

    /**
     * The record a finished upload became, for its creator's repeated last request (whose first
     * answer was lost). @throws 404 when its file or artifact is gone.
     */
    async finishedRecord(actor: User, row: ResumableUploadRow) {
      if (row.mediaId === null) throw notFound(RESUMABLE_MESSAGES.notFound);
      const params = { id: row.portfolioId, artifactId: row.artifactId, kind: row.kind };
      return row.target === 'artifact'
        ? media.uploadedToArtifact(actor, params, row.mediaId)
        : sharedArtifacts.uploaded(actor, params, row.mediaId);
    },

    /** Housekeeping: deletes the parts and rows of the uploads that expired; resolves with how many. */
    async expire(): Promise<number> {
      const ids = await resumableUploadRepository.expiredIds(db, ctx.clock.now());
      for (const id of ids) await discard(id);
      return ids.length;
    },
  };
}

export type ResumableUploadService = ReturnType<typeof createResumableUploadService>;
