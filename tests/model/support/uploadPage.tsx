/**
 * The artifact edit page with its upload queue as the upload model tests drive it: the fixtures,
 * the page set up with transfers the test answers, and where each row stands as the page shows it.
 */
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fromCallback, fromPromise, type EventObject } from 'xstate';
import type { PosterWatchInput } from '../../../src/machines/upload/queueActors.ts';
import type { uploadMachine, UploadedMedia } from '../../../src/machines/upload/uploadMachine.ts';
import type {
  uploadQueueMachine,
  RemoveFileInput,
  UploadQueueEvent,
} from '../../../src/machines/upload/uploadQueueMachine.ts';
import type { RememberedUpload } from '../../../src/services/resumableUploads.ts';
import {
  controllableConnection,
  controllableRemembered,
  controllableTransfers,
} from '../../../src/test/fakeTransfers.ts';
import type { EditableArtifact } from '../../../src/machines/artifactLifecycle/artifactSelectors.ts';
import type { Media } from '../../../src/schemas/media.ts';
import { ApiError, NetworkError } from '../../../src/services/errors.ts';
import { makeArtifact, makeMedia } from '../../../src/test/artifactFixtures.ts';
import { renderArtifactEdit } from '../../../src/test/artifactEditHarness.tsx';
import { coverageInspector } from './coverage.ts';
import { controllableActor } from './deferred.ts';

export type UploadSnapshot = ReturnType<typeof uploadMachine.getInitialSnapshot>;
export type QueueSnapshot = ReturnType<typeof uploadQueueMachine.getInitialSnapshot>;

export const one = new File([new Uint8Array([137, 80, 78, 71])], 'one.png', { type: 'image/png' });
export const two = new File([new Uint8Array([0, 0, 0, 24])], 'two.mp4', { type: 'video/mp4' });
export const existing = makeMedia('images', { id: 41, caption: 'A', name: 'ramp.png' });
export const artifact = makeArtifact({ id: 12, portfolio: { id: 7 }, images: [existing], nextCaption: 'B' });
/** What the server stores for each chosen file. */
export const STORED: Record<string, Media> = {
  'one.png': makeMedia('images', { id: 51, caption: 'B', name: 'one.png' }),
  'two.mp4': makeMedia('videos', { id: 52, caption: 'C', name: 'two.mp4' }),
};
export const NAMES: Record<string, string> = { 'upload-1': 'one.png', 'upload-2': 'two.mp4' };
/** The video as the server reads it once its poster is made (after the upload's answer). */
export const WITH_POSTER: Media = {
  ...STORED['two.mp4']!,
  formats: { thumbnail: { ...STORED['one.png']!.formats!.thumbnail!, url: '/uploads/thumbnail_two.jpg' } },
};
export const offline = new NetworkError();
export const tooLarge = new ApiError(413, 'too_large', 'This file is larger than the upload limit.', '');
export const busy = new ApiError(503, 'unavailable', 'The server is busy. Please try again in a moment.', '');
export const TWO_URL = '/api/v1/uploads/tus/two';
/** two.mp4 as this browser remembers it after a reload: half of it on the server. */
export const REMEMBERED_TWO: RememberedUpload = {
  key: 'tus::two',
  name: 'two.mp4',
  size: 4,
  sent: 2,
  uploadUrl: TWO_URL,
};
/** Another file's unfinished upload, whose offset the server could not tell. */
export const REMEMBERED_OLD: RememberedUpload = {
  key: 'tus::old',
  name: 'old.mp4',
  size: 9,
  sent: null,
  uploadUrl: '/api/v1/uploads/tus/old',
};
export const gone = new ApiError(404, 'not_found', 'Artifact not found.', '');

export const stored = (media: Media): UploadedMedia => ({ ...media, parentArtifact: artifact });

/** Posters the test hands over by hand: the video's watcher, by its id, while it looks. */
export function controllablePosters() {
  const watchers = new Map<number, { input: PosterWatchInput; send: (event: UploadQueueEvent) => void }>();
  const logic = fromCallback<EventObject, PosterWatchInput>(({ input, sendBack }) => {
    watchers.set(input.mediaId, { input, send: sendBack });
    return () => watchers.delete(input.mediaId);
  });
  return { logic, watchers };
}

/** The edit page with the artifact loaded, its transfers, removals and lookups answered by the test. */
export async function setup() {
  const transfers = controllableTransfers();
  const connection = controllableConnection();
  const terminate = controllableActor<void, { uploadUrl: string }>();
  const remembered = controllableRemembered();
  const removeFile = controllableActor<UploadedMedia, RemoveFileInput>();
  const posters = controllablePosters();
  const rendered = renderArtifactEdit({
    fakes: {
      fetchArtifact: fromPromise<EditableArtifact, { artifactId: number }>(async () => artifact),
      transfer: transfers.logic,
      watchConnection: connection.logic,
      terminate: terminate.logic,
      findRemembered: remembered.find,
      forgetRemembered: remembered.forget,
      removeFile: removeFile.logic,
      watchPoster: posters.logic,
    },
    inspect: coverageInspector,
  });
  const chooser = (await screen.findByLabelText('Choose files')) as HTMLInputElement;
  const ux = userEvent.setup();
  return { ...rendered, transfers, connection, terminate, remembered, removeFile, posters, chooser, ux };
}

export const rowOf = (name: string) => screen.queryByRole('listitem', { name });
export const tiles = () =>
  within(screen.getByRole('list', { name: 'Uploaded files' }))
    .getAllByRole('link')
    .map((a) => a.textContent);
/** Where a row stands, as the page shows it. */
export function shownRow(name: string): string {
  const element = rowOf(name);
  if (!element) return 'absent';
  if (within(element).queryByText('Waiting to upload')) return 'waiting';
  if (within(element).queryByRole('progressbar', { name: `Paused ${name}` })) return 'paused';
  if (within(element).queryByRole('progressbar')) return 'active';
  if (within(element).queryByText('Uploaded')) return 'succeeded';
  if (
    within(element).queryByText(busy.message) &&
    within(element).queryByRole('button', { name: `Retry upload of ${name}` })
  )
    return 'failed';
  return 'unknown';
}
export const alerts = () =>
  screen
    .queryAllByRole('alert')
    .map((a) => a.textContent ?? '')
    .join(' | ');

export async function click(ux: ReturnType<typeof userEvent.setup>, name: string) {
  await ux.click(screen.getByRole('button', { name }));
}

export async function dismiss(ux: ReturnType<typeof userEvent.setup>, name: string) {
  const button =
    screen.queryByRole('button', { name: `Cancel upload of ${name}` }) ??
    screen.getByRole('button', { name: `Dismiss upload of ${name}` });
  await ux.click(button);
}

export function describeSteps(path: {
  state: { value: unknown };
  steps: readonly { event: { type: string } }[];
}): string {
  const events = path.steps.slice(1).map(({ event }) => {
    const e = event as { type: string; id?: string; files?: File[]; sent?: number; error?: ApiError };
    const detail =
      e.files?.map((f) => f.name).join(', ') ??
      (e.id ? NAMES[e.id] : undefined) ??
      e.sent ??
      (e.error ? (e.error.status ?? 'network') : undefined);
    return `${e.type.replace('xstate.', '')}${detail !== undefined ? ` (${detail})` : ''}`;
  });
  return `reaches ${JSON.stringify(path.state.value)}: ${events.join(' → ') || 'start'}`;
}
