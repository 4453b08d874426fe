import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { Note } from '../../schemas/moments.ts';
import { ApiError, NetworkError } from '../../services/errors.ts';
import { artifactNotesMachine } from './artifactNotesMachine.ts';

const note = (id: number, media: number, start: number): Note => ({
  id,
  artifact: 31,
  media,
  start,
  end: null,
  text: `Note ${id}`,
  created_at: '2026-11-01T10:00:00.000Z',
  updated_at: '2026-11-01T10:00:00.000Z',
});

function start(list: () => Promise<Note[]>, remove: () => Promise<Note> = async () => note(2, 5, 10)) {
  const deleted: number[] = [];
  const actor = createActor(
    artifactNotesMachine.provide({
      actors: {
        listNotes: fromPromise<Note[], { artifactId: number }>(() => list()),
        deleteNote: fromPromise<Note, { noteId: number }>(({ input }) => {
          deleted.push(input.noteId);
          return remove();
        }),
      },
    }),
    { input: { artifactId: 31 } },
  ).start();
  return { actor, deleted };
}

describe('artifactNotesMachine guards', () => {
  it('isListed: only a listed note can be deleted', async () => {
    const { actor } = start(async () => [note(2, 5, 10)]);
    await waitFor(actor, (s) => s.matches('ready'));
    expect(actor.getSnapshot().can({ type: 'note.delete', noteId: 3 })).toBe(false);
    expect(actor.getSnapshot().can({ type: 'note.delete', noteId: 2 })).toBe(true);
  });
});

describe('artifactNotesMachine actions', () => {
  it('storeNotes sorts the notes by video, then moment, then id', async () => {
    const { actor } = start(async () => [note(4, 6, 0), note(3, 5, 20), note(2, 5, 10), note(1, 5, 20)]);
    await waitFor(actor, (s) => s.matches('ready'));
    expect(actor.getSnapshot().context.notes.map((n) => n.id)).toEqual([2, 1, 3, 4]);
  });

  it('storeError keeps a failed load; a retry that succeeds clears it', async () => {
    const answers = [() => Promise.reject(new NetworkError()), async () => [note(2, 5, 10)]];
    const { actor } = start(() => answers.shift()!());
    await waitFor(actor, (s) => s.matches('failed'));
    expect(actor.getSnapshot().context.error).toMatchObject({ kind: 'network' });
    actor.send({ type: 'retry' });
    await waitFor(actor, (s) => s.matches('ready'));
    expect(actor.getSnapshot().context.error).toBeNull();
  });

  it('markDeleting / dropDeleted: the deleted note, and only it, leaves the list', async () => {
    const { actor, deleted } = start(async () => [note(2, 5, 10), note(3, 5, 20)]);
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'note.delete', noteId: 2 });
    expect(actor.getSnapshot().context.deletingId).toBe(2);
    await waitFor(actor, (s) => s.matches('ready'));
    expect(deleted).toEqual([2]);
    expect(actor.getSnapshot().context.notes.map((n) => n.id)).toEqual([3]);
    expect(actor.getSnapshot().context.deletingId).toBeNull();
  });

  it('a refused delete keeps the note, shows the message and forgets the note being deleted', async () => {
    const { actor } = start(
      async () => [note(2, 5, 10)],
      () => Promise.reject(new ApiError(403, 'forbidden', 'Not your note.', '')),
    );
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'note.delete', noteId: 2 });
    await waitFor(actor, (s) => s.matches('ready'));
    expect(actor.getSnapshot().context.notes.map((n) => n.id)).toEqual([2]);
    expect(actor.getSnapshot().context.error).toEqual({ kind: 'forbidden', status: 403, message: 'Not your note.' });
    expect(actor.getSnapshot().context.deletingId).toBeNull();
  });

  it('a refresh keeps the listed notes while loading again', async () => {
    const answers = [async () => [note(2, 5, 10)], () => new Promise<Note[]>(() => {})];
    const { actor } = start(() => answers.shift()!());
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'notes.refresh' });
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    expect(actor.getSnapshot().context.notes.map((n) => n.id)).toEqual([2]);
  });
});
