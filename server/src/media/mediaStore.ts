import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { chmod, mkdir, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import { availableParallelism } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import type sharpOf from 'sharp';
import type { Sharp } from 'sharp';
import type { MediaFormat, MediaFormats, MediaKind } from '#schemas/media';
import type { Db } from '../db/client.ts';
import { badRequest } from '../errors.ts';
import type { OrphanFiles } from '../repositories/mediaFileRepository.ts';
import { cleanFileName, sniffFile } from './fileSniffing.ts';
import { Limiter } from './limiter.ts';
import { LocalObjectStore, type ObjectStore } from './objectStore.ts';
import {
  assertVideo,
  FFMPEG_CPU_SECONDS,
  FFMPEG_MEMORY_KIB,
  FFMPEG_REPORT_MAX,
  parseFfmpegDuration,
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

/** A file received into the temporary folder, checked and ready to be committed. */
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
  /** A video's length in seconds (read with its poster), else `null`. */
  duration: number | null;
  /** Temporary path → final file name in the uploads folder. */
  files: { from: string; to: string }[];
}

/** The names a format of an image or poster is stored under. */
const formatNames = (key: string) => Object.keys(FORMATS).map((format) => `${format}_${key}.jpg`);

/**
 * Uploaded files: received into this machine's temporary folder (`DATA_DIR/uploads/.incoming`),
 * checked and given their formats there, then kept in the object store (the uploads folder, or an
 * S3 bucket shared by several nodes). Crash safety: every file being written is first recorded in
 * `pending_uploads`; the database row that keeps a file removes that record in the same
 * transaction. Whatever is still recorded at start-up was never committed (or was released) and
 * is deleted, so no stray file survives a crash.
 */
export class MediaStore {
  /** Where committed files are kept. */
  readonly objects: ObjectStore;
  readonly tmpDir: string;
  private ffmpegMissing = false;
  /** Previews are made one per core at a time; a burst of uploads waits its turn (or is told to retry). */
  private readonly processing = new Limiter(Math.max(1, availableParallelism()), 64);

  constructor(
    private readonly db: Db,
    dataDir: string,
    private readonly tools: { ffmpeg: string; ffprobe: string },
    private readonly log: FastifyBaseLogger,
    objects?: ObjectStore,
  ) {
    const uploads = path.join(dataDir, 'uploads');
    this.objects = objects ?? new LocalObjectStore(uploads);
    this.tmpDir = path.join(uploads, '.incoming');
  }

  /** Checks the object store, creates the folders and deletes what an interrupted run left behind. */
  async init(): Promise<void> {
    await this.objects.check();
    await mkdir(this.tmpDir, { recursive: true, mode: 0o700 });
    await chmod(path.dirname(this.tmpDir), 0o700);
    await chmod(this.tmpDir, 0o700);
    for (const entry of await readdir(this.tmpDir))
      await rm(path.join(this.tmpDir, entry), { force: true, recursive: true });
    const { rows } = await this.db.query<{ storage_key: string }>('SELECT storage_key FROM pending_uploads');
    if (rows.length === 0) return;
    const keys = rows.map((r) => r.storage_key);
    for (const key of keys) {
      const stored = (await this.objects.list(key)).filter((name) => keyOfFile(name) === key);
      await this.objects.remove([...stored, ...formatNames(key)]);
    }
    await this.db.query('DELETE FROM pending_uploads WHERE storage_key = ANY($1::text[])', [keys]);
    this.log.info({ count: keys.length }, 'removed files of uploads that never completed');
  }

  /**
   * Streams one upload to a temporary file (never buffering it), then checks it: not empty, and
   * its real type (sniffed from the bytes) of the kind the endpoint takes. Images get their
   * formats; videos must be read as videos by ffprobe and get a poster frame when ffmpeg is available.
   * @throws 400 for an empty file, a type that does not match or a video ffprobe cannot read;
   * 503 without ffprobe for a video; the stream's own errors (413).
   */
  async receive(stream: Readable, originalName: string, kind: MediaKind): Promise<ReceivedFile> {
    const key = randomBytes(18).toString('base64url');
    await this.db.query('INSERT INTO pending_uploads (storage_key) VALUES ($1)', [key]);
    const tmp = path.join(this.tmpDir, key);
    const derived: string[] = [];
    const out = createWriteStream(tmp, { flags: 'wx', mode: 0o600 });
    // Closed (its file opened and closed again) once the write ends either way: a stream that
    // fails at once may otherwise create the file after it was deleted below.
    const closed = new Promise<void>((resolve) => out.once('close', () => resolve()));
    try {
      await pipeline(stream, out);
      const size = (await stat(tmp)).size;
      if (size === 0) throw badRequest(EMPTY_FILE, 'empty_file');
      const name = cleanFileName(originalName);
      const type = await sniffFile(tmp, name, kind);
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
        files: [{ from: tmp, to: `${key}${type.ext}` }],
      };
      if (kind === 'images') await this.processing.run(() => this.deriveImage(received, tmp, derived));
      if (kind === 'videos') {
        await this.processing.run(async () => {
          // A header that sniffs as a video is not yet one (an `ftyp` box before a web page):
          // ffprobe must read a video stream, or nothing is stored.
          await assertVideo(this.tools.ffprobe, tmp, () =>
            this.log.warn('ffprobe is not installed: video uploads are refused'),
          );
          await this.deriveVideoPoster(received, tmp, derived);
        });
      }
      return received;
    } catch (error) {
      out.destroy();
      await closed;
      await rm(tmp, { force: true });
      for (const file of derived) await rm(file, { force: true });
      await this.db.query('DELETE FROM pending_uploads WHERE storage_key = $1', [key]).catch(() => undefined);
      throw error;
    }
  }

  /**
   * Puts a received file and its formats in the object store, before the transaction that keeps
   * its row: until that commits, its key stays in `pending_uploads`.
   */
  async place(file: ReceivedFile): Promise<void> {
    for (const f of file.files) {
      await this.objects.putFile(f.to, f.from, f.to.startsWith(file.key) ? file.mime : 'image/jpeg');
    }
  }

  /** Forgets a received file whose transaction failed (or was never reached). */
  async abandon(file: ReceivedFile): Promise<void> {
    for (const f of file.files) await rm(f.from, { force: true });
    if (await this.removeStored(file.files.map((f) => f.to)))
      await this.db.query('DELETE FROM pending_uploads WHERE storage_key = $1', [file.key]).catch(() => undefined);
  }

  /** Deletes the files of media rows that were deleted (after their transaction committed). */
  async discard(orphans: OrphanFiles): Promise<void> {
    if (orphans.keys.length === 0) return;
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
   * The length in seconds of a stored video (`<key><ext>`), read by ffmpeg; `null` when it cannot
   * be read (no ffmpeg, a damaged file, a container without a length).
   */
  async probeDuration(fileName: string): Promise<number | null> {
    if (!isStoredName(fileName) || this.ffmpegMissing) return null;
    return this.processing.run(async () => this.readDuration(await this.objects.toolInput(fileName)));
  }

  private async deriveImage(file: ReceivedFile, source: string, derived: string[]): Promise<void> {
    const sharp = await loadSharp();
    try {
      const image = sharp(source, { failOn: 'error', limitInputPixels: MAX_INPUT_PIXELS }).rotate();
      const meta = await sharp(source).metadata();
      const upright = (meta.orientation ?? 1) >= 5;
      file.width = (upright ? meta.height : meta.width) ?? null;
      file.height = (upright ? meta.width : meta.height) ?? null;
      file.formats = await this.writeFormats(image, file.key, derived, file.files);
    } catch (error) {
      // A file whose header is an image but whose pixels cannot be decoded is not an image.
      if (file.mime === 'image/heic' || file.mime === 'image/heif') {
        // The mobile apps read all three formats of every image: a HEIC photo this server cannot
        // decode gets neutral "no preview" formats; the original stays downloadable.
        this.log.warn({ err: error }, 'HEIC image without a decoder: neutral preview formats');
        file.formats = await this.writeFormats(sharp(Buffer.from(NO_PREVIEW_SVG)), file.key, derived, file.files);
        return;
      }
      throw badRequest('This image could not be read. It may be damaged.', 'unreadable_image');
    }
  }

  private async writeFormats(
    image: Sharp,
    key: string,
    derived: string[],
    files: ReceivedFile['files'],
  ): Promise<MediaFormats> {
    const formats: MediaFormats = {};
    for (const [format, box] of Object.entries(FORMATS) as [
      keyof typeof FORMATS,
      { width: number; height: number },
    ][]) {
      const name = `${format}_${key}.jpg`;
      const out = path.join(this.tmpDir, name);
      derived.push(out);
      const info = await image
        .clone()
        .resize({ width: box.width, height: box.height, fit: 'inside', withoutEnlargement: true })
        .flatten({ background: '#ffffff' })
        .jpeg({ quality: 82, mozjpeg: true })
        .toFile(out);
      files.push({ from: out, to: name });
      const entry: MediaFormat = {
        name,
        hash: `${format}_${key}`,
        ext: '.jpg',
        mime: 'image/jpeg',
        width: info.width,
        height: info.height,
        size: Math.round((info.size / 1024) * 100) / 100,
        path: null,
        url: `/uploads/${name}`,
      };
      formats[format] = entry;
    }
    return formats;
  }

  private async deriveVideoPoster(file: ReceivedFile, source: string, derived: string[]): Promise<void> {
    if (this.ffmpegMissing) return;
    file.duration = await this.readDuration(source);
    const poster = path.join(this.tmpDir, `${file.key}-poster.png`);
    derived.push(poster);
    const ok =
      (await this.ffmpeg(['-threads', '1', '-ss', '1', '-i', source, '-frames:v', '1', '-y', poster])) ||
      (await this.ffmpeg(['-threads', '1', '-i', source, '-frames:v', '1', '-y', poster]));
    if (!ok) return;
    const sharp = await loadSharp();
    try {
      const meta = await sharp(poster).metadata();
      file.width = meta.width ?? null;
      file.height = meta.height ?? null;
      file.formats = await this.writeFormats(sharp(poster), file.key, derived, file.files);
    } catch (error) {
      this.log.warn({ err: error }, 'the video poster could not be made');
    } finally {
      await rm(poster, { force: true });
    }
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
    const { stderr } = await this.runFfmpeg(['-loglevel', 'info', '-i', source], true);
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
        { stdio: ['ignore', 'ignore', capture ? 'pipe' : 'ignore'] },
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

/** Whether `fileName` is a plain stored file name (no folder, no hidden file), as served. */
export function isStoredName(fileName: string): boolean {
  return /^[A-Za-z0-9_-]+\.[a-z0-9]{1,5}$/.test(fileName);
}

/** The storage key inside a stored file name (`<key><ext>` or `<format>_<key>.jpg`). */
export function keyOfFile(fileName: string): string | null {
  const match = /^(?:(?:thumbnail|small|medium|large)_)?([A-Za-z0-9_-]{24})(?:\.[a-z0-9]{1,5})?$/.exec(fileName);
  return match ? match[1]! : null;
}
