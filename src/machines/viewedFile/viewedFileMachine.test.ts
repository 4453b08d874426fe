import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { ViewedFile } from '../../schemas/media.ts';
import { viewedFileMachine, type ViewedFileInput } from './viewedFileMachine.ts';

const file: ViewedFile = {
  name: 'ramp-photo.jpg',
  alt: 'A marble on a ramp',
  artifact: { kind: 'personal', id: 12, portfolioId: 3, title: 'Ramp races' },
};

function start(input: ViewedFileInput, answer: () => Promise<ViewedFile> = async () => file) {
  const asked: unknown[] = [];
  const actor = createActor(
    viewedFileMachine.provide({
      actors: {
        fetchViewedFile: fromPromise<ViewedFile, { capability: string; name: string }>(({ input }) => {
          asked.push(input);
          return answer();
        }),
      },
    }),
    { input },
  ).start();
  return { actor, asked };
}

describe('viewedFileMachine guards', () => {
  it.each([
    ['no capability', { capability: null, name: 'abc.jpg' }],
    ['a blank capability', { capability: '', name: 'abc.jpg' }],
    ['a blank name', { capability: 'cap', name: '' }],
  ])('isKnownAlready: %s asks nothing', (_, input) => {
    const { actor, asked } = start(input);
    expect(actor.getSnapshot().value).toBe('skipped');
    expect(asked).toEqual([]);
  });

  it('isKnownAlready: a capability and a name are looked up', async () => {
    const { actor, asked } = start({ capability: 'cap', name: 'abc.jpg' });
    expect(actor.getSnapshot().value).toBe('loading');
    await waitFor(actor, (s) => s.status === 'done');
    expect(asked).toEqual([{ capability: 'cap', name: 'abc.jpg' }]);
  });
});

describe('viewedFileMachine actions', () => {
  it('keeps the file the server describes', async () => {
    const { actor } = start({ capability: 'cap', name: 'abc.jpg' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(actor.getSnapshot().value).toBe('known');
    expect(actor.getSnapshot().context.file).toEqual(file);
  });

  it('keeps nothing when the lookup fails', async () => {
    const { actor } = start({ capability: 'cap', name: 'abc.jpg' }, () => Promise.reject(new Error('nope')));
    await waitFor(actor, (s) => s.status === 'done');
    expect(actor.getSnapshot().value).toBe('unknown');
    expect(actor.getSnapshot().context.file).toBeNull();
  });
});
