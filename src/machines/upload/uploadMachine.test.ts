import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, setup, waitFor } from 'xstate';
import { ApiError, NetworkError } from '../../services/errors.ts';
import { makeArtifact, makeMedia } from '../../test/artifactFixtures.ts';
import { uploadMachine, type UploadedMedia, type UploadFileInput, type UploadReport } from './uploadMachine.ts';

const photo = makeMedia('images', { id: 77 });
const file = new File(['x'], 'ramp.png', { type: 'image/png' });

/** One upload inside a parent that records what the upload reports. */
function start(answers: (() => Promise<UploadedMedia>)[], progress: number[] = []) {
  const reported: UploadReport[] = [];
  const sent: { portfolioId: number; artifactId: number; name: string }[] = [];
  const upload = uploadMachine.provide({
    actors: {
      uploadFile: fromPromise<UploadedMedia, UploadFileInput>(({ input }) => {
        sent.push({ portfolioId: input.portfolioId, artifactId: input.artifactId, name: input.file.name });
        for (const fraction of progress) input.onProgress(fraction);
        return (answers.shift() ?? (async () => photo))();
      }),
    },
  });
  const parent = createActor(
    setup({
      types: { events: {} as UploadReport, children: {} as { upload: 'upload' } },
      actors: { upload },
    }).createMachine({
      invoke: { id: 'upload', src: 'upload', input: { id: 'row-1', file, portfolioId: 3, artifactId: 12 } },
      on: {
        'upload.succeeded': { actions: ({ event }) => reported.push(event) },
        'upload.failed': { actions: ({ event }) => reported.push(event) },
        'upload.restarted': { actions: ({ event }) => reported.push(event) },
        'upload.dismissed': { actions: ({ event }) => reported.push(event) },
      },
    }),
  ).start();
  const actor = parent.getSnapshot().children.upload!;
  return { actor, reported, sent };
}

describe('uploadMachine guards', () => {
  it('isRetryable: a refused file (413) may only be dismissed', async () => {
    const { actor, reported, sent } = start([() => Promise.reject(new ApiError(413, 'too_large', 'Too large.', ''))]);
    actor.send({ type: 'upload.start' });
    await waitFor(actor, (s) => s.matches('failed'));
    expect(actor.getSnapshot().context).toMatchObject({ error: 'Too large.', retryable: false });
    actor.send({ type: 'upload.retry' });
    expect(actor.getSnapshot().value).toBe('failed');
    expect(sent).toHaveLength(1);
    expect(reported).toEqual([{ type: 'upload.failed', id: 'row-1' }]);
  });

  it('isRetryable: a network failure may be tried again, which the queue is told', async () => {
    const { actor, reported, sent } = start([() => Promise.reject(new NetworkError())]);
    actor.send({ type: 'upload.start' });
    await waitFor(actor, (s) => s.matches('failed'));
    expect(actor.getSnapshot().context.retryable).toBe(true);
    actor.send({ type: 'upload.retry' });
    expect(actor.getSnapshot().context).toMatchObject({ error: null, retryable: false, progress: 0 });
    await waitFor(actor, (s) => s.matches('done'));
    expect(sent).toHaveLength(2);
    expect(reported.map((r) => r.type)).toEqual(['upload.failed', 'upload.restarted', 'upload.succeeded']);
  });
});

describe('uploadMachine actions', () => {
  it('the kind comes from the file; the stored file is reported without its artifact', async () => {
    const { actor, reported, sent } = start([async () => ({ ...photo, parentArtifact: makeArtifact({ id: 12 }) })]);
    expect(actor.getSnapshot().context.kind).toBe('images');
    actor.send({ type: 'upload.start' });
    await waitFor(actor, (s) => s.matches('done'));
    expect(sent).toEqual([{ portfolioId: 3, artifactId: 12, name: 'ramp.png' }]);
    expect(actor.getSnapshot().context).toMatchObject({ media: photo, progress: 1 });
    expect(reported).toEqual([{ type: 'upload.succeeded', id: 'row-1', kind: 'images', media: photo }]);
  });

  it('progress is kept between 0 and 1', () => {
    const { actor } = start([() => new Promise<UploadedMedia>(() => {})], [0.4, 1.7]);
    actor.send({ type: 'upload.start' });
    expect(actor.getSnapshot().context.progress).toBe(1);
    actor.send({ type: 'upload.progress', fraction: -0.2 });
    expect(actor.getSnapshot().context.progress).toBe(0);
  });

  it('dismissing a running upload ends it and tells the queue', () => {
    const { actor, reported } = start([() => new Promise<UploadedMedia>(() => {})]);
    actor.send({ type: 'upload.start' });
    actor.send({ type: 'upload.dismiss' });
    expect(actor.getSnapshot().status).toBe('done');
    expect(reported).toEqual([{ type: 'upload.dismissed', id: 'row-1' }]);
  });
});
