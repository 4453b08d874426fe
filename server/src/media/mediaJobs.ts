import { availableParallelism } from 'node:os';
import { z } from 'zod';
import { HttpError } from '../errors.ts';
import type { JobEngine } from '../jobs/jobEngine.ts';
import type { JobKind } from '../jobs/jobKind.ts';
import { mediaFileRepository } from '../repositories/mediaFileRepository.ts';
import type { Derived, MediaProcessor } from './mediaFormats.ts';
import type { MediaStore } from './mediaStore.ts';

export const BUSY_MESSAGE = 'The server is busy making previews of other uploads. Please try again in a minute.';

/** How long an upload waits for its image formats or video check, wherever they run. */
const WAIT_MS = 120_000;
/** Jobs of one kind waiting in the whole installation before uploads are told to try again. */
const MAX_QUEUED = 128;

const StoredName = z.string().regex(/^[A-Za-z0-9_-]+\.[a-z0-9]{1,5}$/);
const StorageKey = z.string().regex(/^[A-Za-z0-9_-]{24}$/);

/** A job's answer: what it made, or why the upload is refused (the request's 4xx/503). */
type Outcome<T> = { ok: T } | { refused: { status: number; code: string; message: string } };

/** Runs `work`; an upload's refusal (400 for a damaged image, 503 without ffprobe) is an answer, not a failure. */
async function outcome<T>(work: () => Promise<T>): Promise<Outcome<T>> {
  try {
    return { ok: await work() };
  } catch (error) {
    if (error instanceof HttpError && (error.statusCode < 500 || error.statusCode === 503))
      return { refused: { status: error.statusCode, code: error.code, message: error.message } };
    throw error;
  }
}

function answer<T>(output: unknown): T {
  const result = output as Outcome<T>;
  if ('refused' in result) throw new HttpError(result.refused.status, result.refused.code, result.refused.message);
  return result.ok;
}

/**
 * The media work as jobs of the `media` group (decision 037), run by whichever node runs media
 * (`WORKERS`): an upload waits for its image formats and its video check (made from the stored
 * object, so any node can make them), a video's poster is made after its row committed, and a
 * moment on an old video waits for its length. Each kind has a bounded queue: a burst of uploads
 * beyond it is told to try again (503) instead of piling up.
 */
export function mediaJobs(jobs: JobEngine, store: MediaStore): MediaProcessor {
  const cores = Math.max(1, availableParallelism());
  const common = {
    group: 'media' as const,
    retryLimit: 1,
    retryDelaySeconds: 0,
    maxQueued: MAX_QUEUED,
    busyMessage: BUSY_MESSAGE,
    concurrency: cores,
    expireInSeconds: 600,
  };
  const image = jobs.define({
    ...common,
    name: 'media.image',
    data: z.object({ key: StorageKey, fileName: StoredName, mime: z.string().max(100) }).strict(),
    run: (file) => outcome(() => store.makeImageFormats(file.key, file.fileName, file.mime)),
  });
  const video = jobs.define({
    ...common,
    name: 'media.video',
    data: z.object({ fileName: StoredName }).strict(),
    run: (file) => outcome(() => store.checkVideo(file.fileName)),
  });
  const length = jobs.define({
    ...common,
    name: 'media.length',
    data: z.object({ fileName: StoredName }).strict(),
    run: async (file) => ({ ok: { duration: await store.readStoredDuration(file.fileName) } }),
  });
  const poster = jobs.define({
    ...common,
    name: 'media.poster',
    data: z.object({ key: StorageKey, fileName: StoredName }).strict(),
    retryLimit: 3,
    retryDelaySeconds: 5,
    retryBackoff: true,
    maxQueued: 10 * MAX_QUEUED,
    // A poster under way on a node that died is made again elsewhere.
    heartbeatSeconds: 10,
    // The row may have gone meanwhile (the video was deleted): then so do the formats.
    run: async (file) => ({
      made: await store.addPoster(file.key, file.fileName, (tx, poster) =>
        mediaFileRepository.setPoster(tx, file.key, poster),
      ),
    }),
  });

  async function waitFor<T, D>(kind: JobKind<D>, data: D): Promise<T> {
    const id = await jobs.send(kind, data);
    if (!id) throw new HttpError(503, 'busy', BUSY_MESSAGE);
    return answer<T>(await jobs.result(kind, id, WAIT_MS));
  }

  return {
    image: (file) => waitFor<Derived, typeof file>(image, file),
    video: (file) => waitFor<{ duration: number | null }, typeof file>(video, file),
    poster: async (file) => {
      await jobs.send(poster, file);
    },
    duration: async (fileName) =>
      (await waitFor<{ duration: number | null }, { fileName: string }>(length, { fileName })).duration,
  };
}
