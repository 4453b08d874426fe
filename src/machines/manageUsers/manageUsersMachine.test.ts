import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { BackupStatus } from '../../schemas/backup.ts';
import type { User } from '../../schemas/user.ts';
import { NetworkError } from '../../services/errors.ts';
import { makeUser } from '../../test/renderApp.tsx';
import { backupStatusMachine } from '../backupStatus/backupStatusMachine.ts';
import { manageUsersMachine } from './manageUsersMachine.ts';

const researcher = makeUser('researcher', { id: 1, username: 'Rita Reyes' });
const users: User[] = [
  makeUser('teacher', { id: 3, username: 'zoe' }),
  researcher,
  makeUser('teacher', { id: 2, username: 'Ada' }),
];

function start(currentUser: typeof researcher | null = researcher, ...answers: (() => Promise<User[]>)[]) {
  let asked = 0;
  const actor = createActor(
    manageUsersMachine.provide({
      actors: {
        listUsers: fromPromise<User[]>(() => {
          asked += 1;
          return (answers.shift() ?? (async () => users))();
        }),
        backupStatus: backupStatusMachine.provide({
          actors: {
            fetchBackupStatus: fromPromise<BackupStatus>(async () => ({
              schedule: null,
              lastRun: null,
              running: null,
            })),
          },
        }),
      },
    }),
    { input: { currentUser } },
  ).start();
  return { actor, asked: () => asked };
}

const names = (actor: ReturnType<typeof start>['actor']) => actor.getSnapshot().context.rows.map((r) => r.username);

describe('manageUsersMachine guards', () => {
  it('canManageUsers: only a user with the manageUsers ability loads the list', () => {
    const teacher = start(makeUser('teacher'));
    expect(teacher.actor.getSnapshot().value).toBe('denied');
    expect(teacher.asked()).toBe(0);
    expect(start(null).actor.getSnapshot().value).toBe('denied');
    expect(start().actor.getSnapshot().value).toBe('loading');
  });
});

describe('manageUsersMachine children', () => {
  it('startBackupStatus: the backups’ status is loaded for those who may manage users, and for nobody else', () => {
    expect(start().actor.getSnapshot().children.backupStatus).toBeDefined();
    expect(start(makeUser('teacher')).actor.getSnapshot().children.backupStatus).toBeUndefined();
  });
});

describe('manageUsersMachine actions', () => {
  it('storeUsers: rows sorted by name, each with its switch; only the signed-in user’s is marked self', async () => {
    const { actor } = start();
    await waitFor(actor, (s) => s.matches('ready'));
    expect(names(actor)).toEqual(['Ada', 'Rita Reyes', 'zoe']);
    const self = actor.getSnapshot().context.rows.map((r) => r.toggle.getSnapshot().context.isSelf);
    expect(self).toEqual([false, true, false]);
  });

  it('addUser: a created account is inserted in name order and highlighted; a known one only highlighted', async () => {
    const { actor } = start();
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'user.created', user: makeUser('teacher', { id: 9, username: 'Ben' }) });
    expect(names(actor)).toEqual(['Ada', 'Ben', 'Rita Reyes', 'zoe']);
    expect(actor.getSnapshot().context.createdId).toBe(9);
    actor.send({ type: 'user.created', user: makeUser('teacher', { id: 3, username: 'zoe' }) });
    expect(names(actor)).toHaveLength(4);
    expect(actor.getSnapshot().context.createdId).toBe(3);
  });

  it('storeError / dropRows: a failed load is kept; a retry starts from no rows and clears it', async () => {
    const { actor } = start(researcher, () => Promise.reject(new NetworkError()));
    await waitFor(actor, (s) => s.matches('loadFailed'));
    expect(actor.getSnapshot().context.error?.kind).toBe('network');
    actor.send({ type: 'retry' });
    expect(actor.getSnapshot().context.rows).toEqual([]);
    await waitFor(actor, (s) => s.matches('ready'));
    expect(actor.getSnapshot().context.error).toBeNull();
    expect(names(actor)).toHaveLength(3);
  });
});
