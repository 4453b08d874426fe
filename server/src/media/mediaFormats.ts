import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyBaseLogger } from 'fastify';
import type sharpOf from 'sharp';
import type { Sharp } from 'sharp';
import type { MediaFormat, MediaFormats } from '#schemas/media';
import { badRequest } from '../errors.ts';
import { LocalObjectStore, type ObjectStore } from './objectStore.ts';
import { FORMATS } from './storedNames.ts';
import type { VideoReader } from './videoReader.ts';
import { toolInputArgs } from './videoTools.ts';

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

/** The formats of stored images and the posters of stored videos, made here and stored next to them. */
export class MediaFormatMaker {
  constructor(
    private readonly objects: ObjectStore,
    private readonly tmpDir: string,
    private readonly videos: VideoReader,
    private readonly log: FastifyBaseLogger,
  ) {}

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
   * Makes a stored video's poster (a frame at one second, or the first) and its formats, stored
   * next to it; `null` without ffmpeg or when no frame can be read.
   */
  async makePoster(key: string, fileName: string): Promise<Derived | null> {
    if (this.videos.ffmpegMissing) return null;
    const source = await this.objects.toolInput(fileName);
    await mkdir(this.tmpDir, { recursive: true, mode: 0o700 });
    const poster = path.join(this.tmpDir, `${key}-poster.png`);
    try {
      const ok =
        (await this.videos.ffmpeg([
          '-threads',
          '1',
          '-ss',
          '1',
          ...toolInputArgs(source),
          '-frames:v',
          '1',
          '-y',
          poster,
        ])) || (await this.videos.ffmpeg(['-threads', '1', ...toolInputArgs(source), '-frames:v', '1', '-y', poster]));
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
}
