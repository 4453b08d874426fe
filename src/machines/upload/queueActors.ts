/** The queue's watchers: a video's poster after its upload, the uploads this browser remembers. */
import { fromCallback, type CallbackActorLogic, type EventObject } from 'xstate';
import type { Media } from '../../schemas/media.ts';
import type { RememberedUpload, TransferTarget } from '../../services/resumableUploads.ts';
import type { UploadQueueEvent } from './uploadQueueMachine.ts';

/** What a `watchPoster` child is given: the artifact (personal or shared) and its video. */
export interface PosterWatchInput {
  artifactId: number;
  mediaId: number;
}

/** After the upload's answer, when to look for a video's poster (ms after the previous look). */
export const POSTER_LOOKS_MS = [1000, 2000, 3000, 5000, 8000, 13000];

/**
 * Looks for the poster of a video in its artifact (as `load` reads it) a few times; sends
 * `poster.ready` with the video once it has one, and stops looking when the video is gone.
 */
export function posterWatcher(
  load: (artifactId: number, signal: AbortSignal) => Promise<{ videos: readonly Media[] }>,
): CallbackActorLogic<EventObject, PosterWatchInput> {
  return fromCallback<EventObject, PosterWatchInput>(({ input, sendBack }) => {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const lookAfter = (index: number) => {
      const delay = POSTER_LOOKS_MS[index];
      if (delay === undefined) return;
      timer = setTimeout(() => void look(index), delay);
    };
    const look = async (index: number) => {
      let videos: readonly Media[] | null = null;
      try {
        videos = (await load(input.artifactId, controller.signal)).videos;
      } catch {
        // Offline for a moment: the next look may do.
      }
      if (controller.signal.aborted) return;
      const video = videos?.find((v) => v.id === input.mediaId);
      if (video?.formats) sendBack({ type: 'poster.ready', media: video } satisfies UploadQueueEvent);
      else if (!videos || video) lookAfter(index + 1);
    };
    lookAfter(0);
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  });
}

/** Looks up the remembered uploads once (`remembered.found`); nothing when none is left or the lookup fails. */
export function rememberedFinder(
  find: (target: TransferTarget, signal: AbortSignal) => Promise<RememberedUpload[]>,
): CallbackActorLogic<EventObject, TransferTarget> {
  return fromCallback<EventObject, TransferTarget>(({ input, sendBack }) => {
    const controller = new AbortController();
    find(input, controller.signal).then(
      (uploads) => {
        if (!controller.signal.aborted && uploads.length > 0) {
          sendBack({ type: 'remembered.found', uploads } satisfies UploadQueueEvent);
        }
        return uploads.length;
      },
      () => undefined,
    );
    return () => controller.abort();
  });
}
