import { PassThrough, Transform, type Writable } from 'node:stream';
import type { Multipart } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { badRequest, HttpError, tooLarge } from '../errors.ts';
import { NO_FILE, type IncomingFile } from '../services/mediaService.ts';

export const UPLOAD_MESSAGES = {
  noFile: NO_FILE,
  oneFile: 'Send one file per request.',
  tooManyParts: 'The upload has too many parts. Send one file per request.',
  malformed: 'The upload could not be read. Please send the file again.',
  controlCharacters:
    'The file name or another header of the upload contains a line break or another control character. Rename the file and send it again.',
  tooLarge: (limitBytes: number) => `This file is too large. Files can be at most ${formatBytes(limitBytes)}.`,
} as const;

/** A size for people: 2 GB, 50 MB, 900 KB, 12 bytes. */
export function formatBytes(bytes: number): string {
  const units: [number, string][] = [
    [1024 ** 3, 'GB'],
    [1024 ** 2, 'MB'],
    [1024, 'KB'],
  ];
  for (const [size, unit] of units) {
    if (bytes >= size) return `${Number((bytes / size).toFixed(1))} ${unit}`;
  }
  return `${bytes} bytes`;
}

/** The answer for an error raised while reading a multipart body: always a clear 4xx. */
function uploadError(error: unknown, limitBytes: number): HttpError {
  if (error instanceof HttpError) return error;
  switch ((error as { code?: string } | null)?.code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return tooLarge(UPLOAD_MESSAGES.tooLarge(limitBytes));
    case 'FST_FILES_LIMIT':
      return badRequest(UPLOAD_MESSAGES.oneFile, 'one_file');
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return badRequest(UPLOAD_MESSAGES.tooManyParts, 'too_many_parts');
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return badRequest(UPLOAD_MESSAGES.noFile, 'no_file');
    default:
      // Busboy's own errors (no boundary, a truncated body, a malformed part header).
      return badRequest(UPLOAD_MESSAGES.malformed, 'malformed_upload');
  }
}

/** The largest header block of one part (busboy's own limit is larger; a file name is at most a few hundred bytes). */
const PART_HEADERS_MAX = 16 * 1024;

/** Whether a header line holds a control character (a tab is allowed). */
function hasControlCharacter(line: string): boolean {
  for (let i = 0; i < line.length; i += 1) {
    const code = line.charCodeAt(i);
    if ((code < 0x20 && code !== 0x09) || code === 0x7f) return true;
  }
  return false;
}

/** The boundary of a multipart content type, or `null`. */
function boundaryOf(contentType: string | undefined): string | null {
  const match = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;]{1,70}))/i.exec(contentType ?? '');
  return match ? (match[1] ?? match[2] ?? null) : null;
}

/**
 * A stream that passes a multipart body on unchanged and fails with 400 as soon as a part's
 * header block holds a control character (a line break inside a file name, a NUL, a bare CR or
 * LF) or grows past `PART_HEADERS_MAX`. Busboy would otherwise read such a header in its own way:
 * a file name cut at the line break, the rest taken for another header, or no file at all.
 */
export function partHeaderGuard(boundary: string): Transform {
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  // The body starts with the first delimiter without its CRLF: a CRLF is put in front.
  let pending: Buffer = Buffer.from('\r\n');
  let state: 'body' | 'afterDelimiter' | 'headers' | 'done' = 'body';
  const refuse = () => new HttpError(400, 'invalid_part_header', UPLOAD_MESSAGES.controlCharacters);
  const scan = (): HttpError | null => {
    for (;;) {
      if (state === 'done') {
        pending = Buffer.alloc(0);
        return null;
      }
      if (state === 'body') {
        const at = pending.indexOf(delimiter);
        if (at < 0) {
          // Keep only what may be the start of a delimiter.
          pending = pending.subarray(Math.max(0, pending.length - delimiter.length + 1));
          return null;
        }
        pending = pending.subarray(at + delimiter.length);
        state = 'afterDelimiter';
      }
      if (state === 'afterDelimiter') {
        if (pending.length < 2) return null;
        if (pending[0] === 0x2d && pending[1] === 0x2d) {
          state = 'done';
          continue;
        }
        state = 'headers';
      }
      if (state === 'headers') {
        const end = pending.indexOf('\r\n\r\n');
        if (end < 0) return pending.length > PART_HEADERS_MAX ? refuse() : null;
        // The block from the CRLF that ended the delimiter line to the CRLF of its last header.
        const block = pending.subarray(0, end + 2);
        if (block.length > PART_HEADERS_MAX) return refuse();
        const lines = block.toString('latin1').split('\r\n');
        // lines[0] is what followed the boundary on its line (nothing, or spaces); the rest are headers.
        for (const line of lines.slice(1, -1)) {
          // `Name: value`, nothing else: a line that is not one is what a line break in a value left.
          if (hasControlCharacter(line) || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+:/.test(line)) return refuse();
          // A quoted value (a file name) must close on its own line.
          if ((line.replace(/\\./g, '').match(/"/g)?.length ?? 0) % 2 !== 0) return refuse();
        }
        if (/[^\t ]/.test(lines[0] ?? '')) return refuse();
        // The part's content may begin with a CRLF: the next delimiter is searched from its first byte.
        pending = pending.subarray(end + 2);
        state = 'body';
      }
    }
  };
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      // Inside a part's content (nearly every chunk of a file): with no delimiter in the chunk nor
      // across its start, it passes on without being copied; only its last bytes are kept.
      if (state === 'body' && chunk.length >= delimiter.length) {
        const across = Buffer.concat([pending, chunk.subarray(0, delimiter.length - 1)]);
        if (across.indexOf(delimiter) < 0 && chunk.indexOf(delimiter) < 0) {
          pending = Buffer.from(chunk.subarray(chunk.length - delimiter.length + 1));
          callback(null, chunk);
          return;
        }
      }
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
      const error = scan();
      if (error) callback(error);
      else callback(null, chunk);
    },
  });
}

/**
 * Makes the multipart parser read the request's body through `partHeaderGuard`, so that a part
 * header with a control character fails the upload with 400 at once.
 */
function guardPartHeaders(request: FastifyRequest): void {
  const boundary = boundaryOf(request.headers['content-type']);
  if (!boundary) return;
  const raw = request.raw;
  const pipe = raw.pipe.bind(raw);
  raw.pipe = (<T extends NodeJS.WritableStream>(destination: T, options?: { end?: boolean }): T => {
    const guard = partHeaderGuard(boundary);
    guard.on('error', (error) => {
      raw.unpipe(guard);
      raw.resume();
      (destination as unknown as Writable).destroy(error);
    });
    pipe(guard, options);
    guard.pipe(destination, options);
    const unpipe = raw.unpipe.bind(raw);
    raw.unpipe = ((target?: NodeJS.WritableStream) => {
      if (target === undefined || target === destination) {
        unpipe(guard);
        guard.unpipe(destination as unknown as Writable);
        return raw;
      }
      return unpipe(target);
    }) as typeof raw.unpipe;
    return destination;
  }) as typeof raw.pipe;
}

/**
 * Reads the one file of a multipart upload: the first file part whatever its field name (the
 * web sends `file`, the mobile apps `myFile`). The returned stream fails with 413 as soon as the
 * file passes the limit (never a truncated file); `finish` refuses a second file. Every problem
 * of the body is a 4xx with a plain message.
 */
export async function readOneFile(request: FastifyRequest, limitBytes: number): Promise<IncomingFile | undefined> {
  if (!request.isMultipart()) throw badRequest(UPLOAD_MESSAGES.noFile, 'no_file');
  let iterator: AsyncIterator<Multipart>;
  const next = async () => {
    try {
      return await iterator.next();
    } catch (error) {
      throw uploadError(error, limitBytes);
    }
  };
  guardPartHeaders(request);
  try {
    const parts = request.parts({ limits: { fileSize: limitBytes, files: 1, fields: 10, parts: 20 } });
    iterator = parts[Symbol.asyncIterator]();
  } catch (error) {
    throw uploadError(error, limitBytes);
  }
  // Plain text fields sent with the file (before or after it), by name; the first of a name counts.
  const fields: Record<string, string> = {};
  const keep = (part: Multipart) => {
    if (part.type === 'field' && typeof part.value === 'string' && !(part.fieldname in fields))
      fields[part.fieldname] = part.value;
  };
  for (;;) {
    const { value: part, done } = await next();
    if (done || !part) return undefined;
    if (part.type !== 'file') {
      keep(part);
      continue;
    }
    // The file may have passed the limit or broken off before this code runs (a small body is
    // parsed at once), so the flags are checked as well as the events.
    const guarded = new PassThrough();
    // The stream may fail before its reader starts (the reader first records the upload); the
    // reader still gets the error, from the stream's state, and the process no unhandled event.
    guarded.on('error', () => undefined);
    const refuse = () => {
      part.file.unpipe(guarded);
      part.file.resume();
      guarded.destroy(tooLarge(UPLOAD_MESSAGES.tooLarge(limitBytes)));
    };
    part.file.on('limit', refuse);
    part.file.on('end', () => (part.file.truncated ? refuse() : guarded.end()));
    part.file.on('error', (error) => guarded.destroy(uploadError(error, limitBytes)));
    if (part.file.errored || (part.file.destroyed && !part.file.readableEnded)) {
      // A body that broke off was noticed before this code ran.
      guarded.destroy(uploadError(part.file.errored, limitBytes));
    } else {
      part.file.pipe(guarded, { end: false });
    }
    return {
      file: guarded,
      filename: part.filename,
      fields,
      async finish() {
        for (;;) {
          const rest = await next();
          if (rest.done || !rest.value) return;
          keep(rest.value);
          if (rest.value.type === 'file') {
            rest.value.file.resume();
            throw badRequest(UPLOAD_MESSAGES.oneFile, 'one_file');
          }
        }
      },
    };
  }
}
