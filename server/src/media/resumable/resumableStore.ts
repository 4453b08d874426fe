import { AsyncLocalStorage } from 'node:async_hooks';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { DataStore, Upload } from '@tus/server';
import type { S3Settings } from '../objectStore.ts';
import type { TusWriter } from './tusWriter.ts';

/** The body of the request being handled: written by the writer thread rather than through the tus library's streams. */
export interface RequestBody {
  source: Readable;
  /** The upload's length (Upload-Length): a request may bring at most what is missing. */
  length: number;
  /** Aborted when the tus library ends the request's work early (its lock is wanted, an error): what arrived is written. */
  stop: AbortSignal;
}

/** The body of the tus request in whose handling a store method runs (set by the bridge around the library). */
export const requestBodies = new AsyncLocalStorage<RequestBody>();

/** The same upload under another id (the store's key, or the id the client knows). */
const withId = (upload: Upload, id: string): Upload =>
  Object.assign(Object.create(Upload.prototype) as Upload, upload, { id });

/** A tus data store that can also read back what an upload holds (both tus stores can). */
export type ReadableDataStore = DataStore & { read(id: string): Readable | Promise<Readable> };

/** What the store reports: bytes arrived (or a request broke off) and the upload's offset now; an upload's parts deleted. */
export interface StoreEvents {
  progressed(id: string, offset: number): Promise<void>;
  removed(id: string): Promise<void>;
}

/**
 * The store of unfinished resumable uploads, around the tus library's own (`@tus/file-store` in
 * `DATA_DIR/resumable`, or `@tus/s3-store` in the media bucket): each write reports the new
 * offset (also after a write that broke off), so the upload's expiry moves a day past its last
 * byte, and a deleted upload's row goes with its parts; and it reads a finished upload back for the file record. It offers the tus extensions
 * the server implements: no deferred length (the quota is reserved from Upload-Length), and the
 * store's own expiry is off (the housekeeping expires uploads, from the last byte).
 */
export class ResumableStore extends DataStore {
  constructor(
    private readonly inner: ReadableDataStore,
    private readonly events: StoreEvents,
    /** Writes the bodies of requests, in a thread of its own. */
    private readonly writer: TusWriter,
    /** Where the inner store keeps uploads: its keys are this and the upload's id (`resumable/` of a bucket's prefix). */
    private readonly prefix = '',
    /** Deletes what the inner store may leave of a finished upload (a bucket's completed object). */
    private readonly leftovers: (key: string) => Promise<void> = async () => undefined,
  ) {
    super();
    this.extensions = ['creation', 'creation-with-upload', 'termination', 'expiration', 'checksum'];
  }

  private key(id: string): string {
    return `${this.prefix}${id}`;
  }

  override async create(upload: Upload): Promise<Upload> {
    const made = await this.inner.create(withId(upload, this.key(upload.id)));
    upload.creation_date = made.creation_date;
    upload.storage = made.storage;
    return upload;
  }

  /** Deletes an upload's parts (termination, expiry, finished), then its row: its reservation is given back. */
  override async remove(id: string): Promise<void> {
    try {
      await this.inner.remove(this.key(id));
    } finally {
      await this.leftovers(this.key(id));
    }
    await this.events.removed(id);
  }

  override async write(stream: Readable, id: string, offset: number): Promise<number> {
    const body = requestBodies.getStore();
    let written: number;
    try {
      if (body) {
        // The library was given no body (`TusBridge`): its empty stream ends, the request's goes to the writer.
        stream.resume();
        written = await this.writer.write(body.source, this.key(id), offset, body.length - offset, body.stop);
      } else written = await this.inner.write(stream, this.key(id), offset);
    } catch (error) {
      // What did arrive stays (tus resumes from it): the expiry moves all the same.
      const now = await this.inner.getUpload(this.key(id)).then(
        (upload) => upload.offset,
        () => null,
      );
      if (now !== null) await this.events.progressed(id, now).catch(() => undefined);
      throw error;
    }
    await this.events.progressed(id, written);
    return written;
  }

  override async getUpload(id: string): Promise<Upload> {
    const upload = await this.inner.getUpload(this.key(id));
    return withId(upload, id);
  }

  /** The file that holds an upload on this node's disk (the file store's), else `null` (a bucket). */
  localPath(id: string): string | null {
    const directory = (this.inner as { directory?: unknown }).directory;
    return typeof directory === 'string' ? path.join(directory, this.key(id)) : null;
  }

  /** The bytes of an upload, from the first. */
  async read(id: string): Promise<Readable> {
    return this.inner.read(this.key(id));
  }

  override getExpiration(): number {
    return 0;
  }
}

/** Where a configuration keeps unfinished uploads: a folder of `DATA_DIR`, or `resumable/` of the media bucket's prefix. */
export interface TusStorePlace {
  store: ReadableDataStore;
  prefix: string;
}

/** The tus store of a configuration: a folder of `DATA_DIR`, or the media bucket (under `resumable/` of its prefix). */
export async function tusStoreOf(config: { dataDir: string; s3: S3Settings | null }): Promise<TusStorePlace> {
  if (!config.s3) {
    const { FileStore } = await import('@tus/file-store');
    return { store: new FileStore({ directory: path.join(config.dataDir, 'resumable') }), prefix: '' };
  }
  const { S3Store } = await import('@tus/s3-store');
  const s3 = config.s3;
  const store = new S3Store({
    s3ClientConfig: {
      bucket: s3.bucket,
      region: s3.region,
      ...(s3.endpoint ? { endpoint: s3.endpoint } : {}),
      forcePathStyle: s3.forcePathStyle,
      ...(s3.accessKeyId && s3.secretAccessKey
        ? { credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey } }
        : {}),
      // Self-hosted S3 servers (radosgw) answer 411 to the SDK's default checksums on parts.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    },
  });
  return { store, prefix: `${s3.prefix ?? ''}${RESUMABLE_FOLDER}` };
}

/** The folder of the media store that holds unfinished uploads in a bucket. */
export const RESUMABLE_FOLDER = 'resumable/';
