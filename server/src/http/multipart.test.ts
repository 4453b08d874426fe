import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { pipeline } from 'node:stream/promises';
import { describe, expect, it } from 'vitest';
import { partHeaderGuard } from './multipart.ts';

const BOUNDARY = '----pfguard';

/** A multipart body of a large file part, then a field part whose header block is `header`. */
function multipartBody(header: string): Buffer {
  const content = Buffer.alloc(50_000, 'a line of a large file, with -- dashes and \r\n line ends\n');
  return Buffer.concat([
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="big.txt"\r\n\r\n`),
    content,
    Buffer.from(`\r\n--${BOUNDARY}\r\n${header}\r\n\r\nvalue\r\n--${BOUNDARY}--\r\n`),
  ]);
}

/**
 * The body through the guard in chunks of `size` bytes, the first one ending at `firstEnd` if
 * given: what came out, or the error.
 */
async function guarded(body: Buffer, size: number, firstEnd = size): Promise<Buffer | Error> {
  const chunks = function* () {
    yield body.subarray(0, firstEnd);
    for (let at = firstEnd; at < body.length; at += size) yield body.subarray(at, at + size);
  };
  const guard = partHeaderGuard(BOUNDARY);
  const out = buffer(guard).catch((error: unknown) => error as Error);
  try {
    await pipeline(Readable.from(chunks(), { objectMode: false }), guard);
    return await out;
  } catch (error) {
    return error as Error;
  }
}

const SIZES = [7, 13, 64, 1000, 4093, 65_536, 1_000_000];
const DELIMITER = `\r\n--${BOUNDARY}`;

/** Where the body is cut so that the second part's delimiter spans two chunks, at each of its bytes. */
const cutsAcross = (body: Buffer) => {
  const start = body.indexOf(DELIMITER, 100);
  return Array.from({ length: DELIMITER.length - 1 }, (_, i) => start + 1 + i);
};

describe('partHeaderGuard', () => {
  it('passes a body on unchanged, however it is cut into chunks', async () => {
    const body = multipartBody('Content-Disposition: form-data; name="note"');
    for (const size of SIZES) expect(await guarded(body, size)).toEqual(body);
    for (const cut of cutsAcross(body)) expect(await guarded(body, 20, cut)).toEqual(body);
  });

  it("refuses a later part's header with a control character, however the body is cut", async () => {
    const body = multipartBody('Content-Disposition: form-data; name="no\u0000te"');
    for (const size of SIZES) {
      const result = await guarded(body, size);
      expect(result, `chunks of ${size} bytes`).toBeInstanceOf(Error);
      expect((result as Error & { statusCode?: number }).statusCode).toBe(400);
    }
    for (const cut of cutsAcross(body)) {
      const result = await guarded(body, 20, cut);
      expect(result, `cut at ${cut}`).toBeInstanceOf(Error);
      expect((result as Error & { statusCode?: number }).statusCode).toBe(400);
    }
  });
});
