import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, fromPromise, waitFor, type EventObject } from 'xstate';
import { ApiError } from '../../services/errors.ts';
import { makeMedia } from '../../test/artifactFixtures.ts';
import type { Notice } from '../shared/notice.ts';
import type { RememberedUpload, TransferTarget } from '../../services/resumableUploads.ts';
import type { TransferInput, TransferReport } from './transferActors.ts';
import { uploadMachine, type UploadedMedia } from './uploadMachine.ts';
import { uploadQueueMachine, type RemoveFileInput, type UploadQueueEvent } from './uploadQueueMachine.ts';

const kept = makeMedia('documents', { id: 5 });
const refusal = new ApiError(409, 'conflict', 'The file is in use.', '');
const png = (name: string) => new File(['x'], name, { type: 'image/png' });

/** The queue with uploads that finish when the test says so (`finish(name)` / `fail(name)`). */
function start(removeFails = false) {
  const notices: Notice[] = [];
  const started: string[] = [];
  const removed: RemoveFileInput[] = [];
  const pending = new Map<string, (event: TransferReport) => void>();
  const forgotten: string[] = [];
  let remember: ((event: UploadQueueEvent) => void) | null = null;
  const upload = uploadMachine.provide({
    actors: {
      transfer: fromCallback<EventObject, TransferInput>(({ input, sendBack }) => {
        started.push(input.file.name);
        pending.set(input.file.name, sendBack);
      }),
    },
  });
  const actor = createActor(
    uploadQueueMachine.provide({
      actors: {
        upload,
        removeFile: fromPromise<UploadedMedia, RemoveFileInput>(async ({ input }) => {
          removed.push(input);
          if (removeFails) throw refusal;
          return kept;
        }),
        findRemembered: fromCallback<EventObject, TransferTarget>(({ sendBack }) => {
          remember = sendBack;
        }),
        forgetRemembered: fromPromise<void, { uploadUrl: string; key: string }>(async ({ input }) => {
          forgotten.push(input.key);
        }),
      },
      actions: { notify: (_, notice) => notices.push(notice) },
    }),
    { input: { portfolioId: 3, artifactId: 12, media: { images: [], videos: [], documents: [kept] } } },
  ).start();
  const finish = (name: string, id: number) =>
    pending.get(name)!({ type: 'transfer.stored', answer: makeMedia('images', { id }) });
  const fail = (name: string) =>
    pending.get(name)!({ type: 'transfer.failed', error: new ApiError(413, 'too_large', 'Too large.', '') });
  const found = (uploads: RememberedUpload[]) => remember!({ type: 'remembered.found', uploads });
  return { actor, notices, started, removed, finish, fail, found, forgotten };
}

const statuses = (actor: ReturnType<typeof start>['actor']) =>
  actor.getSnapshot().context.rows.map((row) => `${row.name} ${row.status}`);

describe('uploadQueueMachine guards', () => {
  it('hasFiles: choosing no file adds no row', () => {
    const { actor } = start();
    actor.send({ type: 'files.add', files: [] });
    expect(actor.getSnapshot().context.rows).toEqual([]);
  });

  it('isActive: uploads run one at a time in the order chosen; a failure lets the next one start', async () => {
    const { actor, started, finish, fail } = start();
    actor.send({ type: 'files.add', files: [png('a.png'), png('b.png'), png('c.png')] });
    expect(started).toEqual(['a.png']);
    expect(statuses(actor)).toEqual(['a.png active', 'b.png waiting', 'c.png waiting']);
    finish('a.png', 41);
    await waitFor(actor, () => started.length === 2);
    fail('b.png');
    await waitFor(actor, () => started.length === 3);
    expect(statuses(actor)).toEqual(['a.png succeeded', 'b.png failed', 'c.png active']);
    expect(actor.getSnapshot().context.media.images.map((m) => m.id)).toEqual([41]);
  });

  it('isStopped: a paused upload lets the next one start; resuming it runs beside it', () => {
    const { actor, started } = start();
    actor.send({ type: 'files.add', files: [png('a.png'), png('b.png')] });
    const a = actor.getSnapshot().context.rows[0]!.ref;
    a.send({ type: 'upload.pause' });
    expect(statuses(actor)).toEqual(['a.png paused', 'b.png active']);
    a.send({ type: 'upload.resume' });
    expect(statuses(actor)).toEqual(['a.png active', 'b.png active']);
    expect(started).toEqual(['a.png', 'b.png', 'a.png']);
  });

  it('isRemembered: only an offered upload can be discarded, once', () => {
    const { actor, found, forgotten } = start();
    found([{ key: 'k1', name: 'clip.mp4', size: 10, sent: 4, uploadUrl: '/api/v1/uploads/tus/k1' }]);
    actor.send({ type: 'remembered.forget', key: 'k2' });
    actor.send({ type: 'remembered.forget', key: 'k1' });
    actor.send({ type: 'remembered.forget', key: 'k1' });
    expect(forgotten).toEqual(['k1']);
    expect(actor.getSnapshot().context.remembered).toEqual([]);
  });

  it('isListed: a file not in the list cannot be removed', () => {
    const { actor } = start();
    actor.send({ type: 'file.remove', kind: 'images', fileId: 5 });
    expect(actor.getSnapshot().value).toBe('idle');
    expect(actor.getSnapshot().context.removal).toBeNull();
  });
});

describe('uploadQueueMachine actions', () => {
  it('dismissing a waiting row drops it; the next waiting one starts after the running one', async () => {
    const { actor, started, finish } = start();
    actor.send({ type: 'files.add', files: [png('a.png'), png('b.png'), png('c.png')] });
    actor.getSnapshot().context.rows[1]!.ref.send({ type: 'upload.dismiss' });
    expect(statuses(actor)).toEqual(['a.png active', 'c.png waiting']);
    finish('a.png', 41);
    await waitFor(actor, () => started.length === 2);
    expect(started).toEqual(['a.png', 'c.png']);
  });

  it('a remembered upload is offered until the same file is chosen again', () => {
    const { actor, found } = start();
    const clip = new File(['0123456789'], 'clip.mp4', { type: 'video/mp4' });
    const other = { key: 'k2', name: 'other.mp4', size: 3, sent: null, uploadUrl: '/api/v1/uploads/tus/k2' };
    found([{ key: 'k1', name: 'clip.mp4', size: 10, sent: 4, uploadUrl: '/api/v1/uploads/tus/k1' }, other]);
    actor.send({ type: 'files.add', files: [clip] });
    expect(actor.getSnapshot().context.remembered).toEqual([other]);
    expect(statuses(actor)).toEqual(['clip.mp4 active']);
  });

  it('a confirmed removal sends the file and drops it from the list', async () => {
    const { actor, removed } = start();
    actor.send({ type: 'file.remove', kind: 'documents', fileId: 5 });
    actor.send({ type: 'file.confirmRemove' });
    await waitFor(actor, (s) => s.matches('idle'));
    expect(removed).toEqual([{ portfolioId: 3, artifactId: 12, kind: 'documents', fileId: 5 }]);
    expect(actor.getSnapshot().context.media.documents).toEqual([]);
  });

  it('a refused removal keeps the file and alerts the server message', async () => {
    const { actor, notices } = start(true);
    actor.send({ type: 'file.remove', kind: 'documents', fileId: 5 });
    actor.send({ type: 'file.confirmRemove' });
    await waitFor(actor, (s) => s.matches('idle'));
    expect(notices).toEqual([{ message: 'The file is in use.', tone: 'error' }]);
    expect(actor.getSnapshot().context).toMatchObject({ media: { documents: [kept] }, removal: null });
  });
});
