import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { fromPromise } from 'xstate';
import { controllableActor } from '../../../tests/model/support/deferred.ts';
import type { EditableArtifact } from '../../machines/artifactLifecycle/artifactSelectors.ts';
// The typed failures the services throw, which the machines turn into messages.
// oxlint-disable-next-line no-restricted-imports
import { ApiError, NetworkError } from '../../services/errors.ts';
import { makeArtifact, makeMedia } from '../../test/artifactFixtures.ts';
import { renderArtifactEdit } from '../../test/artifactEditHarness.tsx';
import { controllableConnection, controllableRemembered, controllableTransfers } from '../../test/fakeTransfers.ts';
import { clearToasts } from '../feedback/toastStore.ts';

afterEach(clearToasts);

const MB = 1024 * 1024;
/** A video of 100 MB as the browser reports it (its bytes are never read: the transfer is a fake). */
const video = () =>
  Object.defineProperty(new File(['x'], 'lesson.mp4', { type: 'video/mp4' }), 'size', { value: 100 * MB });
const URL_OF_LESSON = '/api/v1/uploads/tus/lesson';

async function renderRows() {
  const artifact = makeArtifact({ id: 12, portfolio: { id: 7 } });
  const transfers = controllableTransfers();
  const connection = controllableConnection();
  const terminate = controllableActor<void, { uploadUrl: string }>();
  const remembered = controllableRemembered();
  renderArtifactEdit({
    fakes: {
      fetchArtifact: fromPromise<EditableArtifact, { artifactId: number }>(async () => artifact),
      transfer: transfers.logic,
      watchConnection: connection.logic,
      terminate: terminate.logic,
      findRemembered: remembered.find,
      forgetRemembered: remembered.forget,
    },
  });
  const chooser = (await screen.findByLabelText('Choose files')) as HTMLInputElement;
  return { transfers, connection, terminate, remembered, chooser, ux: userEvent.setup(), artifact };
}

const row = () => within(screen.getByRole('listitem', { name: 'lesson.mp4' }));
const button = (name: string) => row().getByRole('button', { name: `${name} upload of lesson.mp4` });

describe('an upload’s controls', () => {
  it('shows the bytes, the speed and the time left as the server takes the file', async () => {
    const h = await renderRows();
    await h.ux.upload(h.chooser, video());
    await h.transfers.progress('lesson.mp4', 10 * MB, 0);
    expect(row().getByText('10.0 MB of 100.0 MB')).toBeTruthy();
    await h.transfers.progress('lesson.mp4', 30 * MB, 2000);
    expect(row().getByText('30.0 MB of 100.0 MB · 10.0 MB/s · 7 s left')).toBeTruthy();
    expect(row().getByRole('progressbar', { name: 'Uploading lesson.mp4' }).getAttribute('aria-valuenow')).toBe('30');
  });

  it('Pause stops the transfer and keeps the progress; Resume sends again from the server’s offset', async () => {
    const h = await renderRows();
    await h.ux.upload(h.chooser, video());
    await h.transfers.progress('lesson.mp4', 40 * MB);
    await h.ux.click(button('Pause'));
    expect(h.transfers.running).toEqual([]);
    expect(row().getByText('Paused · 40.0 MB of 100.0 MB')).toBeTruthy();
    expect(row().queryByRole('button', { name: 'Pause upload of lesson.mp4' })).toBeNull();
    await h.ux.click(button('Resume'));
    expect(h.transfers.started).toEqual(['lesson.mp4', 'lesson.mp4']);
    expect(row().getByRole('progressbar', { name: 'Uploading lesson.mp4' })).toBeTruthy();
  });

  it('a lost connection is told, and the upload goes on by itself when it is back (or at Retry now)', async () => {
    const h = await renderRows();
    await h.ux.upload(h.chooser, video());
    await h.transfers.send('lesson.mp4', { type: 'transfer.retrying' });
    expect(row().getByRole('status').textContent).toBe('Connection lost. Trying again…');
    await h.transfers.failed('lesson.mp4', new NetworkError());
    expect(row().getByRole('status').textContent).toMatch(/goes on by itself when the connection is back/);
    await h.connection.back();
    expect(h.transfers.started).toEqual(['lesson.mp4', 'lesson.mp4']);
    await h.transfers.failed('lesson.mp4', new NetworkError());
    await h.ux.click(button('Retry'));
    expect(h.transfers.started).toHaveLength(3);
  });

  it('a failure that may pass offers Retry; a refusal says why and offers only Dismiss', async () => {
    const h = await renderRows();
    await h.ux.upload(h.chooser, video());
    const busy = new ApiError(503, 'unavailable', 'The server is busy.', '');
    await h.transfers.failed('lesson.mp4', busy);
    expect(row().getByRole('alert').textContent).toBe('The server is busy.');
    await h.ux.click(button('Retry'));
    const quota = new ApiError(413, 'storage_full', 'Your files would take more than your storage limit.', '');
    await h.transfers.failed('lesson.mp4', quota);
    expect(row().getByRole('alert').textContent).toBe(quota.message);
    expect(row().queryByRole('button', { name: 'Retry upload of lesson.mp4' })).toBeNull();
    expect(button('Dismiss')).toBeTruthy();
  });

  it('Cancel deletes the upload on the server, then the row goes', async () => {
    const h = await renderRows();
    await h.ux.upload(h.chooser, video());
    await h.transfers.created('lesson.mp4', URL_OF_LESSON);
    await h.ux.click(button('Cancel'));
    expect(row().getByText('Cancelling…')).toBeTruthy();
    expect((button('Cancel') as HTMLButtonElement).disabled).toBe(true);
    expect(h.terminate.calls.map((c) => c.input)).toEqual([{ uploadUrl: URL_OF_LESSON }]);
    await act(async () => h.terminate.next().deferred.resolve(undefined));
    expect(screen.queryByRole('listitem', { name: 'lesson.mp4' })).toBeNull();
  });

  it('offers an unfinished upload from before; the same file resumes it, Discard cancels it', async () => {
    const h = await renderRows();
    const lesson = { key: 'tus::a', name: 'lesson.mp4', size: 100 * MB, sent: 52 * MB, uploadUrl: URL_OF_LESSON };
    const other = { key: 'tus::b', name: 'other.mp4', size: 5 * MB, sent: null, uploadUrl: '/api/v1/uploads/tus/b' };
    await h.remembered.found([lesson, other]);
    const offers = within(screen.getByRole('list', { name: 'Unfinished uploads' }));
    expect(offers.getByRole('listitem', { name: 'Unfinished: lesson.mp4' }).textContent).toContain(
      'Stopped at 52% (52.0 MB of 100.0 MB).Choose this file again to resume its upload.',
    );
    await h.ux.click(offers.getByRole('button', { name: 'Discard unfinished upload of other.mp4' }));
    expect(h.remembered.forgotten).toEqual(['tus::b']);
    await h.ux.upload(h.chooser, video());
    expect(screen.queryByRole('list', { name: 'Unfinished uploads' })).toBeNull();
    expect(h.transfers.running.map((t) => t.input.file.name)).toEqual(['lesson.mp4']);
    await h.transfers.stored('lesson.mp4', {
      ...makeMedia('videos', { name: 'lesson.mp4' }),
      parentArtifact: h.artifact,
    });
    expect(row().getByText('Uploaded')).toBeTruthy();
  });
});
