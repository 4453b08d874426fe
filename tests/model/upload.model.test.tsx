import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { fromCallback, fromPromise, type EventObject } from 'xstate';
import {
  uploadMachine,
  type UploadedMedia,
  type UploadEvent,
  type UploadFileInput,
} from '../../src/machines/upload/uploadMachine.ts';
import {
  uploadQueueMachine,
  type PosterWatchInput,
  type RemoveFileInput,
  type UploadQueueEvent,
} from '../../src/machines/upload/uploadQueueMachine.ts';
import type { EditableArtifact } from '../../src/machines/artifactLifecycle/artifactSelectors.ts';
import type { Media } from '../../src/schemas/media.ts';
import { ApiError, NetworkError } from '../../src/services/errors.ts';
import { makeArtifact, makeMedia } from '../../src/test/artifactFixtures.ts';
import { renderArtifactEdit } from '../../src/test/artifactEditHarness.tsx';
import { clearToasts } from '../../src/views/feedback/toastStore.ts';
import { REMOVE_FILE_QUESTION } from '../../src/views/artifacts/UploadsArea.tsx';
import { checkStates } from './support/checkStates.ts';
import { coverageInspector, createPathModel, modelEvents, trackMachine } from './support/coverage.ts';
import { controllableActor, deferred, type Deferred } from './support/deferred.ts';
import { reportCoverageAfterAll } from './support/report.ts';
import { mediaLabel } from '../../src/machines/artifactLifecycle/artifactSelectors.ts';

const uploadCoverage = trackMachine(uploadMachine);
const queueCoverage = trackMachine(uploadQueueMachine);
reportCoverageAfterAll(uploadCoverage);
reportCoverageAfterAll(queueCoverage);
afterEach(clearToasts);

type UploadSnapshot = ReturnType<typeof uploadMachine.getInitialSnapshot>;
type QueueSnapshot = ReturnType<typeof uploadQueueMachine.getInitialSnapshot>;

const one = new File([new Uint8Array([137, 80, 78, 71])], 'one.png', { type: 'image/png' });
const two = new File([new Uint8Array([0, 0, 0, 24])], 'two.mp4', { type: 'video/mp4' });
const existing = makeMedia('images', { id: 41, caption: 'A', name: 'ramp.png' });
const artifact = makeArtifact({ id: 12, portfolio: { id: 7 }, images: [existing], nextCaption: 'B' });
/** What the server stores for each chosen file. */
const STORED: Record<string, Media> = {
  'one.png': makeMedia('images', { id: 51, caption: 'B', name: 'one.png' }),
  'two.mp4': makeMedia('videos', { id: 52, caption: 'C', name: 'two.mp4' }),
};
const NAMES: Record<string, string> = { 'upload-1': 'one.png', 'upload-2': 'two.mp4' };
/** The video as the server reads it once its poster is made (after the upload's answer). */
const WITH_POSTER: Media = {
  ...STORED['two.mp4']!,
  formats: { thumbnail: { ...STORED['one.png']!.formats!.thumbnail!, url: '/uploads/thumbnail_two.jpg' } },
};
const offline = new NetworkError();
const tooLarge = new ApiError(413, 'too_large', 'This file is larger than the upload limit.', '');
const gone = new ApiError(404, 'not_found', 'Artifact not found.', '');

const stored = (media: Media): UploadedMedia => ({ ...media, parentArtifact: artifact });

/** The edit page with the artifact loaded, its uploads and removals answered by the test. */
/**
 * Upload calls the test settles by hand; a call whose request is cancelled (its signal aborted,
 * as when a running upload is dismissed) leaves the list.
 */
function controllableUploads() {
  const calls: { input: UploadFileInput; deferred: Deferred<UploadedMedia> }[] = [];
  const logic = fromPromise<UploadedMedia, UploadFileInput>(({ input, signal }) => {
    const call = { input, deferred: deferred<UploadedMedia>() };
    calls.push(call);
    signal.addEventListener('abort', () => calls.splice(calls.indexOf(call), 1), { once: true });
    return call.deferred.promise;
  });
  return { logic, calls };
}

/** Posters the test hands over by hand: the video's watcher, by its id, while it looks. */
function controllablePosters() {
  const watchers = new Map<number, { input: PosterWatchInput; send: (event: UploadQueueEvent) => void }>();
  const logic = fromCallback<EventObject, PosterWatchInput>(({ input, sendBack }) => {
    watchers.set(input.mediaId, { input, send: sendBack });
    return () => watchers.delete(input.mediaId);
  });
  return { logic, watchers };
}

async function setup() {
  const uploadFile = controllableUploads();
  const removeFile = controllableActor<UploadedMedia, RemoveFileInput>();
  const posters = controllablePosters();
  const rendered = renderArtifactEdit({
    fakes: {
      fetchArtifact: fromPromise<EditableArtifact, { artifactId: number }>(async () => artifact),
      uploadFile: uploadFile.logic,
      removeFile: removeFile.logic,
      watchPoster: posters.logic,
    },
    inspect: coverageInspector,
  });
  const chooser = (await screen.findByLabelText('Choose files')) as HTMLInputElement;
  const ux = userEvent.setup();
  /** The pending upload of a file, taken out of the list of calls. */
  const take = (name: string) => {
    const index = uploadFile.calls.findIndex((c) => c.input.file.name === name);
    if (index < 0) throw new Error(`No upload of ${name} is running`);
    return uploadFile.calls.splice(index, 1)[0]!;
  };
  const pending = (name: string) => uploadFile.calls.find((c) => c.input.file.name === name);
  return { ...rendered, uploadFile, removeFile, posters, chooser, ux, take, pending };
}

const rowOf = (name: string) => screen.queryByRole('listitem', { name });
const tiles = () =>
  within(screen.getByRole('list', { name: 'Uploaded files' }))
    .getAllByRole('link')
    .map((a) => a.textContent);
/** Where a row stands, as the page shows it. */
function shownRow(name: string): string {
  const element = rowOf(name);
  if (!element) return 'absent';
  if (within(element).queryByText('Waiting to upload')) return 'waiting';
  if (within(element).queryByRole('progressbar')) return 'active';
  if (within(element).queryByText('Uploaded')) return 'succeeded';
  if (
    within(element).queryByText(offline.message) &&
    within(element).queryByRole('button', { name: `Retry upload of ${name}` })
  )
    return 'failed';
  return 'unknown';
}
const alerts = () =>
  screen
    .queryAllByRole('alert')
    .map((a) => a.textContent ?? '')
    .join(' | ');

async function dismiss(ux: ReturnType<typeof userEvent.setup>, name: string) {
  const button =
    screen.queryByRole('button', { name: `Cancel upload of ${name}` }) ??
    screen.getByRole('button', { name: `Dismiss upload of ${name}` });
  await ux.click(button);
}

function describeSteps(path: { state: { value: unknown }; steps: readonly { event: { type: string } }[] }): string {
  const events = path.steps.slice(1).map(({ event }) => {
    const e = event as { type: string; id?: string; files?: File[]; fraction?: number; error?: ApiError };
    const detail =
      e.files?.map((f) => f.name).join(', ') ?? (e.id ? NAMES[e.id] : undefined) ?? e.fraction ?? e.error?.status;
    return `${e.type.replace('xstate.', '')}${detail !== undefined ? ` (${detail})` : ''}`;
  });
  return `reaches ${JSON.stringify(path.state.value)}: ${events.join(' → ') || 'start'}`;
}

describe('upload model (one file: the second of two chosen, so it starts queued)', () => {
  const userEvents: UploadEvent[] = [
    { type: 'upload.start' },
    { type: 'upload.progress', fraction: 0.5 },
    { type: 'upload.retry' },
    { type: 'upload.dismiss' },
  ];
  const actorEvents = {
    uploadFile: [
      { type: 'xstate.done.actor.uploadFile', output: stored(STORED['two.mp4']!) },
      { type: 'xstate.error.actor.uploadFile', error: tooLarge },
      { type: 'xstate.error.actor.uploadFile', error: offline },
    ],
  } as unknown as Record<string, UploadEvent[]>;
  // Path generation runs the machine alone: its reports to the queue (sendParent) have nobody to go to.
  const alone = uploadMachine.provide({
    actions: {
      reportSucceeded: () => undefined,
      reportFailed: () => undefined,
      reportRestarted: () => undefined,
      reportDismissed: () => undefined,
    },
  });
  const model = createPathModel(alone, {
    input: { id: 'upload-2', file: two, portfolioId: 7, artifactId: 12 },
    events: modelEvents(userEvents, actorEvents),
  });
  for (const path of model.getShortestPaths()) {
    it(`${describeSteps(path)}`, async () => {
      const h = await setup();
      await h.ux.upload(h.chooser, [one, two]);
      await path.test({
        states: checkStates<UploadSnapshot>({
          queued: () => {
            expect(within(rowOf('two.mp4')!).getByText('Waiting to upload')).toBeTruthy();
            expect(h.pending('two.mp4')).toBeUndefined();
          },
          uploading: async (state) => {
            const bar = await within(rowOf('two.mp4')!).findByRole('progressbar', { name: 'Uploading two.mp4' });
            expect(bar.getAttribute('aria-valuenow')).toBe(String(Math.round(state.context.progress * 100)));
            expect(h.pending('two.mp4')?.input).toMatchObject({ portfolioId: 7, artifactId: 12 });
          },
          done: async () => {
            expect(await within(rowOf('two.mp4')!).findByText('Uploaded')).toBeTruthy();
            expect(tiles()).toContain('two (video)');
          },
          failed: async (state) => {
            expect(await within(rowOf('two.mp4')!).findByText(state.context.error!)).toBeTruthy();
            // Retry only where it may succeed (the network); a refused file can only be dismissed.
            expect(screen.queryByRole('button', { name: 'Retry upload of two.mp4' }) !== null).toBe(
              state.context.error === offline.message,
            );
            // The row's message is the alert; no toast repeats it.
            expect(screen.getAllByRole('alert').filter((a) => a.textContent === state.context.error)).toHaveLength(1);
          },
          dismissed: async () => {
            await waitFor(() => expect(rowOf('two.mp4')).toBeNull());
          },
        }),
        events: {
          'upload.start': async () => {
            // The queue starts the second file when the first one is stored.
            await act(async () => h.take('one.png').deferred.resolve(stored(STORED['one.png']!)));
          },
          'upload.progress': async (step) => {
            const { fraction } = step.event as unknown as { fraction: number };
            act(() => h.pending('two.mp4')!.input.onProgress(fraction));
          },
          'xstate.done.actor.uploadFile': async (step) => {
            const { output } = step.event as unknown as { output: UploadedMedia };
            await act(async () => h.take('two.mp4').deferred.resolve(output));
          },
          'xstate.error.actor.uploadFile': async (step) => {
            const { error } = step.event as unknown as { error: unknown };
            await act(async () => h.take('two.mp4').deferred.reject(error));
          },
          'upload.retry': async () => {
            await h.ux.click(screen.getByRole('button', { name: 'Retry upload of two.mp4' }));
          },
          'upload.dismiss': async () => {
            await dismiss(h.ux, 'two.mp4');
          },
        },
      });
    });
  }
});

/** Upload events of the queue for the rows it has (a row reports only what its state allows). */
function rowEvents(snapshot: unknown): UploadQueueEvent[] {
  const rows = (snapshot as QueueSnapshot).context.rows;
  return rows.flatMap((row): UploadQueueEvent[] => [
    {
      type: 'upload.succeeded',
      id: row.id,
      kind: row.id === 'upload-1' ? 'images' : 'videos',
      media: STORED[row.name]!,
    },
    { type: 'upload.failed', id: row.id },
    { type: 'upload.restarted', id: row.id },
    { type: 'upload.dismissed', id: row.id },
  ]);
}

describe('uploadQueue model: uploads (two files chosen at once)', () => {
  const model = createPathModel(uploadQueueMachine, {
    input: { portfolioId: 7, artifactId: 12, media: { images: [existing], videos: [], documents: [] } },
    events: (snapshot) => {
      const s = snapshot as QueueSnapshot;
      const add: UploadQueueEvent[] = s.context.added === 0 ? [{ type: 'files.add', files: [one, two] }] : [];
      // The video's poster, once its watcher looks (it is stored without one).
      const poster: UploadQueueEvent[] = s.context.media.videos.some((v) => v.id === WITH_POSTER.id && !v.formats)
        ? [{ type: 'poster.ready', media: WITH_POSTER }]
        : [];
      return [...add, ...rowEvents(snapshot), ...poster].filter((event) => s.can(event));
    },
  });
  for (const path of model.getShortestPaths()) {
    it(`${describeSteps(path)}`, async () => {
      const h = await setup();
      await path.test({
        states: checkStates<QueueSnapshot>({
          idle: async (state) => {
            const { rows, media } = state.context;
            expect(screen.queryByRole('alertdialog')).toBeNull();
            const names = ['one.png', 'two.mp4'];
            const expectedRows = names.map((name) => rows.find((r) => r.name === name)?.status ?? 'absent');
            await waitFor(() => expect(names.map(shownRow)).toEqual(expectedRows));
            const expected = [
              ...media.images.map((m) => mediaLabel(m)),
              ...media.videos.map((m) => `${mediaLabel(m)} (video)`),
            ];
            await waitFor(() => expect(tiles()).toEqual(expected));
            // Images show their picture; a video its poster once the server has made it.
            const pictures = media.images.length + media.videos.filter((v) => v.formats).length;
            const list = screen.queryByRole('list', { name: 'Uploaded files' });
            await waitFor(() => expect(list ? list.querySelectorAll('img').length : 0).toBe(pictures));
            const watching = media.videos.filter((v) => !v.formats).map((v) => v.id);
            expect([...h.posters.watchers.values()].map((w) => w.input)).toEqual(
              watching.map((mediaId) => ({ artifactId: 12, mediaId })),
            );
            const running = rows.filter((r) => r.status === 'active').map((r) => r.name);
            expect(h.uploadFile.calls.map((c) => c.input.file.name).sort()).toEqual(running.sort());
          },
        }),
        events: {
          'files.add': async (step) => {
            const { files } = step.event as unknown as { files: File[] };
            await h.ux.upload(h.chooser, files);
          },
          'upload.succeeded': async (step) => {
            const { id, media } = step.event as unknown as { id: string; media: Media };
            await act(async () => h.take(NAMES[id]!).deferred.resolve(stored(media)));
          },
          'upload.failed': async (step) => {
            const { id } = step.event as unknown as { id: string };
            // A failure that may pass (Retry is offered for it).
            await act(async () => h.take(NAMES[id]!).deferred.reject(offline));
          },
          'upload.restarted': async (step) => {
            const { id } = step.event as unknown as { id: string };
            await h.ux.click(screen.getByRole('button', { name: `Retry upload of ${NAMES[id]}` }));
          },
          'upload.dismissed': async (step) => {
            const { id } = step.event as unknown as { id: string };
            await dismiss(h.ux, NAMES[id]!);
          },
          'poster.ready': async (step) => {
            const { media } = step.event as unknown as { media: Media };
            act(() => h.posters.watchers.get(media.id)!.send({ type: 'poster.ready', media }));
          },
        },
      });
    });
  }
});

describe('uploadQueue model: removing a file', () => {
  const userEvents: UploadQueueEvent[] = [
    { type: 'file.remove', kind: 'images', fileId: existing.id },
    { type: 'file.confirmRemove' },
    { type: 'file.cancelRemove' },
  ];
  const actorEvents = {
    removeFile: [
      { type: 'xstate.done.actor.removeFile', output: stored(existing) },
      { type: 'xstate.error.actor.removeFile', error: gone },
    ],
  } as unknown as Record<string, UploadQueueEvent[]>;
  const model = createPathModel(uploadQueueMachine, {
    input: { portfolioId: 7, artifactId: 12, media: { images: [existing], videos: [], documents: [] } },
    events: modelEvents(userEvents, actorEvents),
  });
  for (const path of model.getShortestPaths()) {
    it(`${describeSteps(path)}`, async () => {
      const h = await setup();
      await path.test({
        states: checkStates<QueueSnapshot>({
          idle: async (state) => {
            await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
            const listed = state.context.media.images.map((m) => mediaLabel(m));
            expect(screen.queryByRole('list', { name: 'Uploaded files' }) ? tiles() : []).toEqual(listed);
          },
          confirmingRemoval: async () => {
            const dialog = await screen.findByRole('alertdialog', { name: 'Delete File' });
            expect(dialog.textContent).toContain(REMOVE_FILE_QUESTION);
            expect((within(dialog).getByRole('button', { name: 'YES' }) as HTMLButtonElement).disabled).toBe(false);
          },
          removing: async () => {
            const dialog = screen.getByRole('alertdialog', { name: 'Delete File' });
            expect((within(dialog).getByRole('button', { name: 'YES' }) as HTMLButtonElement).disabled).toBe(true);
            expect(h.removeFile.calls[0]!.input).toEqual({
              portfolioId: 7,
              artifactId: 12,
              kind: 'images',
              fileId: existing.id,
            });
          },
        }),
        events: {
          'file.remove': async () => {
            await h.ux.click(screen.getByRole('button', { name: 'Delete ramp' }));
          },
          'file.confirmRemove': async () => {
            await h.ux.click(screen.getByRole('button', { name: 'YES' }));
          },
          'file.cancelRemove': async () => {
            await h.ux.click(screen.getByRole('button', { name: 'NO' }));
          },
          'xstate.done.actor.removeFile': async (step) => {
            const { output } = step.event as unknown as { output: UploadedMedia };
            await act(async () => h.removeFile.next().deferred.resolve(output));
          },
          'xstate.error.actor.removeFile': async (step) => {
            const { error } = step.event as unknown as { error: unknown };
            await act(async () => h.removeFile.next().deferred.reject(error));
            await waitFor(() => expect(alerts()).toContain(gone.message));
          },
        },
      });
    });
  }
});
