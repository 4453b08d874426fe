/**
 * One file uploaded to an artifact (personal or shared: the app provides the endpoint): one actor
 * per chosen file, spawned by the uploads queue, which decides when it may start.
 *
 * queued ─(upload.start)→ uploading ─(stored)→ done
 *                           │   └─(upload.progress)→ uploading
 *                           └─(refused / failed)→ failed ─(upload.retry, a transient failure)→ uploading
 * queued | uploading | done | failed ─(upload.dismiss)→ dismissed (final; the queue drops the row)
 *
 * Happy path: queued → uploading (progress 0–100 %) → done; the queue adds the new file to the
 * artifact's list. A failure keeps the server's message, which the row shows as its alert (once:
 * no toast besides), and offers Retry only when trying again may succeed (the network, a busy
 * server); a refused file (wrong type, too large) is only dismissed. Dismissing an upload that is
 * running cancels it.
 */
import { assign, fromPromise, sendParent, setup, type ActorRefFrom } from 'xstate';
import type { Media, MediaKind } from '../../schemas/media.ts';
import { isTransient, toUiError, type UiError } from '../../services/errors.ts';
import { kindOfFile, uploadToArtifact } from '../../services/mediaService.ts';

export interface UploadInput {
  /** The row id, unique within the queue. */
  id: string;
  file: File;
  portfolioId: number;
  artifactId: number;
}

export interface UploadContext extends UploadInput {
  kind: MediaKind;
  /** 0 to 1. */
  progress: number;
  /** The server's message when the upload failed. */
  error: string | null;
  /** Whether trying again may succeed (a transient failure). */
  retryable: boolean;
  /** The stored file, once done. */
  media: Media | null;
}

/** What the `uploadFile` actor is given: the file, where it goes, and a progress callback (0–1). */
export interface UploadFileInput {
  portfolioId: number;
  artifactId: number;
  file: File;
  onProgress: (fraction: number) => void;
}

export type UploadEvent =
  | { type: 'upload.start' }
  | { type: 'upload.progress'; fraction: number }
  | { type: 'upload.retry' }
  | { type: 'upload.dismiss' };

/** What an upload tells its queue. */
export type UploadReport =
  | { type: 'upload.succeeded'; id: string; kind: MediaKind; media: Media }
  | { type: 'upload.failed'; id: string }
  | { type: 'upload.restarted'; id: string }
  | { type: 'upload.dismissed'; id: string };

/**
 * What an upload answers: the stored file, with the artifact (personal or shared) it now belongs
 * to, which the queue does not keep.
 */
export type UploadedMedia = Media & { parentArtifact?: unknown; parentSharedArtifact?: unknown };

/** The stored file without the artifact the server sends along. */
function withoutParent(response: UploadedMedia): Media {
  const { parentArtifact: _artifact, parentSharedArtifact: _shared, ...media } = response;
  return media;
}

export const uploadMachine = setup({
  types: {
    context: {} as UploadContext,
    events: {} as UploadEvent,
    input: {} as UploadInput,
    tags: {} as 'busy',
  },
  actors: {
    // Personal artifacts; the shared edit page provides the shared endpoint.
    uploadFile: fromPromise<UploadedMedia, UploadFileInput>(({ input, signal }) =>
      uploadToArtifact(input.portfolioId, input.artifactId, input.file, input.onProgress, signal),
    ),
  },
  actions: {
    resetProgress: assign({ progress: 0, error: null, retryable: false }),
    storeProgress: assign({ progress: (_, params: { fraction: number }) => Math.min(1, Math.max(0, params.fraction)) }),
    storeMedia: assign({ media: (_, params: { media: Media }) => params.media, progress: 1 }),
    storeError: assign((_, params: { error: UiError }) => ({
      error: params.error.message,
      retryable: isTransient(params.error),
    })),
    reportSucceeded: sendParent(
      ({ context }) =>
        ({
          type: 'upload.succeeded',
          id: context.id,
          kind: context.kind,
          media: context.media!,
        }) satisfies UploadReport,
    ),
    reportFailed: sendParent(({ context }) => ({ type: 'upload.failed', id: context.id }) satisfies UploadReport),
    reportRestarted: sendParent(({ context }) => ({ type: 'upload.restarted', id: context.id }) satisfies UploadReport),
    reportDismissed: sendParent(({ context }) => ({ type: 'upload.dismissed', id: context.id }) satisfies UploadReport),
  },
  guards: {
    isRetryable: ({ context }) => context.retryable,
  },
}).createMachine({
  id: 'upload',
  context: ({ input }) => ({
    ...input,
    kind: kindOfFile(input.file),
    progress: 0,
    error: null,
    retryable: false,
    media: null,
  }),
  initial: 'queued',
  states: {
    queued: {
      on: {
        'upload.start': 'uploading',
        'upload.dismiss': 'dismissed',
      },
    },
    uploading: {
      tags: ['busy'],
      entry: 'resetProgress',
      invoke: {
        id: 'uploadFile',
        src: 'uploadFile',
        input: ({ context, self }) => ({
          portfolioId: context.portfolioId,
          artifactId: context.artifactId,
          file: context.file,
          onProgress: (fraction: number) => {
            if (self.getSnapshot().status === 'active') self.send({ type: 'upload.progress', fraction });
          },
        }),
        onDone: {
          target: 'done',
          actions: [
            { type: 'storeMedia', params: ({ event }) => ({ media: withoutParent(event.output) }) },
            'reportSucceeded',
          ],
        },
        onError: {
          target: 'failed',
          actions: [{ type: 'storeError', params: ({ event }) => ({ error: toUiError(event.error) }) }, 'reportFailed'],
        },
      },
      on: {
        'upload.progress': {
          actions: { type: 'storeProgress', params: ({ event }) => ({ fraction: event.fraction }) },
        },
        'upload.dismiss': 'dismissed',
      },
    },
    done: {
      on: { 'upload.dismiss': 'dismissed' },
    },
    failed: {
      on: {
        // The user asked for it: a retry starts at once, even beside another upload.
        'upload.retry': { guard: 'isRetryable', target: 'uploading', actions: 'reportRestarted' },
        'upload.dismiss': 'dismissed',
      },
    },
    dismissed: {
      type: 'final',
      entry: 'reportDismissed',
    },
  },
});

export type UploadMachine = typeof uploadMachine;
export type UploadRef = ActorRefFrom<typeof uploadMachine>;
