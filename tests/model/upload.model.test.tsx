import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { uploadMachine, type UploadedMedia, type UploadEvent } from '../../src/machines/upload/uploadMachine.ts';
import { uploadQueueMachine, type UploadQueueEvent } from '../../src/machines/upload/uploadQueueMachine.ts';
import type { RememberedUpload } from '../../src/services/resumableUploads.ts';
import type { Media } from '../../src/schemas/media.ts';
import { clearToasts } from '../../src/views/feedback/toastStore.ts';
import { REMOVE_FILE_QUESTION } from '../../src/views/artifacts/UploadsArea.tsx';
import { checkStates } from './support/checkStates.ts';
import { createPathModel, modelEvents, trackMachine } from './support/coverage.ts';
import { reportCoverageAfterAll } from './support/report.ts';
import { mediaLabel } from '../../src/machines/artifactLifecycle/artifactSelectors.ts';
import {
  type UploadSnapshot,
  type QueueSnapshot,
  one,
  two,
  existing,
  STORED,
  NAMES,
  WITH_POSTER,
  offline,
  tooLarge,
  busy,
  TWO_URL,
  REMEMBERED_TWO,
  REMEMBERED_OLD,
  gone,
  stored,
  setup,
  rowOf,
  tiles,
  shownRow,
  alerts,
  click,
  dismiss,
  describeSteps,
} from './support/uploadPage.tsx';

const uploadCoverage = trackMachine(uploadMachine);
const queueCoverage = trackMachine(uploadQueueMachine);
reportCoverageAfterAll(uploadCoverage);
reportCoverageAfterAll(queueCoverage);
afterEach(clearToasts);

describe('upload model (one file: the second of two chosen, so it starts queued)', () => {
  const userEvents: UploadEvent[] = [
    { type: 'upload.start' },
    { type: 'upload.pause' },
    { type: 'upload.resume' },
    { type: 'upload.retry' },
    { type: 'upload.dismiss' },
  ];
  const actorEvents = {
    // What tus-js-client reports: the upload created, half the bytes held, a drop it retries, the end.
    transfer: (snapshot: UploadSnapshot) => [
      ...(snapshot.context.uploadUrl === null ? [{ type: 'transfer.url', uploadUrl: TWO_URL }] : []),
      { type: 'transfer.progress', sent: 2, total: 4, at: 0 },
      { type: 'transfer.retrying' },
      { type: 'transfer.stored', answer: stored(STORED['two.mp4']!) },
      { type: 'transfer.failed', error: tooLarge },
      { type: 'transfer.failed', error: busy },
      { type: 'transfer.failed', error: offline },
    ],
    watchConnection: [{ type: 'connection.back' }],
    terminate: [{ type: 'xstate.done.actor.terminate' }, { type: 'xstate.error.actor.terminate', error: busy }],
  } as unknown as Record<string, UploadEvent[] | ((snapshot: UploadSnapshot) => UploadEvent[])>;
  // Path generation runs the machine alone: its reports to the queue (sendParent) have nobody to go to.
  const alone = uploadMachine.provide({
    actions: {
      reportSucceeded: () => undefined,
      reportFailed: () => undefined,
      reportPaused: () => undefined,
      reportRestarted: () => undefined,
      reportDismissed: () => undefined,
    },
  });
  const model = createPathModel(alone, {
    input: { id: 'upload-2', file: two, target: 'artifact', portfolioId: 7, artifactId: 12 },
    events: modelEvents(userEvents, actorEvents),
  });
  const row = () => within(rowOf('two.mp4')!);
  for (const path of model.getShortestPaths()) {
    it(`${describeSteps(path)}`, async () => {
      const h = await setup();
      await h.ux.upload(h.chooser, [one, two]);
      const running = () => h.transfers.pending('two.mp4');
      await path.test({
        states: checkStates<UploadSnapshot>({
          queued: () => {
            expect(row().getByText('Waiting to upload')).toBeTruthy();
            expect(running()).toBeUndefined();
          },
          uploading: async (state) => {
            const bar = await row().findByRole('progressbar', { name: 'Uploading two.mp4' });
            expect(bar.getAttribute('aria-valuenow')).toBe(String(Math.floor(state.context.progress * 100)));
            expect(row().getByText(/^1 KB of 1 KB/)).toBeTruthy();
            expect(running()?.input).toMatchObject({ target: 'artifact', portfolioId: 7, artifactId: 12 });
            expect(row().queryByText('Connection lost. Trying again…') !== null).toBe(state.context.reconnecting);
            expect(row().getByRole('button', { name: 'Pause upload of two.mp4' })).toBeTruthy();
          },
          offline: async () => {
            expect(await row().findByText(/Connection lost\. The upload goes on by itself/)).toBeTruthy();
            expect(running()).toBeUndefined();
            expect(h.connection.waiting.size).toBe(1);
            expect(row().getByRole('button', { name: 'Retry upload of two.mp4' }).textContent).toBe('Retry now');
          },
          paused: async (state) => {
            const bar = await row().findByRole('progressbar', { name: 'Paused two.mp4' });
            expect(bar.getAttribute('aria-valuenow')).toBe(String(Math.floor(state.context.progress * 100)));
            expect(running()).toBeUndefined();
            expect(row().getByRole('button', { name: 'Resume upload of two.mp4' })).toBeTruthy();
            expect(row().queryByRole('button', { name: 'Pause upload of two.mp4' })).toBeNull();
          },
          done: async () => {
            expect(await row().findByText('Uploaded')).toBeTruthy();
            expect(tiles()).toContain('two (video)');
          },
          failed: async (state) => {
            expect(await row().findByText(state.context.error!)).toBeTruthy();
            // Retry only where it may succeed (the server failing); a refused file can only be dismissed.
            expect(row().queryByRole('button', { name: 'Retry upload of two.mp4' }) !== null).toBe(
              state.context.error === busy.message,
            );
            // The row's message is the alert; no toast repeats it.
            expect(screen.getAllByRole('alert').filter((a) => a.textContent === state.context.error)).toHaveLength(1);
          },
          cancelling: async () => {
            expect(await row().findByText('Cancelling…')).toBeTruthy();
            expect(running()).toBeUndefined();
            expect(h.terminate.calls.map((c) => c.input)).toEqual([{ uploadUrl: TWO_URL }]);
          },
          dismissed: async () => {
            await waitFor(() => expect(rowOf('two.mp4')).toBeNull());
            expect(running()).toBeUndefined();
          },
        }),
        events: {
          'upload.start': async () => {
            // The queue starts the second file when the first one is stored.
            await h.transfers.stored('one.png', stored(STORED['one.png']!));
          },
          'upload.pause': async () => click(h.ux, 'Pause upload of two.mp4'),
          'upload.resume': async () => click(h.ux, 'Resume upload of two.mp4'),
          'upload.retry': async () => click(h.ux, 'Retry upload of two.mp4'),
          'upload.dismiss': async () => dismiss(h.ux, 'two.mp4'),
          'transfer.url': async () => h.transfers.created('two.mp4', TWO_URL),
          'transfer.progress': async (step) => {
            const { sent } = step.event as unknown as { sent: number };
            await h.transfers.progress('two.mp4', sent);
          },
          'transfer.retrying': async () => h.transfers.send('two.mp4', { type: 'transfer.retrying' }),
          'transfer.stored': async (step) => {
            const { answer } = step.event as unknown as { answer: UploadedMedia };
            await h.transfers.stored('two.mp4', answer);
          },
          'transfer.failed': async (step) => {
            const { error } = step.event as unknown as { error: unknown };
            await h.transfers.failed('two.mp4', error);
          },
          'connection.back': async () => h.connection.back(),
          'xstate.done.actor.terminate': async () => {
            await act(async () => h.terminate.next().deferred.resolve(undefined));
          },
          'xstate.error.actor.terminate': async (step) => {
            const { error } = step.event as unknown as { error: unknown };
            await act(async () => h.terminate.next().deferred.reject(error));
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
    { type: 'upload.paused', id: row.id },
    { type: 'upload.restarted', id: row.id },
    { type: 'upload.dismissed', id: row.id },
  ]);
}

describe('uploadQueue model: uploads (two files chosen at once, the video remembered from before a reload)', () => {
  const model = createPathModel(uploadQueueMachine, {
    input: { portfolioId: 7, artifactId: 12, media: { images: [existing], videos: [], documents: [] } },
    events: (snapshot) => {
      const s = snapshot as QueueSnapshot;
      const add: UploadQueueEvent[] = s.context.added === 0 ? [{ type: 'files.add', files: [one, two] }] : [];
      // After a reload: the lookup finds the video's unfinished upload, which may be discarded.
      const remembered: UploadQueueEvent[] =
        s.context.added === 0 && s.context.remembered.length === 0
          ? [{ type: 'remembered.found', uploads: [REMEMBERED_TWO, REMEMBERED_OLD] }]
          : s.context.remembered.map((r) => ({ type: 'remembered.forget', key: r.key }) as const);
      // The video's poster, once its watcher looks (it is stored without one).
      const poster: UploadQueueEvent[] = s.context.media.videos.some((v) => v.id === WITH_POSTER.id && !v.formats)
        ? [{ type: 'poster.ready', media: WITH_POSTER }]
        : [];
      return [...add, ...remembered, ...rowEvents(snapshot), ...poster].filter((event) => s.can(event));
    },
  });
  for (const path of model.getShortestPaths()) {
    it(`${describeSteps(path)}`, async () => {
      const h = await setup();
      await path.test({
        states: checkStates<QueueSnapshot>({
          idle: async (state) => {
            const { rows, media, remembered } = state.context;
            expect(screen.queryByRole('alertdialog')).toBeNull();
            // The offer to resume, until the same file is chosen again or the upload discarded.
            const offers = screen.queryByRole('list', { name: 'Unfinished uploads' });
            expect(
              offers
                ? within(offers)
                    .getAllByRole('listitem')
                    .map((li) => li.getAttribute('aria-label'))
                : [],
            ).toEqual(remembered.map((r) => `Unfinished: ${r.name}`));
            const told = { 'two.mp4': 'Stopped at 50% (1 KB of 1 KB).', 'old.mp4': 'Not finished (1 KB).' };
            expect(
              offers
                ? within(offers)
                    .getAllByRole('listitem')
                    .map((li) => li.textContent)
                : [],
            ).toEqual(remembered.map((r) => expect.stringContaining(`${r.name}${told[r.name as keyof typeof told]}`)));
            expect(h.remembered.asked).toEqual([{ target: 'artifact', portfolioId: 7, artifactId: 12 }]);
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
            expect(h.transfers.running.map((t) => t.input.file.name).sort()).toEqual(running.sort());
          },
        }),
        events: {
          'files.add': async (step) => {
            const { files } = step.event as unknown as { files: File[] };
            await h.ux.upload(h.chooser, files);
          },
          'remembered.found': async (step) => {
            const { uploads } = step.event as unknown as { uploads: RememberedUpload[] };
            await h.remembered.found(uploads);
          },
          'remembered.forget': async (step) => {
            const { key } = step.event as unknown as { key: string };
            const name = [REMEMBERED_TWO, REMEMBERED_OLD].find((r) => r.key === key)!.name;
            await click(h.ux, `Discard unfinished upload of ${name}`);
            expect(h.remembered.forgotten.at(-1)).toBe(key);
          },
          'upload.succeeded': async (step) => {
            const { id, media } = step.event as unknown as { id: string; media: Media };
            await h.transfers.stored(NAMES[id]!, stored(media));
          },
          'upload.failed': async (step) => {
            const { id } = step.event as unknown as { id: string };
            // A failure that may pass (Retry is offered for it).
            await h.transfers.failed(NAMES[id]!, busy);
          },
          'upload.paused': async (step) => {
            const { id } = step.event as unknown as { id: string };
            await click(h.ux, `Pause upload of ${NAMES[id]}`);
          },
          'upload.restarted': async (step) => {
            const { id } = step.event as unknown as { id: string };
            const resume = screen.queryByRole('button', { name: `Resume upload of ${NAMES[id]}` });
            await h.ux.click(resume ?? screen.getByRole('button', { name: `Retry upload of ${NAMES[id]}` }));
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
