import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import parseRange from 'range-parser';
import { notFound } from '../errors.ts';
import { LocalObjectStore, type ObjectStore } from '../media/objectStore.ts';

/**
 * Answers with a stored file exactly as stored, after the caller's permission was checked: the
 * whole file, or the one byte range a `Range` header asks for (206, what `<video>` seeking and
 * resumed downloads send). Files of this machine's folder go through `reply.sendFile` (ranges,
 * validators and conditional requests); objects of a bucket are streamed from the store, never
 * held in memory, so that their addresses (capabilities) and headers stay the same.
 * @throws 404 `missing` when the store has no such object.
 */
export async function sendStored(
  request: FastifyRequest,
  reply: FastifyReply,
  objects: ObjectStore,
  name: string,
  missing: string,
): Promise<FastifyReply> {
  const size = await objects.size(name);
  if (size === null) throw notFound(missing);
  const asked = request.headers.range;
  let range: { start: number; end: number } | undefined;
  if (asked !== undefined && size > 0) {
    const parsed = parseRange(size, asked, { combine: true });
    if (parsed === -1) return reply.code(416).header('content-range', `bytes */${size}`).send();
    // Several ranges (multipart/byteranges) or a malformed header: the whole file, as HTTP allows.
    if (Array.isArray(parsed) && parsed.type === 'bytes' && parsed.length === 1) range = parsed[0];
  }
  if (objects instanceof LocalObjectStore)
    return reply.sendFile(name, objects.dir, { contentType: false, cacheControl: false });
  reply.header('accept-ranges', 'bytes');
  if (range) {
    reply
      .code(206)
      .header('content-range', `bytes ${range.start}-${range.end}/${size}`)
      .header('content-length', range.end - range.start + 1);
  } else {
    reply.header('content-length', size);
  }
  // A HEAD request (and an empty file) gets the headers with an empty stream: Fastify's HEAD route
  // would read a real one to its end, and answer "no body" with a length of 0.
  if (request.method === 'HEAD' || size === 0) return reply.send(Readable.from([]));
  return reply.send(await objects.read(name, range));
}
