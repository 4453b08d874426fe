import { createReadStream, createWriteStream } from 'node:fs';
import { chmod, mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** The settings of an S3-compatible bucket (`S3_*`; unset credentials: the SDK's default chain). */
export interface S3Settings {
  bucket: string;
  endpoint?: string | undefined;
  region: string;
  accessKeyId?: string | undefined;
  secretAccessKey?: string | undefined;
  forcePathStyle: boolean;
  /** A folder of the bucket the files go in (`S3_PREFIX`, ending in `/`); none: its top. */
  prefix?: string | undefined;
}

/** A byte range of an object, both ends included (as HTTP `Range` counts). */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Where uploaded files are kept once their upload is committed: a folder of this machine
 * (`local`, the default) or an S3-compatible bucket (`s3`), so that several nodes share them.
 * Names are plain file names (`<key><ext>`, `<format>_<key>.jpg`); callers check them first.
 */
export interface ObjectStore {
  readonly kind: 'local' | 's3';
  /** Resolves when the store can be used; rejects with a message that names the setting to fix. */
  check(): Promise<void>;
  /** Stores the local file `file` as `name` (the local file is gone afterwards). */
  putFile(name: string, file: string, contentType: string): Promise<void>;
  /**
   * Stores what `body` yields as `name`, as it arrives (never whole in memory or on disk); resolves
   * with its size. On failure (the body's own error first) nothing is left under `name`.
   */
  putStream(name: string, body: Readable, contentType: string): Promise<number>;
  /** The size of a stored object, or `null` when there is none. */
  size(name: string): Promise<number | null>;
  /** Reads a stored object, or the bytes of `range`. @throws when there is none. */
  read(name: string, range?: ByteRange): Promise<Readable>;
  /** The names of the stored objects that start with `prefix`. */
  list(prefix: string): Promise<string[]>;
  /** Deletes objects (a missing one is no error). */
  remove(names: readonly string[]): Promise<void>;
  /**
   * Drops what uploads cut off in the middle left under names starting with `prefix` (a bucket's
   * unfinished multipart uploads, whose parts it would otherwise keep and bill); nothing in a folder.
   */
  dropUnfinished(prefix: string): Promise<void>;
  /** Where a tool (ffmpeg) reads a stored object: its path, or a short-lived signed address. */
  toolInput(name: string): Promise<string>;
}

/** A pass-through stream that counts the bytes going through it. */
export function byteCounter(): { stream: Transform; bytes(): number } {
  let bytes = 0;
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      done(null, chunk);
    },
  });
  return { stream, bytes: () => bytes };
}

/** The uploads folder of this machine (`DATA_DIR/uploads`), readable only by the server's account. */
export class LocalObjectStore implements ObjectStore {
  readonly kind = 'local';
  constructor(readonly dir: string) {}

  async check(): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    await chmod(this.dir, 0o700);
  }

  async putFile(name: string, file: string): Promise<void> {
    const to = path.join(this.dir, name);
    await rename(file, to);
    // Formats and posters are written by sharp and ffmpeg with the process's default mode.
    await chmod(to, 0o600);
  }

  async putStream(name: string, body: Readable): Promise<number> {
    const to = path.join(this.dir, name);
    const counter = byteCounter();
    try {
      await pipeline(body, counter.stream, createWriteStream(to, { flags: 'wx', mode: 0o600 }));
    } catch (error) {
      await rm(to, { force: true });
      throw error;
    }
    return counter.bytes();
  }

  async size(name: string): Promise<number | null> {
    return stat(path.join(this.dir, name)).then(
      (s) => (s.isFile() ? s.size : null),
      () => null,
    );
  }

  async read(name: string, range?: ByteRange): Promise<Readable> {
    const stream = createReadStream(path.join(this.dir, name), range ? { start: range.start, end: range.end } : {});
    // A missing file fails here rather than in the middle of an answer.
    await new Promise<void>((resolve, reject) => {
      stream.once('open', () => resolve());
      stream.once('error', reject);
    });
    return stream;
  }

  async list(prefix: string): Promise<string[]> {
    const names = await readdir(this.dir);
    return names.filter((name) => name.startsWith(prefix) && !name.startsWith('.'));
  }

  async remove(names: readonly string[]): Promise<void> {
    for (const name of names) await rm(path.join(this.dir, name), { force: true });
  }

  async dropUnfinished(): Promise<void> {
    // A cut-off upload is a file under its own name: `remove` deletes it.
  }

  async toolInput(name: string): Promise<string> {
    return path.join(this.dir, name);
  }
}

/**
 * The store of a configuration for `folder` (`uploads`: the media, `archives`: teachers' archives):
 * that folder of `DATA_DIR`, or the S3 bucket (archives under `archives/` of its prefix). The S3
 * client, a large module, is loaded only then.
 */
export async function objectStoreOf(
  config: { dataDir: string; s3: S3Settings | null },
  folder: 'uploads' | 'archives' = 'uploads',
): Promise<ObjectStore> {
  if (!config.s3) return new LocalObjectStore(path.join(config.dataDir, folder));
  const { S3ObjectStore } = await import('./s3ObjectStore.ts');
  const prefix = folder === 'uploads' ? config.s3.prefix : `${config.s3.prefix ?? ''}archives/`;
  return new S3ObjectStore({ ...config.s3, prefix });
}
