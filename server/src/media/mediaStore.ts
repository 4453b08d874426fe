import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { chmod, mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import type sharpOf from 'sharp';
import type { Sharp } from 'sharp';
import type { MediaFormat, MediaFormats, MediaKind } from '#schemas/media';
import type { Db, Queryable } from '../db/client.ts';
import { backupHoldsMedia } from '../backup/hold.ts';
import { badRequest } from '../errors.ts';
import { mediaFileRepository, type OrphanFiles } from '../repositories/mediaFileRepository.ts';
import { cleanFileName, SNIFF_BYTES, sniffHead } from './fileSniffing.ts';
import { LocalObjectStore, type ObjectStore } from './objectStore.ts';
import {
  assertVideo,
  FFMPEG_CPU_SECONDS,
  FFMPEG_MEMORY_KIB,
  FFMPEG_REPORT_MAX,
  parseFfmpegDuration,
  toolInputArgs,
} from './videoTools.ts';

/** The image formats the mobile apps read (reference §6.2): fit inside these boxes. */
const FORMATS = {
  thumbnail: { width: 245, height: 156 },
  small: { width: 500, height: 500 },
  medium: { width: 750, height: 750 },
  large: { width: 1000, height: 1000 },
} as const;

export const EMPTY_FILE = 'You cannot upload an empty file.';

/** Images larger than this (100 megapixels) are not decoded: a small file can claim a huge canvas. */
const MAX_INPUT_PIXELS = 100_000_000;
/**
 * sharp (libvips) and file-type, loaded at the first upload rather than at every start of the
 * server. Each preview uses one libvips thread; the limiter decides how many run at once.
 */
let sharpModule: Promise<typeof sharpOf> | undefined;
export function loadSharp(): Promise<typeof sharpOf> {
  sharpModule ??= import('sharp').then(({ default: sharp }) => {
    sharp.concurrency(1);
    return sharp;
  });
  return sharpModule;
}
/** The picture of an image that has no preview (a photo frame on grey, 1000×750). */
const NO_PREVIEW_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="750" viewBox="0 0 1000 750">
<rect width="1000" height="750" fill="#e8eaed"/>
<rect x="380" y="265" width="240" height="180" rx="16" fill="none" stroke="#6b7280" stroke-width="14"/>
<circle cx="440" cy="325" r="22" fill="#6b7280"/>
<path d="M395 430l75-80 55 55 35-35 45 60z" fill="#6b7280"/>
<text x="500" y="530" font-family="sans-serif" font-size="40" fill="#374151" text-anchor="middle">No preview</text>
</svg>`;

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

/** The formats of an image or of a video's poster, and its size in pixels. */
export interface Derived {
  width: number | null;
  height: number | null;
  formats: MediaFormats | null;
}

/**
 * Who makes the formats of stored files and reads videos: this process (`MediaStore` itself:
 * the demo data, a command), or the media jobs on whichever node runs them (the server).
 */
export interface MediaProcessor {
  /** The formats of a stored image (written to the store). @throws 400 for an image that cannot be read. */
  image(file: { key: string; fileName: string; mime: string }): Promise<Derived>;
  /** Checks that a stored file is a video and reads its length. @throws 400 (not a video), 503 (no ffprobe). */
  video(file: { fileName: string }): Promise<{ duration: number | null }>;
  /** Makes the poster of a committed video, later (the file's row gets it when it is ready). */
  poster(file: { key: string; fileName: string }): Promise<void>;
  /** The length of a stored video; `null` when it cannot be read. */
  duration(fileName: string): Promise<number | null>;
}

/** The record of formats being made for a stored file (a video's poster): `formats:<key>`. */
const FORMATS_PENDING = 'formats:';

/** The names a format of an image or poster is stored under. */
const formatNames = (key: string) => Object.keys(FORMATS).map((format) => `${format}_${key}.jpg`);

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
  private ffmpegMissing = false;
  /** Aborted when the node stops: the ffmpeg and ffprobe processes still running are killed. */
  private stopping = new AbortController();
  /** Who makes formats and reads videos: this process until the server hands the work to its jobs. */
  private processor: MediaProcessor = this.inProcess();

  constructor(
    private readonly db: Db,
    dataDir: string,
    private readonly tools: { ffmpeg: string; ffprobe: string },
    private readonly log: FastifyBaseLogger,
    objects?: ObjectStore,
    /** This node's id (`Config.nodeId`): whose unfinished uploads a start may sweep. */
    private readonly node: string | null = null,
  ) {
    const uploads = path.join(dataDir, 'uploads');
    this.objects = objects ?? new LocalObjectStore(uploads);
    this.tmpDir = path.join(uploads, '.incoming');
  }

  /** Checks the object store, creates the folders and deletes what an interrupted run left behind. */
  async init(): Promise<void> {
    this.stopping = new AbortController();
    await this.objects.check();
    await mkdir(this.tmpDir, { recursive: true, mode: 0o700 });
    await chmod(path.dirname(this.tmpDir), 0o700);
    await chmod(this.tmpDir, 0o700);
    for (const entry of await readdir(this.tmpDir))
      await rm(path.join(this.tmpDir, entry), { force: true, recursive: true });
    // This node's own from before it stopped, and files released for deletion (no node): another
    // node's are uploads it may be receiving now (the housekeeping sweeps them once too old).
    const { rows } = await this.db.query<{ storage_key: string }>(
      'SELECT storage_key FROM pending_uploads WHERE node IS NULL OR node = $1',
      [this.node ?? ''],
    );
    const removed = await this.sweep(rows.map((r) => r.storage_key));
    if (removed > 0) this.log.info({ count: removed }, 'removed files of uploads that never completed');
  }

  /**
   * Deletes the files of another node's uploads that never completed, once older than `olderThanMs`
   * (longer than any upload may take): that node stopped and did not come back (housekeeping).
   */
  async sweepAbandoned(olderThanMs: number): Promise<number> {
    const { rows } = await this.db.query<{ storage_key: string }>(
      `SELECT storage_key FROM pending_uploads WHERE created_at < ms_now() - $1 * interval '1 millisecond'`,
      [olderThanMs],
    );
    return this.sweep(rows.map((r) => r.storage_key));
  }

  /** Deletes what is stored under `keys` (a `formats:<key>` entry: only the formats of that key) and their records. */
  private async sweep(keys: readonly string[]): Promise<number> {
    if (keys.length === 0) return 0;
    // A backup copying the files of its snapshot: they are deleted by a sweep after it.
    if (await backupHoldsMedia(this.db)) return 0;
    for (const entry of keys) {
      if (entry.startsWith(FORMATS_PENDING)) {
        await this.objects.remove(formatNames(entry.slice(FORMATS_PENDING.length)));
        continue;
      }
      const stored = (await this.objects.list(entry)).filter((name) => keyOfFile(name) === entry);
      await this.objects.remove([...stored, ...formatNames(entry)]);
      // An upload cut off in the middle (a crash) may have left parts in a bucket.
      await this.objects.dropUnfinished(entry);
    }
    await this.db.query('DELETE FROM pending_uploads WHERE storage_key = ANY($1::text[])', [keys]);
    return keys.length;
  }

  /** Kills the ffmpeg and ffprobe processes still running (the node stops). */
  stop(): void {
    this.stopping.abort();
  }

  /** Hands the making of formats and the reading of videos to `processor` (the media jobs). */
  useProcessor(processor: MediaProcessor): void {
    this.processor = processor;
  }

  /**
   * Streams one upload into the store under a new key (never whole in memory or on disk), after
   * its first bytes told its type (of the kind the endpoint takes). Images get their formats;
   * videos must be read as videos by ffprobe (their poster is made once committed: `committed`).
   * @throws 400 for an empty file, a type that does not match, an image or video that cannot be
   * read; 503 without ffprobe for a video, or while the media jobs are too busy; the stream's own
   * errors (413).
   */
  async receive(stream: Readable, originalName: string, kind: MediaKind): Promise<ReceivedFile> {
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
      const size = await this.objects.putStream(fileName, body, type.mime);
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
        Object.assign(received, await this.processor.image({ key, fileName, mime: type.mime }));
      }
      if (kind === 'videos') Object.assign(received, await this.processor.video({ fileName }));
      return received;
    } catch (error) {
      // Refused before the end (a wrong type from the first bytes, a file over the limit): the
      // rest is not read, the answer goes out at once.
      body?.destroy();
      await this.forget(key, stored);
      throw error;
    }
  }

  /** Deletes what a refused upload stored, and its record. */
  private async forget(key: string, stored: readonly string[]): Promise<void> {
    if (await this.removeStored(stored))
      await this.db.query('DELETE FROM pending_uploads WHERE storage_key = $1', [key]).catch(() => undefined);
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
    await this.forget(file.key, file.stored);
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
    if (this.ffmpegMissing) return null;
    return this.readDuration(await this.objects.toolInput(fileName));
  }

  /**
   * Checks that a stored file holds a video stream (ffprobe), and reads its length.
   * @throws 400 when it does not; 503 without ffprobe.
   */
  async checkVideo(fileName: string): Promise<{ duration: number | null }> {
    const input = await this.objects.toolInput(fileName);
    // A header that sniffs as a video is not yet one (an `ftyp` box before a web page).
    await assertVideo(
      this.tools.ffprobe,
      input,
      () => this.log.warn('ffprobe is not installed: video uploads are refused'),
      this.stopping.signal,
    );
    return { duration: this.ffmpegMissing ? null : await this.readDuration(input) };
  }

  /**
   * Makes the formats of a stored image and stores them next to it.
   * @throws 400 for an image whose pixels cannot be decoded.
   */
  async makeImageFormats(key: string, fileName: string, mime: string): Promise<Derived> {
    return this.withLocalCopy(fileName, async (source) => {
      const sharp = await loadSharp();
      const written: string[] = [];
      try {
        const image = sharp(source, { failOn: 'error', limitInputPixels: MAX_INPUT_PIXELS }).rotate();
        const meta = await sharp(source).metadata();
        const upright = (meta.orientation ?? 1) >= 5;
        return {
          width: (upright ? meta.height : meta.width) ?? null,
          height: (upright ? meta.width : meta.height) ?? null,
          formats: await this.writeFormats(image, key, written),
        };
      } catch (error) {
        for (const file of written) await rm(file, { force: true });
        // A file whose header is an image but whose pixels cannot be decoded is not an image.
        if (mime === 'image/heic' || mime === 'image/heif') {
          // The mobile apps read all three formats of every image: a HEIC photo this server cannot
          // decode gets neutral "no preview" formats; the original stays downloadable.
          this.log.warn({ err: error }, 'HEIC image without a decoder: neutral preview formats');
          return {
            width: null,
            height: null,
            formats: await this.writeFormats(sharp(Buffer.from(NO_PREVIEW_SVG)), key, []),
          };
        }
        throw badRequest('This image could not be read. It may be damaged.', 'unreadable_image');
      }
    });
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
    if (!kept) await this.sweep([pending]);
    return kept;
  }

  /**
   * Makes a stored video's poster (a frame at one second, or the first) and its formats, stored
   * next to it; `null` without ffmpeg or when no frame can be read.
   */
  async makePoster(key: string, fileName: string): Promise<Derived | null> {
    if (this.ffmpegMissing) return null;
    const source = await this.objects.toolInput(fileName);
    await mkdir(this.tmpDir, { recursive: true, mode: 0o700 });
    const poster = path.join(this.tmpDir, `${key}-poster.png`);
    try {
      const ok =
        (await this.ffmpeg(['-threads', '1', '-ss', '1', ...toolInputArgs(source), '-frames:v', '1', '-y', poster])) ||
        (await this.ffmpeg(['-threads', '1', ...toolInputArgs(source), '-frames:v', '1', '-y', poster]));
      if (!ok) return null;
      const sharp = await loadSharp();
      const meta = await sharp(poster).metadata();
      return {
        width: meta.width ?? null,
        height: meta.height ?? null,
        formats: await this.writeFormats(sharp(poster), key, []),
      };
    } catch (error) {
      this.log.warn({ err: error }, 'the video poster could not be made');
      return null;
    } finally {
      await rm(poster, { force: true });
    }
  }

  /** Runs `work` on a local copy of a stored file (the file itself in a local store). */
  private async withLocalCopy<T>(fileName: string, work: (file: string) => Promise<T>): Promise<T> {
    if (this.objects instanceof LocalObjectStore) return work(path.join(this.objects.dir, fileName));
    await mkdir(this.tmpDir, { recursive: true, mode: 0o700 });
    const copy = path.join(this.tmpDir, `${randomBytes(9).toString('base64url')}-${fileName}`);
    try {
      await pipeline(await this.objects.read(fileName), createWriteStream(copy, { flags: 'wx', mode: 0o600 }));
      return await work(copy);
    } finally {
      await rm(copy, { force: true });
    }
  }

  /** Writes the formats of `image` and stores them; `written` collects the temporary files (for clean-up). */
  private async writeFormats(image: Sharp, key: string, written: string[]): Promise<MediaFormats> {
    await mkdir(this.tmpDir, { recursive: true, mode: 0o700 });
    const formats: MediaFormats = {};
    for (const [format, box] of Object.entries(FORMATS) as [
      keyof typeof FORMATS,
      { width: number; height: number },
    ][]) {
      const name = `${format}_${key}.jpg`;
      const out = path.join(this.tmpDir, name);
      written.push(out);
      const info = await image
        .clone()
        .resize({ width: box.width, height: box.height, fit: 'inside', withoutEnlargement: true })
        .flatten({ background: '#ffffff' })
        .jpeg({ quality: 82, mozjpeg: true })
        .toFile(out);
      await this.objects.putFile(name, out, 'image/jpeg');
      formats[format] = {
        name,
        hash: `${format}_${key}`,
        ext: '.jpg',
        mime: 'image/jpeg',
        width: info.width,
        height: info.height,
        size: Math.round((info.size / 1024) * 100) / 100,
        path: null,
        url: `/uploads/${name}`,
      } satisfies MediaFormat;
    }
    return formats;
  }

  /**
   * Runs ffmpeg on an untrusted container, bounded: one thread (in `args`), 1 GiB of address
   * space and 60 s of CPU (set by the shell before it becomes ffmpeg), killed after 60 s of wall
   * time. A missing ffmpeg (not found: 127) means videos get no poster, said once in the log.
   */
  private async ffmpeg(args: string[]): Promise<boolean> {
    return (await this.runFfmpeg(['-loglevel', 'error', ...args], false)).code === 0;
  }

  /**
   * A video's length as ffmpeg reports it when it opens the file (`Duration: HH:MM:SS.ss` of
   * the input; no output is written, so ffmpeg ends with status 1 by design).
   */
  private async readDuration(source: string): Promise<number | null> {
    const { stderr } = await this.runFfmpeg(['-loglevel', 'info', ...toolInputArgs(source)], true);
    return parseFfmpegDuration(stderr);
  }

  private runFfmpeg(args: string[], capture: boolean): Promise<{ code: number | null; stderr: string }> {
    return new Promise((resolve) => {
      const child = spawn(
        '/bin/sh',
        [
          '-c',
          `ulimit -v ${FFMPEG_MEMORY_KIB} && ulimit -t ${FFMPEG_CPU_SECONDS} && exec "$0" "$@"`,
          this.tools.ffmpeg,
          '-hide_banner',
          '-nostdin',
          ...args,
        ],
        // Killed when the node stops (after its jobs had their time to finish).
        {
          stdio: ['ignore', 'ignore', capture ? 'pipe' : 'ignore'],
          signal: this.stopping.signal,
          killSignal: 'SIGKILL',
        },
      );
      // Only the start of the report is kept (the input's header comes first).
      let stderr = '';
      child.stderr?.setEncoding('utf8');
      child.stderr?.on('data', (chunk: string) => {
        if (stderr.length < FFMPEG_REPORT_MAX) stderr += chunk.slice(0, FFMPEG_REPORT_MAX - stderr.length);
      });
      const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
      child.on('error', () => {
        clearTimeout(timer);
        resolve({ code: null, stderr: '' });
      });
      child.on('close', (code) => {
        clearTimeout(timer);
        if (code === 127 || code === 126) {
          if (!this.ffmpegMissing) this.log.warn('ffmpeg is not installed: videos get no poster frame and no length');
          this.ffmpegMissing = true;
        }
        resolve({ code, stderr });
      });
    });
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

/** Whether `fileName` is a plain stored file name (no folder, no hidden file), as served. */
export function isStoredName(fileName: string): boolean {
  return /^[A-Za-z0-9_-]+\.[a-z0-9]{1,5}$/.test(fileName);
}

/** The storage key inside a stored file name (`<key><ext>` or `<format>_<key>.jpg`). */
export function keyOfFile(fileName: string): string | null {
  const match = /^(?:(?:thumbnail|small|medium|large)_)?([A-Za-z0-9_-]{24})(?:\.[a-z0-9]{1,5})?$/.exec(fileName);
  return match ? match[1]! : null;
}
