import { randomBytes } from 'node:crypto';
import { link, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import type { MediaFormats, MediaKind } from '#schemas/media';
import { backupHoldsMedia } from '../backup/hold.ts';
import type { Queryable } from '../db/client.ts';
import { badRequest } from '../errors.ts';
import type { OrphanFiles } from '../repositories/mediaFileRepository.ts';
import { cleanFileName, SNIFF_BYTES, sniffHead } from './fileSniffing.ts';
import type { MediaProcessor } from './mediaFormats.ts';
import type { ObjectStore } from './objectStore.ts';
import { formatNames } from './storedNames.ts';

export const EMPTY_FILE = 'You cannot upload an empty file.';

/** An upload stored under its key, checked, and ready to be committed. */
export interface ReceivedFile {
  key: string;
  name: string;
  ext: string;
  mime: string;
  size: number;
  kind: 'image' | 'video' | 'document';
  width: number | null;
  height: number | null;
  formats: MediaFormats | null;
  /** A video's length in seconds, else `null`. */
  duration: number | null;
  /** What is stored under the key: the file (`<key><ext>`), then its formats. */
  stored: string[];
}

/**
 * Uploads received into the object store, each recorded in `pending_uploads` while it is not
 * committed; and the files let go of (refused uploads, deleted media rows) deleted with their records.
 */
export class UploadReceiver {
  constructor(
    private readonly db: Queryable,
    private readonly objects: ObjectStore,
    private readonly log: FastifyBaseLogger,
    /** This node's id: whose unfinished uploads a start may sweep. */
    private readonly node: string | null,
    /** Who makes formats and reads videos at the time (it may be handed to the media jobs). */
    private readonly processor: () => MediaProcessor,
    /** Where a local file is linked before it takes its stored name (the media store's own folder). */
    private readonly tmpDir: string,
  ) {}

  /**
   * Streams one upload into the store under a new key (never whole in memory or on disk), after
   * its first bytes told its type (of the kind the endpoint takes). Images get their formats;
   * videos must be read as videos by ffprobe (their poster is made once committed: `committed`).
   * @throws 400 for an empty file, a type that does not match, an image or video that cannot be
   * read; 503 without ffprobe for a video, or while the media jobs are too busy; the stream's own
   * errors (413).
   */
  async receive(
    stream: Readable,
    originalName: string,
    kind: MediaKind,
    local: string | null = null,
  ): Promise<ReceivedFile> {
    const key = randomBytes(18).toString('base64url');
    await this.db.query('INSERT INTO pending_uploads (storage_key, node) VALUES ($1, $2)', [key, this.node]);
    const stored: string[] = [];
    let body: Readable | null = null;
    try {
      const taken = await takeHead(stream, SNIFF_BYTES);
      body = taken.body;
      if (taken.head.length === 0) throw badRequest(EMPTY_FILE, 'empty_file');
      const name = cleanFileName(originalName);
      const type = await sniffHead(taken.head, name, kind);
      const fileName = `${key}${type.ext}`;
      stored.push(fileName);
      // A local file (a finished resumable upload) is linked, not copied, where the file system can.
      const linked = local === null ? null : await this.linked(local, fileName, type.mime);
      if (linked !== null) body.destroy();
      const size = linked ?? (await this.objects.putStream(fileName, body, type.mime));
      const received: ReceivedFile = {
        key,
        name,
        ext: type.ext,
        mime: type.mime,
        size,
        kind: kind === 'images' ? 'image' : kind === 'videos' ? 'video' : 'document',
        width: null,
        height: null,
        formats: null,
        duration: null,
        stored,
      };
      if (kind === 'images') {
        // Named before they exist: a failure on the way leaves none of them behind.
        stored.push(...formatNames(key));
        Object.assign(received, await this.processor().image({ key, fileName, mime: type.mime }));
      }
      if (kind === 'videos') Object.assign(received, await this.processor().video({ fileName }));
      return received;
    } catch (error) {
      // Refused before the end (a wrong type from the first bytes, a file over the limit): the
      // rest is not read, the answer goes out at once.
      body?.destroy();
      await this.forget(key, stored);
      throw error;
    }
  }

  /**
   * Stores the local file `local` as `name` through a second link to its bytes (the file itself
   * stays, for a repeated attempt); resolves with its size, or `null` when the file system cannot
   * link it (another device, no hard links): the bytes are then copied.
   */
  private async linked(local: string, name: string, mime: string): Promise<number | null> {
    const tmp = path.join(this.tmpDir, `link-${randomBytes(9).toString('hex')}`);
    try {
      await link(local, tmp);
    } catch (error) {
      this.log.debug({ err: error }, 'an upload could not be linked: it is copied');
      return null;
    }
    try {
      const { size } = await stat(tmp);
      await this.objects.putFile(name, tmp, mime);
      return size;
    } finally {
      await rm(tmp, { force: true });
    }
  }

  /** Deletes what a refused upload stored, and its record. */
  async forget(key: string, stored: readonly string[]): Promise<void> {
    if (await this.removeStored(stored))
      await this.db.query('DELETE FROM pending_uploads WHERE storage_key = $1', [key]).catch(() => undefined);
  }

  /** Deletes the files of media rows that were deleted (after their transaction committed). */
  async discard(orphans: OrphanFiles): Promise<void> {
    if (orphans.keys.length === 0) return;
    if (await backupHoldsMedia(this.db)) {
      // A running backup's snapshot may still name them: their keys stay in `pending_uploads`, so the next start, or the housekeeping, deletes them.
      this.log.info({ count: orphans.keys.length }, 'files kept until the running backup ends');
      return;
    }
    if (await this.removeStored(orphans.files))
      await this.db.query('DELETE FROM pending_uploads WHERE storage_key = ANY($1::text[])', [orphans.keys]);
  }

  /**
   * Deletes stored files; `false` when the store could not (a bucket out of reach): their keys then
   * stay in `pending_uploads` and the next start deletes them, and the request that let go of them
   * still succeeds.
   */
  private async removeStored(names: readonly string[]): Promise<boolean> {
    try {
      await this.objects.remove(names);
      return true;
    } catch (error) {
      this.log.warn({ err: error, count: names.length }, 'could not delete stored files: the next start deletes them');
      return false;
    }
  }
}

/**
 * The first `bytes` of a stream (fewer when it ends first), and the whole stream again as `body`
 * (those bytes, then the rest as it arrives): the type is told from the head before anything is
 * stored. Destroying `body` destroys the stream.
 */
export async function takeHead(stream: Readable, bytes: number): Promise<{ head: Buffer; body: Readable }> {
  const source = stream[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const chunks: Buffer[] = [];
  let length = 0;
  let ended = false;
  while (length < bytes) {
    const next = await source.next();
    if (next.done) {
      ended = true;
      break;
    }
    chunks.push(next.value);
    length += next.value.length;
  }
  const head = Buffer.concat(chunks);
  async function* all(): AsyncGenerator<Buffer> {
    try {
      if (head.length > 0) yield head;
      if (ended) return;
      for (;;) {
        const next = await source.next();
        if (next.done) return;
        yield next.value;
      }
    } finally {
      if (!ended) await source.return?.();
    }
  }
  return { head, body: Readable.from(all(), { objectMode: false }) };
}
