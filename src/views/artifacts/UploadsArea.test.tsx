import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { fromPromise } from 'xstate';
import { controllableActor } from '../../../tests/model/support/deferred.ts';
import type { UploadedMedia } from '../../machines/upload/uploadMachine.ts';
import type { RemoveFileInput } from '../../machines/upload/uploadQueueMachine.ts';
import type { EditableArtifact } from '../../machines/artifactLifecycle/artifactSelectors.ts';
import type { Artifact } from '../../schemas/artifact.ts';
import type { Media } from '../../schemas/media.ts';
// The typed failures the services throw, which the machines turn into messages.
// oxlint-disable-next-line no-restricted-imports
import { ApiError } from '../../services/errors.ts';
import { makeArtifact, makeMedia } from '../../test/artifactFixtures.ts';
import { renderArtifactEdit } from '../../test/artifactEditHarness.tsx';
import { controllableTransfers } from '../../test/fakeTransfers.ts';
import { clearToasts } from '../feedback/toastStore.ts';
import { REMOVE_FILE_QUESTION } from './UploadsArea.tsx';

afterEach(clearToasts);

const png = (name = 'photo.png') => new File([new Uint8Array([137, 80, 78, 71])], name, { type: 'image/png' });
const mp4 = (name = 'clip.mp4') => new File([new Uint8Array([0, 0, 0, 24])], name, { type: 'video/mp4' });

function stored(artifact: Artifact, media: Media): UploadedMedia {
  return { ...media, parentArtifact: artifact };
}

async function renderUploads(artifact = makeArtifact({ id: 12, portfolio: { id: 7 } })) {
  const transfers = controllableTransfers();
  const removeFile = controllableActor<UploadedMedia, RemoveFileInput>();
  const rendered = renderArtifactEdit({
    fakes: {
      fetchArtifact: fromPromise<EditableArtifact, { artifactId: number }>(async () => artifact),
      transfer: transfers.logic,
      removeFile: removeFile.logic,
    },
  });
  const chooser = (await screen.findByLabelText('Choose files')) as HTMLInputElement;
  return { ...rendered, artifact, transfers, removeFile, chooser, ux: userEvent.setup() };
}

/** The text of every alert on screen (the form's summary and the toasts). */
const alerts = () =>
  screen
    .getAllByRole('alert')
    .map((a) => a.textContent)
    .join(' | ');
const row = (name: string) => screen.getByRole('listitem', { name });
const uploaded = () => screen.queryByRole('list', { name: 'Uploaded files' });

describe('the uploads area', () => {
  it('uploads a chosen file with a progress bar, then lists it with its thumbnail and caption', async () => {
    const h = await renderUploads();
    await h.ux.upload(h.chooser, png());
    const call = h.transfers.running[0]!;
    expect(call.input).toMatchObject({ target: 'artifact', portfolioId: 7, artifactId: 12, kind: 'images' });
    expect(call.input.file.name).toBe('photo.png');
    const bar = within(row('photo.png')).getByRole('progressbar', { name: 'Uploading photo.png' });
    expect(bar.getAttribute('aria-valuenow')).toBe('0');
    // Four bytes: two of them held by the server.
    await h.transfers.progress('photo.png', 2);
    expect(bar.getAttribute('aria-valuenow')).toBe('50');
    expect(within(row('photo.png')).getByText('50%')).toBeTruthy();
    const media = makeMedia('images', { caption: 'A', name: 'photo.png', url: '/uploads/photo_77aa.png' });
    await h.transfers.stored('photo.png', stored(h.artifact, media));
    expect(within(row('photo.png')).getByText('Uploaded')).toBeTruthy();
    const tile = within(uploaded()!).getByRole('link', { name: 'photo' });
    expect(tile.getAttribute('href')).toBe('/images/uploads/photo_77aa.png');
    expect(tile.querySelector('img')!.getAttribute('src')).toBe(
      `${location.origin}/api/v1${media.formats!.thumbnail!.url}`,
    );
    await h.ux.click(screen.getByRole('button', { name: 'Dismiss upload of photo.png' }));
    expect(screen.queryByRole('listitem', { name: 'photo.png' })).toBeNull();
    expect(within(uploaded()!).getByRole('link', { name: 'photo' })).toBeTruthy();
  });

  it('shows a video with a video icon and a document with its icon and name', async () => {
    const h = await renderUploads();
    await h.ux.upload(h.chooser, [mp4(), new File(['x'], 'plan.pdf', { type: 'application/pdf' })]);
    await h.transfers.stored('clip.mp4', stored(h.artifact, makeMedia('videos', { caption: 'A', name: 'clip.mp4' })));
    await h.transfers.stored(
      'plan.pdf',
      stored(h.artifact, makeMedia('documents', { caption: 'B', name: 'plan.pdf' })),
    );
    const video = within(uploaded()!).getByRole('link', { name: 'clip (video)' });
    expect(video.querySelector('svg')).toBeTruthy();
    expect(video.getAttribute('href')).toMatch(/^\/videos\/uploads\//);
    const doc = within(uploaded()!).getByRole('link', { name: 'plan (PDF)' });
    expect(doc.querySelector('svg')).toBeTruthy();
    expect(doc.getAttribute('href')).toMatch(/\/api\/v1\/uploads\//);
  });

  it('uploads one file at a time, in the order chosen', async () => {
    const h = await renderUploads();
    await h.ux.upload(h.chooser, [png('one.png'), png('two.png')]);
    expect(h.transfers.running.map((t) => t.input.file.name)).toEqual(['one.png']);
    expect(within(row('two.png')).getByText('Waiting to upload')).toBeTruthy();
    await h.transfers.stored('one.png', stored(h.artifact, makeMedia('images', { caption: 'A', name: 'one.png' })));
    await waitFor(() => expect(h.transfers.running.map((t) => t.input.file.name)).toEqual(['two.png']));
    expect(within(row('two.png')).getByRole('progressbar')).toBeTruthy();
  });

  it('alerts the server’s refusal once, in the row, and offers no Retry that could never succeed', async () => {
    const h = await renderUploads();
    await h.ux.upload(h.chooser, png('big.png'));
    await h.transfers.failed('big.png', new ApiError(413, 'too_large', 'This file is larger than 100 MB.', ''));
    expect(within(row('big.png')).getByRole('alert').textContent).toBe('This file is larger than 100 MB.');
    expect(
      screen.getAllByRole('alert').filter((a) => a.textContent === 'This file is larger than 100 MB.'),
    ).toHaveLength(1);
    expect(uploaded()).toBeNull();
    expect(screen.queryByRole('button', { name: 'Retry upload of big.png' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Dismiss upload of big.png' })).toBeTruthy();
  });

  it('offers Retry when the server failed (it may pass), and Retry uploads again', async () => {
    const h = await renderUploads();
    await h.ux.upload(h.chooser, png('big.png'));
    const busy = new ApiError(503, 'unavailable', 'The server is busy. Please try again in a moment.', '');
    await h.transfers.failed('big.png', busy);
    expect(within(row('big.png')).getByRole('alert').textContent).toBe(busy.message);
    await h.ux.click(screen.getByRole('button', { name: 'Retry upload of big.png' }));
    expect(h.transfers.started).toEqual(['big.png', 'big.png']);
    expect(within(row('big.png')).getByRole('progressbar')).toBeTruthy();
    await h.transfers.stored('big.png', stored(h.artifact, makeMedia('images', { caption: 'A', name: 'big.png' })));
    expect(within(row('big.png')).getByText('Uploaded')).toBeTruthy();
  });

  it('a failed upload can be dismissed, and the next one starts', async () => {
    const h = await renderUploads();
    await h.ux.upload(h.chooser, [png('empty.png'), png('next.png')]);
    await h.transfers.failed('empty.png', new ApiError(400, 'empty_file', 'You cannot upload an empty file.', ''));
    await waitFor(() => expect(h.transfers.running.map((t) => t.input.file.name)).toEqual(['next.png']));
    await h.ux.click(screen.getByRole('button', { name: 'Dismiss upload of empty.png' }));
    expect(screen.queryByRole('listitem', { name: 'empty.png' })).toBeNull();
  });

  it('cancelling a running upload starts the next one', async () => {
    const h = await renderUploads();
    await h.ux.upload(h.chooser, [png('slow.png'), png('next.png')]);
    await h.ux.click(screen.getByRole('button', { name: 'Cancel upload of slow.png' }));
    expect(screen.queryByRole('listitem', { name: 'slow.png' })).toBeNull();
    await waitFor(() => expect(h.transfers.running.map((t) => t.input.file.name)).toEqual(['next.png']));
    expect(h.transfers.started).toEqual(['slow.png', 'next.png']);
  });

  it('takes files dropped on the area', async () => {
    const h = await renderUploads();
    const zone = screen.getByText(/or drop photos/).parentElement!;
    fireEvent.dragOver(zone, { dataTransfer: { files: [] } });
    fireEvent.drop(zone, { dataTransfer: { files: [png('dropped.png')] } });
    await waitFor(() => expect(h.transfers.running.map((t) => t.input.file.name)).toEqual(['dropped.png']));
    expect(row('dropped.png')).toBeTruthy();
  });

  it('deletes a file after “Are you sure you want to delete this file?”', async () => {
    const image = makeMedia('images', { id: 41, caption: 'A', name: 'ramp.png' });
    const doc = makeMedia('documents', { id: 42, caption: 'B', name: 'plan.pdf' });
    const h = await renderUploads(makeArtifact({ id: 12, portfolio: { id: 7 }, images: [image], documents: [doc] }));
    await h.ux.click(screen.getByRole('button', { name: 'Delete ramp' }));
    expect(screen.getByRole('alertdialog').textContent).toContain(REMOVE_FILE_QUESTION);
    await h.ux.click(screen.getByRole('button', { name: 'NO' }));
    expect(h.removeFile.calls).toHaveLength(0);
    await h.ux.click(screen.getByRole('button', { name: 'Delete ramp' }));
    await h.ux.click(screen.getByRole('button', { name: 'YES' }));
    expect(h.removeFile.calls[0]!.input).toEqual({ portfolioId: 7, artifactId: 12, kind: 'images', fileId: 41 });
    await act(async () => h.removeFile.next().deferred.resolve(stored(h.artifact, image)));
    expect(within(uploaded()!).queryByRole('link', { name: 'ramp' })).toBeNull();
    expect(within(uploaded()!).getByRole('link', { name: 'plan (PDF)' })).toBeTruthy();
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('keeps a file the server would not delete, and alerts why', async () => {
    const image = makeMedia('images', { id: 41, caption: 'A', name: 'ramp.png' });
    const h = await renderUploads(makeArtifact({ id: 12, portfolio: { id: 7 }, images: [image] }));
    await h.ux.click(screen.getByRole('button', { name: 'Delete ramp' }));
    await h.ux.click(screen.getByRole('button', { name: 'YES' }));
    await act(async () =>
      h.removeFile.next().deferred.reject(new ApiError(404, 'not_found', 'Artifact not found.', '')),
    );
    expect(alerts()).toContain('Artifact not found.');
    expect(within(uploaded()!).getByRole('link', { name: 'ramp' })).toBeTruthy();
  });
});
