import { ArchiveJobSchema, ArchiveListResponseSchema, type ArchiveJob } from '../schemas/archive.ts';
import { api, apiBase } from './api.ts';

/**
 * The signed-in teacher's archives, newest first.
 * @throws ApiError (403 for researchers), NetworkError, ContractError.
 */
export function listArchives(signal?: AbortSignal): Promise<ArchiveJob[]> {
  return api().request({
    method: 'GET',
    path: '/archives',
    schema: ArchiveListResponseSchema,
    ...(signal ? { signal } : {}),
  });
}

/**
 * Asks for an archive of the teacher's own work; it is built in the background.
 * @throws ApiError (409 while one is under way), NetworkError, ContractError.
 */
export function requestArchive(signal?: AbortSignal): Promise<ArchiveJob> {
  return api().request({
    method: 'POST',
    path: '/archives',
    body: {},
    schema: ArchiveJobSchema,
    ...(signal ? { signal } : {}),
  });
}

/** The address that downloads a ready archive (a plain link: the session cookie goes with it). */
export function archiveDownloadUrl(id: number): string {
  return `${apiBase()}/archives/${id}/download`;
}

/** Waits `ms` (or until `signal` aborts), then lists the archives again: one poll of a build under way. */
export function pollArchives(ms: number, signal?: AbortSignal): Promise<ArchiveJob[]> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => listArchives(signal).then(resolve, reject), ms);
    signal?.addEventListener('abort', () => clearTimeout(timer), { once: true });
  });
}
