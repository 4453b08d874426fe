/**
 * The uploads area of an artifact (personal or shared): its files, the uploads under way, and
 * removing a file.
 *
 * Every chosen file becomes a spawned `upload` actor (a row). Uploads run one at a time, in the
 * order the files were chosen: the server gives each file the artifact's next caption letter, so
 * sequential uploads keep the letters in the order of the rows (and keep a slow connection from
 * being split between files). A retry starts at once.
 *
 * Rows report back: `upload.succeeded` (the file joins the list and the next row starts),
 * `upload.failed` and `upload.paused` (the next row starts), `upload.restarted` (a retry or a
 * resume, at once), `upload.dismissed` (the row goes).
 *
 * Unfinished uploads this browser remembers (a reload, a closed tab) are looked up at the start
 * (`findRemembered` reports `remembered.found`) and offered: choosing the same file again resumes
 * it where the server's offset says; `remembered.forget` cancels one on the server.
 *
 * A video's poster is made by the server after its upload was answered: for a video stored
 * without one, a `watchPoster` child looks for it a few times, and `poster.ready` puts it in the list.
 *
 * Removing a file (beside any uploads):
 * idle ─(file.remove)→ confirmingRemoval ─(file.confirmRemove)→ removing ─(removed)→ idle
 *                         └─(file.cancelRemove)→ idle              └─(failed)→ idle (alert)
 */
import { assign, enqueueActions, fromPromise, setup, stopChild, type ActorRefFrom } from 'xstate';
import type { Media, MediaKind } from '../../schemas/media.ts';
import { toUiError } from '../../services/errors.ts';
import { getArtifact } from '../../services/artifactService.ts';
import { removeFromArtifact } from '../../services/mediaService.ts';
import { cancelUpload, findRemembered, isSameFile, type RememberedUpload } from '../../services/resumableUploads.ts';
import { posterWatcher, rememberedFinder } from './queueActors.ts';
import { effect } from '../shared/effect.ts';
import { uploadMachine, type UploadedMedia, type UploadReport } from './uploadMachine.ts';
import type { Notice } from '../shared/notice.ts';

/** How many uploads run at the same time. */
export const PARALLEL_UPLOADS = 1;

/** An artifact's files, by kind. */
export interface MediaByKind {
  images: Media[];
  videos: Media[];
  documents: Media[];
}

export interface UploadQueueInput {
  portfolioId: number;
  artifactId: number;
  media: MediaByKind;
  /** A shared artifact's files (the alt text of a file is kept per artifact, personal or shared). */
  shared?: boolean;
}

/** One row of the queue: its actor and where it stands for the scheduler. */
export interface UploadRow {
  id: string;
  name: string;
  status: 'waiting' | 'active' | 'paused' | 'succeeded' | 'failed';
  ref: ActorRefFrom<typeof uploadMachine>;
}

export interface UploadQueueContext {
  portfolioId: number;
  artifactId: number;
  shared: boolean;
  media: MediaByKind;
  rows: UploadRow[];
  /** Numbers the rows. */
  added: number;
  /** The file the user asked to remove. */
  removal: { kind: MediaKind; media: Media } | null;
  /** Unfinished uploads to this artifact that this browser remembers, offered to resume. */
  remembered: RememberedUpload[];
}

export type UploadQueueEvent =
  | { type: 'files.add'; files: readonly File[] }
  | { type: 'poster.ready'; media: Media }
  | { type: 'file.remove'; kind: MediaKind; fileId: number }
  | { type: 'file.confirmRemove' }
  | { type: 'file.cancelRemove' }
  | { type: 'remembered.found'; uploads: RememberedUpload[] }
  | { type: 'remembered.forget'; key: string }
  | UploadReport;

/** What the `removeFile` actor is given. */
export interface RemoveFileInput {
  portfolioId: number;
  artifactId: number;
  kind: MediaKind;
  fileId: number;
}

const rowStatus = (rows: readonly UploadRow[], id: string) => rows.find((row) => row.id === id)?.status;
const setStatus = (rows: readonly UploadRow[], id: string, status: UploadRow['status']) =>
  rows.map((row) => (row.id === id ? { ...row, status } : row));

export const uploadQueueMachine = setup({
  types: {
    context: {} as UploadQueueContext,
    events: {} as UploadQueueEvent,
    input: {} as UploadQueueInput,
    tags: {} as 'busy',
  },
  actors: {
    upload: uploadMachine,
    // Personal artifacts; the shared edit page provides the shared endpoint.
    removeFile: fromPromise<UploadedMedia, RemoveFileInput>(({ input, signal }) =>
      removeFromArtifact(input.portfolioId, input.artifactId, input.kind, input.fileId, signal),
    ),
    watchPoster: posterWatcher((artifactId, signal) => getArtifact(artifactId, signal)),
    findRemembered: rememberedFinder(findRemembered),
    forgetRemembered: fromPromise<void, { uploadUrl: string; key: string }>(({ input }) =>
      cancelUpload(input.uploadUrl, input.key),
    ),
  },
  guards: {
    hasFiles: (_, params: { files: readonly File[] }) => params.files.length > 0,
    isActive: ({ context }, params: { id: string }) => rowStatus(context.rows, params.id) === 'active',
    isStopped: ({ context }, params: { id: string }) => {
      const status = rowStatus(context.rows, params.id);
      return status === 'failed' || status === 'paused';
    },
    isRemembered: ({ context }, params: { key: string }) => context.remembered.some((r) => r.key === params.key),
    isRow: ({ context }, params: { id: string }) => rowStatus(context.rows, params.id) !== undefined,
    isListed: ({ context }, params: { kind: MediaKind; fileId: number }) =>
      context.media[params.kind].some((m) => m.id === params.fileId),
  },
  actions: {
    addRows: assign(({ context, spawn }, params: { files: readonly File[] }) => {
      const rows = params.files.map((file, index): UploadRow => {
        const id = `upload-${context.added + index + 1}`;
        return {
          id,
          name: file.name,
          status: 'waiting',
          ref: spawn('upload', {
            id,
            input: {
              id,
              file,
              target: context.shared ? 'sharedArtifact' : 'artifact',
              portfolioId: context.portfolioId,
              artifactId: context.artifactId,
            },
          }),
        };
      });
      // A remembered upload chosen again is resumed by its row: no longer offered.
      const remembered = context.remembered.filter((r) => !params.files.some((file) => isSameFile(file, r)));
      return { rows: [...context.rows, ...rows], added: context.added + rows.length, remembered };
    }),
    storeRemembered: assign({
      remembered: ({ context }, params: { uploads: RememberedUpload[] }) => [
        ...context.remembered,
        ...params.uploads.filter(
          (upload) =>
            !context.remembered.some((r) => r.key === upload.key) &&
            !context.rows.some((row) => {
              const file = row.ref.getSnapshot().context.file;
              return isSameFile(file, upload);
            }),
        ),
      ],
    }),
    forgetRemembered: enqueueActions(({ context, enqueue }, params: { key: string }) => {
      const upload = context.remembered.find((r) => r.key === params.key);
      if (!upload) return;
      enqueue.spawnChild('forgetRemembered', {
        id: `forget-${params.key}`,
        input: { uploadUrl: upload.uploadUrl, key: upload.key },
      });
      enqueue.assign({ remembered: context.remembered.filter((r) => r.key !== params.key) });
    }),
    startNext: enqueueActions(({ context, enqueue }) => {
      let free = PARALLEL_UPLOADS - context.rows.filter((row) => row.status === 'active').length;
      const starting: string[] = [];
      for (const row of context.rows) {
        if (free <= 0) break;
        if (row.status !== 'waiting') continue;
        starting.push(row.id);
        free -= 1;
        enqueue.sendTo(row.ref, { type: 'upload.start' });
      }
      if (starting.length > 0) {
        enqueue.assign({
          rows: context.rows.map((row) => (starting.includes(row.id) ? { ...row, status: 'active' as const } : row)),
        });
      }
    }),
    markRow: assign({
      rows: ({ context }, params: { id: string; status: UploadRow['status'] }) =>
        setStatus(context.rows, params.id, params.status),
    }),
    watchPosterOf: enqueueActions(({ context, enqueue }, params: { kind: MediaKind; media: Media }) => {
      if (params.kind !== 'videos' || params.media.formats) return;
      enqueue.spawnChild('watchPoster', {
        id: `poster-${params.media.id}`,
        input: { artifactId: context.artifactId, mediaId: params.media.id },
      });
    }),
    addMedia: assign({
      media: ({ context }, params: { kind: MediaKind; media: Media }) => ({
        ...context.media,
        [params.kind]: [...context.media[params.kind].filter((m) => m.id !== params.media.id), params.media],
      }),
    }),
    dropRow: enqueueActions(({ context, enqueue }, params: { id: string }) => {
      const row = context.rows.find((r) => r.id === params.id);
      if (row) enqueue.stopChild(row.ref);
      enqueue.assign({ rows: context.rows.filter((r) => r.id !== params.id) });
    }),
    storeRemoval: assign({
      removal: ({ context }, params: { kind: MediaKind; fileId: number }) => {
        const media = context.media[params.kind].find((m) => m.id === params.fileId);
        return media ? { kind: params.kind, media } : null;
      },
    }),
    clearRemoval: assign({ removal: null }),
    dropRemovedMedia: assign({
      media: ({ context }) => {
        const { removal } = context;
        if (!removal) return context.media;
        return {
          ...context.media,
          [removal.kind]: context.media[removal.kind].filter((m) => m.id !== removal.media.id),
        };
      },
      removal: null,
    }),
    /**
     * Alerts a failure (provided by the app). Written as a function of the action's arguments:
     * beside the `enqueueActions` above, a ready-made `effect<…>()` would stop TypeScript inferring
     * the other actions' params.
     */
    notify: (_args, _notice: Notice<'error'>): void => effect('notify')(),
  },
}).createMachine({
  id: 'uploadQueue',
  context: ({ input }) => ({
    portfolioId: input.portfolioId,
    artifactId: input.artifactId,
    shared: input.shared ?? false,
    media: input.media,
    rows: [],
    added: 0,
    removal: null,
    remembered: [],
  }),
  invoke: {
    id: 'findRemembered',
    src: 'findRemembered',
    input: ({ context }) => ({
      target: context.shared ? ('sharedArtifact' as const) : ('artifact' as const),
      portfolioId: context.portfolioId,
      artifactId: context.artifactId,
    }),
  },
  on: {
    'remembered.found': {
      actions: { type: 'storeRemembered', params: ({ event }) => ({ uploads: event.uploads }) },
    },
    'remembered.forget': {
      guard: { type: 'isRemembered', params: ({ event }) => ({ key: event.key }) },
      actions: { type: 'forgetRemembered', params: ({ event }) => ({ key: event.key }) },
    },
    'files.add': {
      guard: { type: 'hasFiles', params: ({ event }) => ({ files: event.files }) },
      actions: [{ type: 'addRows', params: ({ event }) => ({ files: event.files }) }, 'startNext'],
    },
    'upload.succeeded': {
      guard: { type: 'isActive', params: ({ event }) => ({ id: event.id }) },
      actions: [
        { type: 'markRow', params: ({ event }) => ({ id: event.id, status: 'succeeded' }) },
        { type: 'addMedia', params: ({ event }) => ({ kind: event.kind, media: event.media }) },
        { type: 'watchPosterOf', params: ({ event }) => ({ kind: event.kind, media: event.media }) },
        'startNext',
      ],
    },
    'poster.ready': {
      guard: { type: 'isListed', params: ({ event }) => ({ kind: 'videos' as const, fileId: event.media.id }) },
      actions: [
        { type: 'addMedia', params: ({ event }) => ({ kind: 'videos' as const, media: event.media }) },
        stopChild(({ event }) => `poster-${event.media.id}`),
      ],
    },
    'upload.failed': {
      guard: { type: 'isActive', params: ({ event }) => ({ id: event.id }) },
      actions: [{ type: 'markRow', params: ({ event }) => ({ id: event.id, status: 'failed' }) }, 'startNext'],
    },
    'upload.paused': {
      guard: { type: 'isActive', params: ({ event }) => ({ id: event.id }) },
      actions: [{ type: 'markRow', params: ({ event }) => ({ id: event.id, status: 'paused' }) }, 'startNext'],
    },
    'upload.restarted': {
      guard: { type: 'isStopped', params: ({ event }) => ({ id: event.id }) },
      actions: { type: 'markRow', params: ({ event }) => ({ id: event.id, status: 'active' }) },
    },
    'upload.dismissed': {
      guard: { type: 'isRow', params: ({ event }) => ({ id: event.id }) },
      actions: [{ type: 'dropRow', params: ({ event }) => ({ id: event.id }) }, 'startNext'],
    },
  },
  initial: 'idle',
  states: {
    idle: {
      on: {
        'file.remove': {
          guard: { type: 'isListed', params: ({ event }) => ({ kind: event.kind, fileId: event.fileId }) },
          target: 'confirmingRemoval',
          actions: { type: 'storeRemoval', params: ({ event }) => ({ kind: event.kind, fileId: event.fileId }) },
        },
      },
    },
    confirmingRemoval: {
      on: {
        'file.confirmRemove': 'removing',
        'file.cancelRemove': { target: 'idle', actions: 'clearRemoval' },
      },
    },
    removing: {
      tags: ['busy'],
      invoke: {
        id: 'removeFile',
        src: 'removeFile',
        input: ({ context }) => ({
          portfolioId: context.portfolioId,
          artifactId: context.artifactId,
          kind: context.removal!.kind,
          fileId: context.removal!.media.id,
        }),
        onDone: { target: 'idle', actions: 'dropRemovedMedia' },
        onError: {
          target: 'idle',
          actions: [
            'clearRemoval',
            { type: 'notify', params: ({ event }) => ({ message: toUiError(event.error).message, tone: 'error' }) },
          ],
        },
      },
    },
  },
});

export type UploadQueueMachine = typeof uploadQueueMachine;
export type UploadQueueRef = ActorRefFrom<typeof uploadQueueMachine>;
