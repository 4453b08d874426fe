import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, fromPromise, setup, type EventObject } from 'xstate';
import { ApiError, NetworkError } from '../../services/errors.ts';
import { makeArtifact, makeMedia } from '../../test/artifactFixtures.ts';
import type { TransferInput, TransferReport } from './transferActors.ts';
import { uploadMachine, type UploadReport } from './uploadMachine.ts';

const photo = makeMedia('images', { id: 77 });
const file = new File(['x'.repeat(1000)], 'ramp.png', { type: 'image/png' });

/** One upload inside a parent that records what the upload reports; its transfers answer by hand. */
function start() {
  const reported: UploadReport[] = [];
  const transfers: { input: TransferInput; report: (event: TransferReport) => void; stopped: boolean }[] = [];
  const terminated: string[] = [];
  let connection: ((event: EventObject) => void) | null = null;
  const upload = uploadMachine.provide({
    actors: {
      transfer: fromCallback<EventObject, TransferInput>(({ input, sendBack }) => {
        const transfer = { input, report: (event: TransferReport) => sendBack(event), stopped: false };
        transfers.push(transfer);
        return () => {
          transfer.stopped = true;
        };
      }),
      watchConnection: fromCallback<EventObject>(({ sendBack }) => {
        connection = sendBack;
        return () => {
          connection = null;
        };
      }),
      terminate: fromPromise<void, { uploadUrl: string }>(async ({ input }) => {
        terminated.push(input.uploadUrl);
      }),
    },
  });
  const parent = createActor(
    setup({
      types: { events: {} as UploadReport, children: {} as { upload: 'upload' } },
      actors: { upload },
    }).createMachine({
      invoke: {
        id: 'upload',
        src: 'upload',
        input: { id: 'row-1', file, target: 'sharedArtifact', portfolioId: 3, artifactId: 12 },
      },
      on: {
        'upload.succeeded': { actions: ({ event }) => reported.push(event) },
        'upload.failed': { actions: ({ event }) => reported.push(event) },
        'upload.paused': { actions: ({ event }) => reported.push(event) },
        'upload.restarted': { actions: ({ event }) => reported.push(event) },
        'upload.dismissed': { actions: ({ event }) => reported.push(event) },
      },
    }),
  ).start();
  const actor = parent.getSnapshot().children.upload!;
  const last = () => transfers.at(-1)!;
  return {
    actor,
    reported,
    transfers,
    terminated,
    last,
    connectionBack: () => connection?.({ type: 'connection.back' }),
  };
}

describe('uploadMachine guards', () => {
  it('isRetryable: a refused file (413) may only be dismissed', () => {
    const { actor, reported, transfers, last } = start();
    actor.send({ type: 'upload.start' });
    last().report({ type: 'transfer.failed', error: new ApiError(413, 'storage_full', 'No room left.', '') });
    expect(actor.getSnapshot().value).toBe('failed');
    expect(actor.getSnapshot().context).toMatchObject({ error: 'No room left.', retryable: false });
    actor.send({ type: 'upload.retry' });
    expect(actor.getSnapshot().value).toBe('failed');
    expect(transfers).toHaveLength(1);
    expect(reported).toEqual([{ type: 'upload.failed', id: 'row-1' }]);
  });

  it('isRetryable: a server failure may be tried again, which the queue is told', () => {
    const { actor, reported, transfers, last } = start();
    actor.send({ type: 'upload.start' });
    last().report({ type: 'transfer.failed', error: new ApiError(503, 'unavailable', 'Busy.', '') });
    actor.send({ type: 'upload.retry' });
    expect(actor.getSnapshot().value).toBe('uploading');
    expect(actor.getSnapshot().context).toMatchObject({ error: null, retryable: false });
    last().report({ type: 'transfer.stored', answer: photo });
    expect(transfers).toHaveLength(2);
    expect(reported.map((r) => r.type)).toEqual(['upload.failed', 'upload.restarted', 'upload.succeeded']);
  });

  it('isNetworkFailure: a lost connection waits and resumes by itself, without telling the queue', () => {
    const { actor, reported, transfers, last, connectionBack } = start();
    actor.send({ type: 'upload.start' });
    last().report({ type: 'transfer.failed', error: new NetworkError() });
    expect(actor.getSnapshot().value).toBe('offline');
    connectionBack();
    expect(actor.getSnapshot().value).toBe('uploading');
    expect(transfers).toHaveLength(2);
    expect(reported).toEqual([]);
  });

  it('hasUploadUrl: cancelling an upload the server created deletes it there; before that it only goes', async () => {
    const created = start();
    created.actor.send({ type: 'upload.start' });
    created.last().report({ type: 'transfer.url', uploadUrl: '/api/v1/uploads/tus/abc' });
    created.actor.send({ type: 'upload.dismiss' });
    expect(created.last().stopped).toBe(true);
    await Promise.resolve();
    expect(created.terminated).toEqual(['/api/v1/uploads/tus/abc']);
    expect(created.reported).toEqual([{ type: 'upload.dismissed', id: 'row-1' }]);
    const fresh = start();
    fresh.actor.send({ type: 'upload.start' });
    fresh.actor.send({ type: 'upload.dismiss' });
    expect(fresh.actor.getSnapshot().status).toBe('done');
    expect(fresh.terminated).toEqual([]);
  });
});

describe('uploadMachine actions', () => {
  it('the kind and target go to the transfer; the stored file is reported without its artifact', () => {
    const { actor, reported, last } = start();
    expect(actor.getSnapshot().context.kind).toBe('images');
    actor.send({ type: 'upload.start' });
    expect(last().input).toEqual({ target: 'sharedArtifact', portfolioId: 3, artifactId: 12, file, kind: 'images' });
    last().report({ type: 'transfer.stored', answer: { ...photo, parentSharedArtifact: makeArtifact({ id: 12 }) } });
    expect(actor.getSnapshot().context).toMatchObject({ media: photo, progress: 1, sent: 1000 });
    expect(reported).toEqual([{ type: 'upload.succeeded', id: 'row-1', kind: 'images', media: photo }]);
  });

  it('progress keeps the bytes, and the speed measured over a second at least, smoothed', () => {
    const { actor, last } = start();
    actor.send({ type: 'upload.start' });
    const progress = (sent: number, at: number) => last().report({ type: 'transfer.progress', sent, total: 1000, at });
    progress(100, 0);
    progress(150, 500);
    expect(actor.getSnapshot().context).toMatchObject({ sent: 150, progress: 0.15, rate: null });
    progress(300, 1000);
    expect(actor.getSnapshot().context.rate).toBe(200);
    progress(700, 2000);
    // 400 B/s measured, blended with the 200 before.
    expect(actor.getSnapshot().context.rate).toBeCloseTo(260);
  });

  it('a broken connection is shown until bytes go through again', () => {
    const { actor, last } = start();
    actor.send({ type: 'upload.start' });
    last().report({ type: 'transfer.retrying' });
    expect(actor.getSnapshot().context.reconnecting).toBe(true);
    last().report({ type: 'transfer.progress', sent: 10, total: 1000, at: 0 });
    expect(actor.getSnapshot().context.reconnecting).toBe(false);
  });

  it('pausing stops the transfer and frees the queue; resuming starts a new one at once', () => {
    const { actor, reported, transfers, last } = start();
    actor.send({ type: 'upload.start' });
    actor.send({ type: 'upload.pause' });
    expect(actor.getSnapshot().value).toBe('paused');
    expect(last().stopped).toBe(true);
    actor.send({ type: 'upload.resume' });
    expect(transfers).toHaveLength(2);
    expect(reported.map((r) => r.type)).toEqual(['upload.paused', 'upload.restarted']);
  });
});
