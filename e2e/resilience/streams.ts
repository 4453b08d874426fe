import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import http from 'node:http';
import type { Responses } from '#schemas/structure';
import { ffmpegVideo, freeBoxHeader } from '../../server/test/files.ts';

/** What the crash journeys send: uploads streamed from disk or made on the fly, and long answers. */

export const MB = 1024 ** 2;

export interface UploadOutcome {
  status: number | null;
  body: string;
  error: string | null;
}

/**
 * Streams a multipart upload (field `file`) from `content` over plain node:http, never holding
 * the file in memory; respects back-pressure. Resolves with the answer, or the connection error.
 */
export function streamUpload(
  url: string,
  token: string,
  filename: string,
  size: number,
  content: AsyncIterable<Buffer>,
): Promise<UploadOutcome> {
  const boundary = `----practicefolio${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return new Promise((resolve) => {
    const request = http.request(url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': String(head.length + size + tail.length),
      },
    });
    request.on('response', (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (d: string) => (body += d));
      response.on('end', () => resolve({ status: response.statusCode ?? null, body, error: null }));
      response.on('error', (e) => resolve({ status: response.statusCode ?? null, body, error: e.message }));
    });
    request.on('error', (e) => resolve({ status: null, body: '', error: e.message }));
    const write = async (chunk: Buffer): Promise<boolean> => {
      if (request.destroyed) return false;
      if (!request.write(chunk)) {
        await new Promise<void>((resolve) => {
          const done = () => {
            request.off('drain', done);
            request.off('close', done);
            resolve();
          };
          request.on('drain', done);
          request.on('close', done);
        });
      }
      return !request.destroyed;
    };
    void (async () => {
      try {
        if (!(await write(head))) return;
        for await (const chunk of content) if (!(await write(chunk))) return;
        request.end(tail);
      } catch {
        // The request's own error event answers.
      }
    })();
  });
}

/**
 * A `size`-byte MP4 made on the fly (a real video, then a `free` box of filler); after `stallAt`
 * bytes the sender stalls for good, like a dead line.
 */
export async function* videoContent(size: number, stallAt: number): AsyncGenerator<Buffer> {
  const video = ffmpegVideo();
  const header = Buffer.concat([video, freeBoxHeader(size - video.length)]);
  yield header;
  let sent = header.length;
  const block = randomBytes(MB);
  while (sent < size) {
    // The line goes dead: nothing more is sent; the kill ends the request.
    if (sent >= stallAt) await new Promise<never>(() => undefined);
    const chunk = block.subarray(0, Math.min(block.length, size - sent));
    yield chunk;
    sent += chunk.length;
  }
}

export async function* fileContent(file: string): AsyncGenerator<Buffer> {
  for await (const chunk of createReadStream(file, { highWaterMark: MB })) yield chunk as Buffer;
}

/** Answers of one save, tagged with its number, long and incompressible (stored out of line). */
export function answersOf(tag: string, seq: number): Responses {
  const text = (field: string) => `${tag} #${seq} ${field} ${randomBytes(14_000).toString('base64')}`;
  return {
    artifactName: `${tag} save ${seq}`,
    learningGoal: text('goal'),
    studentThinking: text('thinking'),
    nextSteps: text('next'),
  };
}

export function describeAnswers(responses: Responses | null | undefined): string {
  if (!responses) return 'nothing';
  return Object.entries(responses)
    .map(([k, v]) => `${k}=${JSON.stringify(v).slice(0, 40)}`)
    .join(', ');
}
