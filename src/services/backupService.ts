import { BackupStatusSchema, type BackupStatus } from '../schemas/backup.ts';
import { api } from './api.ts';

/**
 * The scheduled backups as researchers see them: on or off, the last run that ended, the one under way.
 * @throws ApiError (403 for anyone but a researcher), NetworkError, ContractError.
 */
export function fetchBackupStatus(signal?: AbortSignal): Promise<BackupStatus> {
  return api().request({
    method: 'GET',
    path: '/backups/status',
    schema: BackupStatusSchema,
    ...(signal ? { signal } : {}),
  });
}
