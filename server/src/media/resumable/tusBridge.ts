import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type Locker, MemoryLocker, Server } from '@tus/server';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { User } from '#schemas/user';
import { badRequest, HttpError, tooLarge } from '../../errors.ts';
import { saveClientOf, type SaveClient } from '../../http/auth.ts';
import { UPLOAD_MESSAGES } from '../../http/multipart.ts';
import type { PgLocker } from './pgLocker.ts';
import { requestBodies, type ResumableStore } from './resumableStore.ts';

/** What one request's tus handling knows besides the request: who asks and through which client, the new id, the outcome of finishing. */
interface Exchange {
  user: User;
  client: SaveClient;
  locker: Locker;
  newId?: string;
  finished?: { result: unknown } | { error: unknown };
}

/** The digests the checksum extension accepts (`Upload-Checksum: <algorithm> <base64>`). */
export const CHECKSUM_ALGORITHMS = ['sha1', 'sha256', 'md5'] as const;

/** The tus headers a client reads; whatever else the library sets (its CORS headers) is left out. */
const PASSED_HEADERS = [
  'tus-resumable',
  'tus-version',
  'tus-extension',
  'tus-max-size',
  'upload-offset',
  'upload-length',
  'upload-metadata',
  'upload-expires',
  'location',
  'cache-control',
];

/**
 * The locker as the library uses it, with each lock following the library's work on the request:
 * when the library ends that work early (its context aborted: another request wants the lock, an
 * error), `stop` ends the body's write as the library ends its own stream.
 */
function following(locker: Locker, stop: AbortController): Locker {
  return {
    newLock: (id) => {
      const lock = locker.newLock(id);
      return {
        lock: async (signal, requestRelease) => {
          signal.addEventListener('abort', () => stop.abort(), { once: true });
          await lock.lock(signal, requestRelease);
        },
        unlock: () => lock.unlock(),
      };
    },
  };
}

/** A stable code for the errors the tus library answers with. */
function codeOf(status: number): string {
  switch (status) {
    case 404:
    case 410:
      return 'upload_not_found';
    case 409:
      return 'upload_offset_mismatch';
    case 412:
      return 'tus_version_required';
    case 413:
      return 'too_large';
    case 415:
      return 'upload_content_type';
    case 423:
      return 'upload_locked';
    case 503:
      return 'busy';
    default:
      return status >= 500 ? 'internal_error' : 'invalid_upload_request';
  }
}

/**
 * The tus server (`@tus/server`) inside our Fastify routes: each request is handed over as a web
 * `Request` (its body the still unread request stream) and the library's answer comes back
 * through Fastify, so our hooks (security headers, logging, errors as `{statusCode, code,
 * message}`) apply; the locks a request took are released when it ends, however it ends.
 */
export class TusBridge {
  private readonly exchanges = new WeakMap<Request, Exchange>();
  private readonly server: Server;
  /** The locker of a single process (no PostgreSQL to share locks through). */
  private readonly memory: MemoryLocker | null;

  constructor(
    private readonly options: {
      path: string;
      store: ResumableStore;
      maxSize: number;
      /** Shared by every node (PostgreSQL); `null`: one process (PGlite), an in-memory locker. */
      locker: PgLocker | null;
      /** Where a chunk with a checksum is kept until it is checked. */
      tmpDir: string;
      /** `client`: that of the request that brought the last byte (the file's version is saved through it). */
      finish: (user: User, id: string, client: SaveClient) => Promise<unknown>;
      /** When an upload that just received bytes expires. */
      expiresAt: () => number;
    },
  ) {
    this.memory = options.locker ? null : new MemoryLocker();
    this.server = new Server({
      path: options.path,
      datastore: options.store,
      relativeLocation: true,
      maxSize: options.maxSize,
      // Same-origin only: no CORS header at all.
      allowedOrigins: () => false,
      locker: (req) => this.exchange(req).locker,
      namingFunction: (req) => {
        const id = this.exchange(req).newId;
        if (!id) throw new Error('an upload is created only by its route');
        return id;
      },
      onUploadFinish: async (req, upload) => {
        const exchange = this.exchange(req);
        try {
          exchange.finished = { result: await options.finish(exchange.user, upload.id, exchange.client) };
        } catch (error) {
          exchange.finished = { error };
        }
        return {};
      },
    });
  }

  private exchange(req: Request): Exchange {
    const exchange = this.exchanges.get(req);
    if (!exchange) throw new Error('a tus request outside its route');
    return exchange;
  }

  /**
   * Answers one tus request of `user` about an upload of `upload.length` bytes (`upload.newId`:
   * the id its creation was given). The body is not handed to the library: the store's write
   * gives it to the writer thread (`requestBodies`). A finished upload answers 200 with its file
   * record (what the multipart route answers); the library's errors become our errors, with its
   * tus headers.
   */
  async handle(
    request: FastifyRequest,
    reply: FastifyReply,
    user: User,
    upload: { length: number; newId?: string },
  ): Promise<FastifyReply> {
    const perRequest = this.options.locker?.forRequest();
    const stop = new AbortController();
    const exchange: Exchange = {
      user,
      client: saveClientOf(request),
      locker: following(perRequest ?? this.memory!, stop),
      ...(upload.newId ? { newId: upload.newId } : {}),
    };
    const checked = await this.checkedBody(request);
    const source = checked ? createReadStream(checked.file) : request.raw;
    try {
      const headers = new Headers();
      for (const [name, value] of Object.entries(request.headers)) {
        if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
      }
      if (checked) headers.delete('upload-checksum');
      const hasBody = request.method === 'POST' || request.method === 'PATCH';
      // The path alone: the library reads the upload id from the end of the URL.
      const web = new Request(`http://localhost${request.url.split('?')[0]!}`, { method: request.method, headers });
      this.exchanges.set(web, exchange);
      const answer = hasBody
        ? await requestBodies.run({ source, length: upload.length, stop: stop.signal }, () =>
            this.server.handleWeb(web),
          )
        : await this.server.handleWeb(web);
      for (const name of PASSED_HEADERS) {
        const value = answer.headers.get(name);
        if (value !== null) reply.header(name, value);
      }
      if (exchange.finished) {
        if ('error' in exchange.finished) throw exchange.finished.error;
        reply.removeHeader('upload-expires');
        return reply.code(200).send(exchange.finished.result);
      }
      if (answer.status >= 400) {
        const text = (await answer.text()).trim();
        throw new HttpError(answer.status, codeOf(answer.status), text || 'The upload request was refused.');
      }
      // Expiration: a day after the last byte (the upload's row expires at the same time).
      if (request.method === 'PATCH' || request.method === 'POST')
        reply.header('upload-expires', new Date(this.options.expiresAt()).toUTCString());
      return reply.code(answer.status).send();
    } finally {
      await perRequest?.releaseAll();
      if (checked) {
        source.destroy();
        await rm(checked.file, { force: true });
      }
    }
  }

  /**
   * With `Upload-Checksum`, the chunk is kept aside (on disk, never whole in memory) while its
   * digest is computed, and refused (460) when it does not match; the upload then stays as it was.
   */
  private async checkedBody(request: FastifyRequest): Promise<{ file: string } | null> {
    const header = request.headers['upload-checksum'];
    if (header === undefined || (request.method !== 'PATCH' && request.method !== 'POST')) return null;
    const match = /^([a-z0-9]+) ([A-Za-z0-9+/]+={0,2})$/.exec(String(header));
    if (!match || !(CHECKSUM_ALGORITHMS as readonly string[]).includes(match[1]!))
      throw badRequest(
        `Upload-Checksum must name ${CHECKSUM_ALGORITHMS.join(', ')} and a base64 digest.`,
        'unsupported_checksum',
      );
    const file = path.join(this.options.tmpDir, `checksum-${randomBytes(9).toString('hex')}`);
    const hash = createHash(match[1]!);
    let bytes = 0;
    const limit = this.options.maxSize;
    const digest = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        bytes += chunk.length;
        if (bytes > limit) return done(tooLarge(UPLOAD_MESSAGES.tooLarge(limit)));
        hash.update(chunk);
        done(null, chunk);
      },
    });
    try {
      await pipeline(request.raw, digest, createWriteStream(file, { mode: 0o600 }));
    } catch (error) {
      await rm(file, { force: true });
      throw error;
    }
    if (hash.digest('base64') !== match[2]) {
      await rm(file, { force: true });
      throw new HttpError(
        460,
        'checksum_mismatch',
        'The chunk did not arrive as sent (its checksum differs). Send it again.',
      );
    }
    return { file };
  }
}
