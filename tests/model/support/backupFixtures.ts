import { fromPromise } from 'xstate';
import type { BackupStatus } from '../../../src/schemas/backup.ts';
import { BACKUP_STATUSES } from '../../../src/test/backupFixtures.ts';

/** The status service answering that the last backup was written (pages whose tests are about something else). */
export const backupWritten = fromPromise<BackupStatus>(async () => BACKUP_STATUSES.written);
