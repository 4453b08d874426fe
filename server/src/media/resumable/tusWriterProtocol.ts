import type { MessagePort } from 'node:worker_threads';
import type { S3Settings } from '../objectStore.ts';

/** What the writer thread is given: where the tus store keeps uploads (as `tusStoreOf` reads it). */
export interface TusWriterData {
  dataDir: string;
  s3: S3Settings | null;
}

/** One request's bytes to write: the store's key of the upload, its offset, how many bytes it may still take, the port its chunks come through. */
export interface WriteJob {
  key: string;
  offset: number;
  limit: number;
  port: MessagePort;
}

/** On a job's port, to the writer: a chunk (transferred), or `end` (the request's body ended or broke off: what arrived is written). */
export type ToWriter = ArrayBuffer | 'end';

/** On a job's port, from the writer: bytes taken off the window, the new offset, or why the write failed (a tus status and body). */
export type FromWriter =
  | { type: 'ack'; bytes: number }
  | { type: 'done'; offset: number }
  | { type: 'failed'; status?: number; message: string };

/** The writer acknowledges what its store took in steps of this many bytes. */
export const WRITER_ACK_BYTES = 64 * 1024;

/** Bytes the writer takes in between two collections of its young generation. */
export const WRITER_COLLECT_BYTES = 2 * 1024 * 1024;
