import type { FastifyReply, FastifyRequest } from 'fastify';

/** The validators of the representation a GET or HEAD is about to send. */
export interface Validators {
  /** A strong (`"x"`) or weak (`W/"x"`) entity tag. */
  etag: string;
  /** When the representation last changed (HTTP dates have whole seconds). */
  lastModified?: Date;
}

const opaque = (tag: string) => tag.trim().replace(/^W\//, '');

/** Whether an `If-None-Match` list names `etag` by weak comparison (RFC 9110 §13.1.2), `*` included. */
function noneMatchNames(header: string, etag: string): boolean {
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => opaque(tag) === opaque(etag));
}

/** Whether `If-Modified-Since` is a date not before `lastModified` (to the second). */
function unmodifiedSince(header: string, lastModified: Date): boolean {
  const since = Date.parse(header);
  return !Number.isNaN(since) && Math.floor(lastModified.getTime() / 1000) * 1000 <= since;
}

/**
 * Sets the validators of an answer to a GET or HEAD (`ETag`, and `Last-Modified` when known) and
 * says whether the client's copy is still current, so that the route answers 304 instead: its
 * `If-None-Match` names the tag, or (only when it sent no `If-None-Match`, as RFC 9110 §13.2.2
 * asks) its `If-Modified-Since` is not before the last change.
 */
export function isNotModified(request: FastifyRequest, reply: FastifyReply, validators: Validators): boolean {
  reply.header('etag', validators.etag);
  if (validators.lastModified) reply.header('last-modified', validators.lastModified.toUTCString());
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const ifNoneMatch = request.headers['if-none-match'];
  if (ifNoneMatch !== undefined) return noneMatchNames(ifNoneMatch, validators.etag);
  const ifModifiedSince = request.headers['if-modified-since'];
  return ifModifiedSince !== undefined && validators.lastModified !== undefined && unmodifiedSince(ifModifiedSince, validators.lastModified);
}
