import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { BackupStatus } from '../../schemas/backup.ts';
import { NetworkError } from '../../services/errors.ts';
import { backupStatusMachine } from './backupStatusMachine.ts';

const OFF: BackupStatus = { schedule: null, lastRun: null, running: null };

describe('backupStatusMachine', () => {
  it('storeStatus / storeError: a failed load keeps why; a retry that succeeds keeps the status and clears it', async () => {
    const answers = [() => Promise.reject(new NetworkError()), () => Promise.resolve(OFF)];
    const actor = createActor(
      backupStatusMachine.provide({ actors: { fetchBackupStatus: fromPromise(() => answers.shift()!()) } }),
    ).start();
    await waitFor(actor, (s) => s.matches('loadFailed'));
    expect(actor.getSnapshot().context).toMatchObject({ status: null, error: { kind: 'network' } });
    actor.send({ type: 'retry' });
    await waitFor(actor, (s) => s.matches('ready'));
    expect(actor.getSnapshot().context).toEqual({ status: OFF, error: null });
    // Loaded once: nothing more is asked for in ready.
    expect(actor.getSnapshot().can({ type: 'retry' })).toBe(false);
  });
});
