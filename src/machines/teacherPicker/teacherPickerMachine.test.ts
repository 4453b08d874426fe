import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { User } from '../../schemas/user.ts';
import { NetworkError } from '../../services/errors.ts';
import { makeUser } from '../../test/renderApp.tsx';
import { teacherPickerMachine } from './teacherPickerMachine.ts';

const ada = makeUser('teacher', { id: 41, username: 'Ada Zeller' });
const ben = makeUser('teacher', { id: 42, username: 'Ben Abbott' });

function start(teacherId: number | null, ...answers: (() => Promise<User[]>)[]) {
  const shown: number[] = [];
  const actor = createActor(
    teacherPickerMachine.provide({
      actors: { listTeachers: fromPromise<User[]>(() => (answers.shift() ?? (async () => [ada, ben]))()) },
      actions: { showTeacher: (_, params) => shown.push(params.teacherId) },
    }),
    { input: { teacherId } },
  ).start();
  return { actor, shown };
}

describe('teacherPickerMachine guards', () => {
  it('isOtherTeacher: choosing the teacher already shown does nothing; another is shown', async () => {
    const { actor, shown } = start(41);
    await waitFor(actor, (s) => s.matches('ready'));
    expect(actor.getSnapshot().can({ type: 'teacher.select', teacherId: 41 })).toBe(false);
    actor.send({ type: 'teacher.select', teacherId: 42 });
    expect(shown).toEqual([42]);
    expect(actor.getSnapshot().context.teacherId).toBe(42);
  });

  it('isOtherTeacher: an address change to the same teacher is ignored, to another is followed', () => {
    const { actor } = start(41);
    expect(actor.getSnapshot().can({ type: 'route.change', teacherId: 41 })).toBe(false);
    actor.send({ type: 'route.change', teacherId: null });
    expect(actor.getSnapshot().context.teacherId).toBeNull();
  });
});

describe('teacherPickerMachine actions', () => {
  it('storeTeachers lists the teachers as Last, First, sorted', async () => {
    const { actor } = start(null);
    await waitFor(actor, (s) => s.matches('ready'));
    expect(actor.getSnapshot().context.teachers).toEqual([
      { id: 42, label: 'Abbott, Ben' },
      { id: 41, label: 'Zeller, Ada' },
    ]);
  });

  it('storeError keeps the failure; a successful retry clears it', async () => {
    const { actor } = start(null, () => Promise.reject(new NetworkError()));
    await waitFor(actor, (s) => s.matches('loadFailed'));
    expect(actor.getSnapshot().context.error).toEqual({
      kind: 'network',
      status: null,
      message: new NetworkError().message,
    });
    actor.send({ type: 'retry' });
    await waitFor(actor, (s) => s.matches('ready'));
    expect(actor.getSnapshot().context.error).toBeNull();
  });
});
