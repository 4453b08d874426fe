import { chmod, mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import type { MediaKind } from '#schemas/media';
import type { Db, Queryable } from '../db/client.ts';
import { mediaFileRepository, type OrphanFiles } from '../repositories/mediaFileRepository.ts';
import { type Derived, MediaFormatMaker, type MediaProcessor } from './mediaFormats.ts';
import { MediaSweeper } from './mediaSweep.ts';
import { LocalObjectStore, type ObjectStore } from './objectStore.ts';
import { FORMATS_PENDING, isStoredName } from './storedNames.ts';
import { type ReceivedFile, UploadReceiver } from './uploadReceiver.ts';
import { VideoReader } from './videoReader.ts';

/**
 * Uploaded files: their first bytes tell their type, then they stream into the object store (the
 * uploads folder, or an S3 bucket shared by several nodes) as they arrive; images get their
 * formats and videos are checked from the stored object, by the processor (the media jobs).
 * Crash safety: every file being written is first recorded in `pending_uploads`; the database
 * row that keeps a file removes that record in the same transaction. Whatever is still recorded
 * at start-up was never committed (or was released) and is deleted, so no stray file survives a
 * crash.
 */
export class MediaStore {
  /** Where committed files are kept. */
  readonly objects: ObjectStore;
  readonly tmpDir: string;
  private readonly videos: VideoReader;
  private readonly formats: MediaFormatMaker;
  private readonly uploads: UploadReceiver;
  private readonly sweeper: MediaSweeper;
  /** Who makes formats and reads videos: this process until the server hands the work to its jobs. */
  private processor: MediaProcessor = this.inProcess();

  constructor(
    private readonly db: Db,
    dataDir: string,
    tools: { ffmpeg: string; ffprobe: string },
    private readonly log: FastifyBaseLogger,
    objects?: ObjectStore,
    /** This node's id (`Config.nodeId`): whose unfinished uploads a start may sweep. */
    private readonly node: string | null = null,
  ) {
    const uploads = path.join(dataDir, 'uploads');
    this.objects = objects ?? new LocalObjectStore(uploads);
    this.tmpDir = path.join(uploads, '.incoming');
    this.videos = new VideoReader(this.objects, tools, log);
    this.formats = new MediaFormatMaker(this.objects, this.tmpDir, this.videos, log);
    this.uploads = new UploadReceiver(db, this.objects, log, node, () => this.processor, this.tmpDir);
    this.sweeper = new MediaSweeper(db, this.objects);
  }

  /** Checks the object store, creates the folders and deletes what an interrupted run left behind. */
  async init(): Promise<void> {
    this.videos.start();
    await this.objects.check();
    await mkdir(this.tmpDir, { recursive: true, mode: 0o700 });
    await chmod(path.dirname(this.tmpDir), 0o700);
    await chmod(this.tmpDir, 0o700);
    for (const entry of await readdir(this.tmpDir))
      await rm(path.join(this.tmpDir, entry), { force: true, recursive: true });
    const removed = await this.sweeper.sweepLeftBehind(this.node);
    if (removed > 0) this.log.info({ count: removed }, 'removed files of uploads that never completed');
  }

  /**
   * Deletes the files of another node's uploads that never completed, once older than `olderThanMs`
   * (longer than any upload may take): that node stopped and did not come back (housekeeping).
   */
  async sweepAbandoned(olderThanMs: number): Promise<number> {
    return this.sweeper.sweepAbandoned(olderThanMs);
  }

  /** Kills the ffmpeg and ffprobe processes still running (the node stops). */
  stop(): void {
    this.videos.stop();
  }

  /** Hands the making of formats and the reading of videos to `processor` (the media jobs). */
  useProcessor(processor: MediaProcessor): void {
    this.processor = processor;
  }

  /**
   * Streams one upload into the store under a new key, after its first bytes told its type (see
   * `UploadReceiver.receive`).
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
    return this.uploads.receive(stream, originalName, kind, local);
  }

  /** After the row that keeps `file` committed: a video's poster is made (later, by a job). */
  async committed(file: ReceivedFile): Promise<void> {
    if (file.kind !== 'video') return;
    await this.processor
      .poster({ key: file.key, fileName: `${file.key}${file.ext}` })
      .catch((error: unknown) => this.log.warn({ err: error, key: file.key }, 'could not queue a video poster'));
  }

  /** Forgets a received file whose transaction failed (or was never reached). */
  async abandon(file: ReceivedFile): Promise<void> {
    await this.uploads.forget(file.key, file.stored);
  }

  /** Deletes the files of media rows that were deleted (after their transaction committed). */
  async discard(orphans: OrphanFiles): Promise<void> {
    await this.uploads.discard(orphans);
  }

  /**
   * The length in seconds of a stored video (`<key><ext>`); `null` when it cannot be read (no
   * ffmpeg, a damaged file, a container without a length).
   */
  async probeDuration(fileName: string): Promise<number | null> {
    if (!isStoredName(fileName)) return null;
    return this.processor.duration(fileName);
  }

  /** The processor that does the work here, in this process (also what the media jobs run). */
  inProcess(): MediaProcessor {
    return {
      image: (file) => this.makeImageFormats(file.key, file.fileName, file.mime),
      video: (file) => this.checkVideo(file.fileName),
      poster: async (file) => {
        await this.addPoster(file.key, file.fileName, (tx, poster) =>
          mediaFileRepository.setPoster(tx, file.key, poster),
        );
      },
      duration: (fileName) => this.readStoredDuration(fileName),
    };
  }

  /** The length of a stored video, read by ffmpeg; `null` when it cannot be read. */
  async readStoredDuration(fileName: string): Promise<number | null> {
    return this.videos.readStoredDuration(fileName);
  }

  /**
   * Checks that a stored file holds a video stream (ffprobe), and reads its length.
   * @throws 400 when it does not; 503 without ffprobe.
   */
  async checkVideo(fileName: string): Promise<{ duration: number | null }> {
    return this.videos.checkVideo(fileName);
  }

  /**
   * Makes the formats of a stored image and stores them next to it.
   * @throws 400 for an image whose pixels cannot be decoded.
   */
  async makeImageFormats(key: string, fileName: string, mime: string): Promise<Derived> {
    return this.formats.makeImageFormats(key, fileName, mime);
  }

  /**
   * Makes a stored video's poster and gives it to the video's row through `keep` (in a
   * transaction): `false` when the row is gone, and the formats go again. A crash on the way
   * leaves a `formats:<key>` record, which the next start sweeps.
   */
  async addPoster(
    key: string,
    fileName: string,
    keep: (tx: Queryable, poster: Derived) => Promise<boolean>,
  ): Promise<boolean> {
    const pending = `${FORMATS_PENDING}${key}`;
    await this.db.query(
      `INSERT INTO pending_uploads (storage_key, node) VALUES ($1, $2)
       ON CONFLICT (storage_key) DO UPDATE SET node = excluded.node, created_at = ms_now()`,
      [pending, this.node],
    );
    const made = await this.makePoster(key, fileName);
    const kept =
      !!made?.formats &&
      (await this.db.transaction(async (tx) => {
        if (!(await keep(tx, made))) return false;
        await tx.query('DELETE FROM pending_uploads WHERE storage_key = $1', [pending]);
        return true;
      }));
    if (!kept) await this.sweeper.sweep([pending]);
    return kept;
  }

  /**
   * Makes a stored video's poster (a frame at one second, or the first) and its formats, stored
   * next to it; `null` without ffmpeg or when no frame can be read.
   */
  async makePoster(key: string, fileName: string): Promise<Derived | null> {
    return this.formats.makePoster(key, fileName);
  }
}
