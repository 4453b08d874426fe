/**
 * The kinds of background work a node can be told to run (`WORKERS`): every job belongs to one.
 * - `media`: image formats, video posters and lengths;
 * - `archives`: teachers' archives;
 * - `notifications`: e-mails, digests and push;
 * - `housekeeping`: deleting what can no longer be used;
 * - `backups`: the scheduled backups (`BACKUP_DIR`).
 */
export const WORKER_GROUPS = ['media', 'archives', 'notifications', 'housekeeping', 'backups'] as const;

export type WorkerGroup = (typeof WORKER_GROUPS)[number];
