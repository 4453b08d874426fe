/**
 * One file uploaded to an artifact (personal or shared) with tus: one actor per chosen file,
 * spawned by the uploads queue, which decides when it may start.
 *
 * queued ─(upload.start)→ uploading ─(transfer.stored)→ done
 *   uploading ─(transfer.failed: the network)→ offline ─(connection.back | upload.retry)→ uploading
 *   uploading ─(transfer.failed: refused, or the server failing)→ failed ─(upload.retry, if it may pass)→ uploading
 *   uploading | offline ─(upload.pause)→ paused ─(upload.resume)→ uploading
 *   uploading | offline | paused | failed ─(upload.dismiss)→ cancelling ─(terminated)→ dismissed
 *   queued | done ─(upload.dismiss)→ dismissed (final; the queue drops the row)
 *
 * The `transfer` actor sends the file in chunks, tries again by itself after network errors
 * (`transfer.retrying`: the row says the connection is lost) and resumes where the server's
 * offset says, also after a reload (the same file chosen again). When its tries are used up the
 * machine waits for the connection (`offline`) and resumes by itself. Pausing stops the transfer
 * and keeps the upload; cancelling deletes it on the server. A refusal keeps the server's message
 * (the row's alert) and offers only Dismiss; a failure that may pass offers Retry.
 */
import { assign, sendParent, setup, type ActorRefFrom } from 'xstate';
import type { Media, MediaKind } from '../../schemas/media.ts';
import { isTransient, toUiError, type UiError } from '../../services/errors.ts';
import { kindOfFile } from '../../services/mediaService.ts';
import {
  terminateLogic,
  transferLogic,
  watchConnectionLogic,
  type TransferInput,
  type TransferReport,
} from './transferActors.ts';

export interface UploadInput {
  /** The row id, unique within the queue. */
  id: string;
  file: File;
  target: 'artifact' | 'sharedArtifact';
  portfolioId: number;
  artifactId: number;
}

export interface UploadContext extends UploadInput {
  kind: MediaKind;
  /** 0 to 1. */
  progress: number;
  /** Bytes the server holds. */
  sent: number;
  /** Bytes per second, smoothed; `null` until measured. */
  rate: number | null;
  /** The progress report the rate was last measured from. */
  sample: { sent: number; at: number } | null;
  /** The connection broke off and the transfer is trying again. */
  reconnecting: boolean;
  /** The upload's address on the server, once created (for cancelling). */
  uploadUrl: string | null;
  /** The server's message when the upload failed. */
  error: string | null;
  /** Whether trying again may succeed (a transient failure). */
  retryable: boolean;
  /** The stored file, once done. */
  media: Media | null;
}

export type UploadEvent =
  | { type: 'upload.start' }
  | { type: 'upload.pause' }
  | { type: 'upload.resume' }
  | { type: 'upload.retry' }
  | { type: 'upload.dismiss' }
  | { type: 'connection.back' }
  | TransferReport;

/** What an upload tells its queue. */
export type UploadReport =
  | { type: 'upload.succeeded'; id: string; kind: MediaKind; media: Media }
  | { type: 'upload.failed'; id: string }
  | { type: 'upload.paused'; id: string }
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

/** The rate is measured over at least this long (ms) and smoothed with this weight of the newest measure. */
const RATE_WINDOW_MS = 1000;
const RATE_WEIGHT = 0.3;

/** The next rate: the bytes since the last sample over its time, blended with the previous rate. */
function nextRate(
  context: Pick<UploadContext, 'rate' | 'sample'>,
  sent: number,
  at: number,
): Pick<UploadContext, 'rate' | 'sample'> {
  const { sample, rate } = context;
  if (!sample || sent < sample.sent) return { rate, sample: { sent, at } };
  const elapsed = at - sample.at;
  if (elapsed < RATE_WINDOW_MS) return { rate, sample };
  const measured = ((sent - sample.sent) * 1000) / elapsed;
  return {
    rate: rate === null ? measured : rate * (1 - RATE_WEIGHT) + measured * RATE_WEIGHT,
    sample: { sent, at },
  };
}

export const uploadMachine = setup({
  types: {
    context: {} as UploadContext,
    events: {} as UploadEvent,
    input: {} as UploadInput,
    tags: {} as 'busy',
  },
  actors: {
    transfer: transferLogic,
    watchConnection: watchConnectionLogic,
    terminate: terminateLogic,
  },
  actions: {
    startTransfer: assign({ error: null, retryable: false, reconnecting: false, rate: null, sample: null }),
    storeUrl: assign({ uploadUrl: (_, params: { uploadUrl: string }) => params.uploadUrl }),
    storeProgress: assign(({ context }, params: { sent: number; total: number; at: number }) => ({
      sent: params.sent,
      progress: params.total > 0 ? Math.min(1, Math.max(0, params.sent / params.total)) : 0,
      reconnecting: false,
      ...nextRate(context, params.sent, params.at),
    })),
    markReconnecting: assign({ reconnecting: true, rate: null, sample: null }),
    storeMedia: assign({
      media: (_, params: { media: Media }) => params.media,
      progress: 1,
      sent: ({ context }) => context.file.size,
      reconnecting: false,
    }),
    storeError: assign((_, params: { error: UiError }) => ({
      error: params.error.message,
      retryable: isTransient(params.error),
      reconnecting: false,
      rate: null,
      sample: null,
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
    reportPaused: sendParent(({ context }) => ({ type: 'upload.paused', id: context.id }) satisfies UploadReport),
    reportRestarted: sendParent(({ context }) => ({ type: 'upload.restarted', id: context.id }) satisfies UploadReport),
    reportDismissed: sendParent(({ context }) => ({ type: 'upload.dismissed', id: context.id }) satisfies UploadReport),
  },
  guards: {
    isRetryable: ({ context }) => context.retryable,
    isNetworkFailure: (_, params: { error: unknown }) => toUiError(params.error).kind === 'network',
    hasUploadUrl: ({ context }) => context.uploadUrl !== null,
  },
}).createMachine({
  id: 'upload',
  context: ({ input }) => ({
    ...input,
    kind: kindOfFile(input.file),
    progress: 0,
    sent: 0,
    rate: null,
    sample: null,
    reconnecting: false,
    uploadUrl: null,
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
      entry: 'startTransfer',
      invoke: {
        id: 'transfer',
        src: 'transfer',
        input: ({ context }): TransferInput => ({
          target: context.target,
          portfolioId: context.portfolioId,
          artifactId: context.artifactId,
          file: context.file,
          kind: context.kind,
        }),
      },
      on: {
        'transfer.url': { actions: { type: 'storeUrl', params: ({ event }) => ({ uploadUrl: event.uploadUrl }) } },
        'transfer.progress': {
          actions: {
            type: 'storeProgress',
            params: ({ event }) => ({ sent: event.sent, total: event.total, at: event.at }),
          },
        },
        'transfer.retrying': { actions: 'markReconnecting' },
        'transfer.stored': {
          target: 'done',
          actions: [
            { type: 'storeMedia', params: ({ event }) => ({ media: withoutParent(event.answer as UploadedMedia) }) },
            'reportSucceeded',
          ],
        },
        'transfer.failed': [
          {
            guard: { type: 'isNetworkFailure', params: ({ event }) => ({ error: event.error }) },
            target: 'offline',
            actions: { type: 'storeError', params: ({ event }) => ({ error: toUiError(event.error) }) },
          },
          {
            target: 'failed',
            actions: [
              { type: 'storeError', params: ({ event }) => ({ error: toUiError(event.error) }) },
              'reportFailed',
            ],
          },
        ],
        'upload.pause': { target: 'paused', actions: 'reportPaused' },
        'upload.dismiss': [{ guard: 'hasUploadUrl', target: 'cancelling' }, { target: 'dismissed' }],
      },
    },
    offline: {
      tags: ['busy'],
      invoke: { id: 'watchConnection', src: 'watchConnection' },
      on: {
        'connection.back': 'uploading',
        'upload.retry': 'uploading',
        'upload.pause': { target: 'paused', actions: 'reportPaused' },
        'upload.dismiss': [{ guard: 'hasUploadUrl', target: 'cancelling' }, { target: 'dismissed' }],
      },
    },
    paused: {
      on: {
        // The user asked for it: resuming starts at once, even beside another upload.
        'upload.resume': { target: 'uploading', actions: 'reportRestarted' },
        'upload.dismiss': [{ guard: 'hasUploadUrl', target: 'cancelling' }, { target: 'dismissed' }],
      },
    },
    done: {
      on: { 'upload.dismiss': 'dismissed' },
    },
    failed: {
      on: {
        'upload.retry': { guard: 'isRetryable', target: 'uploading', actions: 'reportRestarted' },
        'upload.dismiss': [{ guard: 'hasUploadUrl', target: 'cancelling' }, { target: 'dismissed' }],
      },
    },
    cancelling: {
      tags: ['busy'],
      invoke: {
        id: 'terminate',
        src: 'terminate',
        input: ({ context }) => ({ uploadUrl: context.uploadUrl! }),
        // Gone either way for this page; the server's housekeeping removes what a failed cancel left.
        onDone: 'dismissed',
        onError: 'dismissed',
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
