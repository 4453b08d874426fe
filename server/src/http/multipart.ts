import { PassThrough } from 'node:stream';
import type { Multipart } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { badRequest, HttpError, tooLarge } from '../errors.ts';
import { NO_FILE, type IncomingFile } from '../services/mediaService.ts';

export const UPLOAD_MESSAGES = {
  noFile: NO_FILE,
  oneFile: 'Send one file per request.',
  tooManyParts: 'The upload has too many parts. Send one file per request.',
  malformed: 'The upload could not be read. Please send the file again.',
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
  try {
    iterator = request.parts({ limits: { fileSize: limitBytes, files: 1, fields: 10, parts: 20 } })[Symbol.asyncIterator]();
  } catch (error) {
    throw uploadError(error, limitBytes);
  }
  // Plain text fields sent with the file (before or after it), by name; the first of a name counts.
  const fields: Record<string, string> = {};
  const keep = (part: Multipart) => {
    if (part.type === 'field' && typeof part.value === 'string' && !(part.fieldname in fields)) fields[part.fieldname] = part.value;
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
