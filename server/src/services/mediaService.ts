import type { Readable } from 'node:stream';
import type { Queryable } from '../db/client.ts';
import { DEMO_EMAILS } from './authService.ts';
import type { ArtifactMediaResponse } from '#schemas/artifact';
import { UNNAMED_ARTIFACT } from '#schemas/catalog';
import type { Media, MediaKind, ViewedFile } from '#schemas/media';
import { MediaUploadFieldsSchema } from '#schemas/moments';
import type { User } from '#schemas/user';
import type { VersionClient } from '#schemas/versions';
import { badRequest, HttpError, notFound } from '../errors.ts';
import { MediaCapabilities } from '../media/capabilities.ts';
import type { MediaStore } from '../media/mediaStore.ts';
import { isStoredName } from '../media/storedNames.ts';
import { canWriteArtifact, PORTFOLIO_MESSAGES } from '../policies/portfolioPolicy.ts';
import { isResearcher } from '../policies/userPolicy.ts';
import { artifactRepository } from '../repositories/artifactRepository.ts';
import { userRepository } from '../repositories/userRepository.ts';
import { mediaFileRepository } from '../repositories/mediaFileRepository.ts';
import { mediaRepository, type Holder } from '../repositories/mediaRepository.ts';
import { resumableUploadRepository } from '../repositories/resumableUploadRepository.ts';
import { versionRepository } from '../repositories/versionRepository.ts';
import type { ServiceContext } from './context.ts';
import { assertAllowed } from './decide.ts';

/** One multipart file part, read only after the caller was authorised. */
export interface IncomingFile {
  file: Readable;
  /** The same bytes as a file of this node's disk, which the media store may link rather than copy (a finished resumable upload). */
  local?: string | null;
  filename: string;
  /** The plain text fields of the upload (complete once `finish` has run). */
  fields?: Record<string, string>;
  /** Called once the file was read: refuses what follows it (another file). */
  finish(): Promise<void>;
}

export const NO_FILE = 'Send the file as multipart/form-data in a field named "file".';
export const FILE_NOT_FOUND = 'File not found.';

/** 413 when a person's uploads would take more than their share of the disk. */
const quotaFull = (quota: number) =>
  new HttpError(
    413,
    'storage_full',
    `Your files would take more than your storage limit of ${(quota / 1024 ** 3).toLocaleString('en-US', { maximumFractionDigits: 1 })} GB. Remove files you no longer need, or ask a researcher for more room.`,
  );

/**
 * The alt text and description sent with an upload (other fields the mobile apps send are
 * ignored). @throws 400 for one that is too long.
 */
function uploadText(fields: Record<string, string>): { alt?: string; description?: string } {
  const parsed = MediaUploadFieldsSchema.safeParse({
    ...(fields['alt'] === undefined ? {} : { alt: fields['alt'] }),
    ...(fields['description'] === undefined ? {} : { description: fields['description'] }),
  });
  if (!parsed.success) throw badRequest(parsed.error.issues[0]!.message, 'invalid_media_text');
  return {
    ...(parsed.data.alt === undefined ? {} : { alt: parsed.data.alt.trim() }),
    ...(parsed.data.description === undefined ? {} : { description: parsed.data.description.trim() }),
  };
}

/** Uploads, deletes and serves media files of artifacts. */
export function createMediaService(ctx: ServiceContext, store: MediaStore) {
  const { db } = ctx;
  const capabilities = new MediaCapabilities(ctx.config.jwtSecret);

  /** The file to serve, if `actor` may read an artifact holding it. @throws 404 otherwise. */
  async function servable(
    actor: User,
    fileName: string,
  ): Promise<{ mime: string; name: string; kind: string; isFormat: boolean; formats: Media['formats'] }> {
    const match = /^(?:(thumbnail|small|medium|large)_)?(.+?)(\.[a-z0-9]{1,5})$/.exec(fileName);
    if (!isStoredName(fileName) || !match) throw notFound(FILE_NOT_FOUND);
    const found = await mediaFileRepository.findServable(db, match[2]!, {
      id: actor.id,
      isResearcher: isResearcher(actor),
    });
    if (!found || !found.allowed) throw notFound(FILE_NOT_FOUND);
    const isFormat = Boolean(match[1]);
    if (!isFormat && `${found.media.storage_key}${found.media.ext}` !== fileName) throw notFound(FILE_NOT_FOUND);
    if (isFormat && !found.media.formats?.[match[1] as 'thumbnail']) throw notFound(FILE_NOT_FOUND);
    return {
      mime: isFormat ? 'image/jpeg' : found.media.mime,
      name: found.media.name,
      kind: found.media.kind,
      isFormat,
      formats: found.media.formats,
    };
  }

  /** The holder of a genuine, unexpired capability for this file, if still an active account. @throws 404 otherwise. */
  async function holderOf(capability: string, fileName: string): Promise<{ actor: User; expiresAt: number }> {
    const verified = capabilities.verify(capability, fileName);
    if (!verified) throw notFound(FILE_NOT_FOUND);
    const record = await userRepository.findById(db, verified.userId);
    if (!record || record.user.blocked) throw notFound(FILE_NOT_FOUND);
    // Media links of the demo accounts stop working once the server is reachable by others.
    if (!ctx.config.demoSignIn && DEMO_EMAILS.has(record.user.email)) throw notFound(FILE_NOT_FOUND);
    return { actor: record.user, expiresAt: verified.expiresAt };
  }

  /**
   * Receives a file for a holder and links it with the next caption letter, recording the
   * holder's next version (by `client`) in the same transaction. Nothing is left behind when
   * anything fails (no file, no row).
   */
  async function storeFor(
    actor: User,
    holder: Holder,
    holderId: number,
    kind: MediaKind,
    read: () => Promise<IncomingFile | undefined>,
    touch: boolean,
    client: VersionClient,
    /** The resumable upload being finished, whose reservation of the quota is this file. */
    reservation: string | null = null,
  ): Promise<Media> {
    const quota = ctx.config.storageQuotaBytes;
    const used = await mediaFileRepository.bytesUploadedBy(db, actor.id, reservation);
    if (used >= quota) throw quotaFull(quota);
    const part = await read();
    if (!part) throw badRequest(NO_FILE, 'no_file');
    const received = await store.receive(part.file, part.filename, kind, part.local ?? null);
    try {
      if (used + received.size > quota) throw quotaFull(quota);
      await part.finish();
      const text = uploadText(part.fields ?? {});
      // Stored as it arrived, before the transaction: an upload into a bucket takes its time, and
      // must not hold a database connection and the person's quota lock meanwhile. Until the row
      // commits, the key stays in `pending_uploads`, so a crash in between leaves nothing behind.
      const media = await db.transaction(async (tx) => {
        // The bytes are taken under the person's lock: the check before reading was only a first answer.
        await mediaFileRepository.lockQuota(tx, actor.id);
        if ((await mediaFileRepository.bytesUploadedBy(tx, actor.id, reservation)) + received.size > quota)
          throw quotaFull(quota);
        const inserted = await mediaRepository.insertAndLink(
          tx,
          holder,
          holderId,
          {
            kind: received.kind,
            name: received.name,
            storageKey: received.key,
            ext: received.ext,
            mime: received.mime,
            size: received.size,
            width: received.width,
            height: received.height,
            formats: received.formats,
            uploadedBy: actor.id,
            duration: received.duration,
            ...text,
          },
          touch,
        );
        if (!inserted) throw notFound(PORTFOLIO_MESSAGES.artifactNotFound);
        await versionRepository.record(tx, holder, holderId, { authorId: actor.id, client });
        await mediaFileRepository.keepUpload(tx, received.key);
        if (reservation) await resumableUploadRepository.finished(tx, reservation, inserted.id);
        return inserted;
      });
      await store.committed(received);
      return media;
    } catch (error) {
      await store.abandon(received);
      throw error;
    }
  }

  /** Checks `/portfolios/{portfolioId}/artifacts/{artifactId}`: the artifact is in that portfolio and the caller owns it. */
  async function authorizeArtifact(actor: User, portfolioId: number, artifactId: number): Promise<void> {
    const record = await artifactRepository.findRecord(db, artifactId);
    if (!record || record.portfolioId !== portfolioId) throw notFound(PORTFOLIO_MESSAGES.artifactNotFound);
    assertAllowed(canWriteArtifact(actor, record));
  }

  async function parentArtifact(id: number) {
    const [artifact] = await artifactRepository.load(db, { ids: [id] });
    return artifact!;
  }

  return {
    /** `POST /portfolios/{id}/artifacts/{artifactId}/{kind}`. @throws 404/403 per policy, 400/413 for the file. */
    async uploadToArtifact(
      actor: User,
      params: { id: number; artifactId: number; kind: MediaKind },
      read: () => Promise<IncomingFile | undefined>,
      client: VersionClient,
      reservation: string | null = null,
    ): Promise<ArtifactMediaResponse> {
      await authorizeArtifact(actor, params.id, params.artifactId);
      const media = await storeFor(actor, 'artifact', params.artifactId, params.kind, read, true, client, reservation);
      return { ...media, parentArtifact: await parentArtifact(params.artifactId) };
    },

    /**
     * The record a finished resumable upload became, answered again to its creator (the answer to
     * its last request was lost). @throws 404 when the artifact or the file is gone, 403 per policy.
     */
    async uploadedToArtifact(
      actor: User,
      params: { id: number; artifactId: number; kind: MediaKind },
      fileId: number,
    ): Promise<ArtifactMediaResponse> {
      await authorizeArtifact(actor, params.id, params.artifactId);
      const media = await mediaRepository.findLinked(db, 'artifact', params.artifactId, fileId, params.kind);
      if (!media) throw notFound(FILE_NOT_FOUND);
      return { ...media, parentArtifact: await parentArtifact(params.artifactId) };
    },

    /**
     * `DELETE /portfolios/{id}/artifacts/{artifactId}/{kind}/{fileId}`: unlinks and records a
     * version; deletes the file when nothing holds it (its history keeps what a version held).
     */
    async removeFromArtifact(
      actor: User,
      params: { id: number; artifactId: number; kind: MediaKind; fileId: number },
      client: VersionClient,
    ): Promise<ArtifactMediaResponse> {
      await authorizeArtifact(actor, params.id, params.artifactId);
      const media = await mediaRepository.findLinked(db, 'artifact', params.artifactId, params.fileId, params.kind);
      if (!media) throw notFound(FILE_NOT_FOUND);
      const orphans = await db.transaction(async (tx) => {
        await mediaRepository.unlink(tx, 'artifact', params.artifactId, params.fileId);
        await artifactRepository.touch(tx, params.artifactId);
        await versionRepository.record(tx, 'artifact', params.artifactId, { authorId: actor.id, client });
        return mediaFileRepository.deleteOrphans(tx, [params.fileId]);
      });
      await store.discard(orphans);
      return { ...media, parentArtifact: await parentArtifact(params.artifactId) };
    },

    /** Checks that `actor` may upload to the artifact (a resumable upload, before its first byte). @throws 404/403 per policy. */
    authorizeUpload: (actor: User, params: { id: number; artifactId: number }) =>
      authorizeArtifact(actor, params.id, params.artifactId),

    /** Shared with the shared-artifact service: store a file for any holder after it authorised the caller. */
    storeFor,

    /** 413 when `bytes` more would take more than a person's storage limit (uploads and reservations). */
    async assertRoomFor(tx: Queryable, actor: User, bytes: number) {
      const quota = ctx.config.storageQuotaBytes;
      await mediaFileRepository.lockQuota(tx, actor.id);
      if ((await mediaFileRepository.bytesUploadedBy(tx, actor.id)) + bytes > quota) throw quotaFull(quota);
    },

    /** Signs the addresses of stored files for one user (see `MediaCapabilities`). */
    signFor(userId: number): (url: string) => string {
      return (url) => capabilities.sign(url, userId);
    },

    /**
     * The file to serve for `GET /uploads/{capability}/{name}`: the capability must be genuine,
     * unexpired and for this file, and its holder must still be able to read it.
     * @throws 404 otherwise (never revealing that the file exists).
     */
    async servableByCapability(capability: string, fileName: string) {
      const { actor, expiresAt } = await holderOf(capability, fileName);
      return { ...(await servable(actor, fileName)), expiresAt };
    },

    /**
     * `GET /viewer-files/{capability}/{name}`: the name and alt text of a file (not a format) and
     * the artifact of the capability's holder that holds it. @throws 404 as `servableByCapability`.
     */
    async aboutViewed(capability: string, fileName: string): Promise<ViewedFile> {
      const { actor } = await holderOf(capability, fileName);
      const file = await servable(actor, fileName);
      if (file.isFormat) throw notFound(FILE_NOT_FOUND);
      const held = await mediaFileRepository.findHolderArtifact(db, fileName.replace(/\.[a-z0-9]{1,5}$/, ''), actor.id);
      if (!held) return { name: file.name, alt: '', artifact: null };
      const title = held.title?.trim() ? held.title : UNNAMED_ARTIFACT;
      return {
        name: file.name,
        alt: held.alt,
        artifact: { kind: held.kind, id: held.id, portfolioId: held.portfolioId, title },
      };
    },

    /**
     * What a viewer page shows for `GET /{images,videos}/uploads/{capability}/{name}.html`: the
     * file's name, the address to display (an image's large format, when it has one) and a
     * video's poster, signed for the capability's holder. @throws 404 as `servableByCapability`.
     */
    async viewable(
      capability: string,
      fileName: string,
      kind: 'image' | 'video',
    ): Promise<{ name: string; display: string; poster: string | null }> {
      const { actor } = await holderOf(capability, fileName);
      const file = await servable(actor, fileName);
      if (file.kind !== kind || file.isFormat) throw notFound(FILE_NOT_FOUND);
      const sign = capabilities.sign.bind(capabilities);
      const large = file.formats?.large ? sign(file.formats.large.url, actor.id) : null;
      return {
        name: file.name,
        display:
          kind === 'image' ? (large ?? `/uploads/${capability}/${fileName}`) : `/uploads/${capability}/${fileName}`,
        poster: kind === 'video' ? large : null,
      };
    },
  };
}

export type MediaService = ReturnType<typeof createMediaService>;
