import type { User } from '#schemas/user';
import { allow, deny, type Decision } from './decision.ts';
import { isResearcher } from './userPolicy.ts';

export const ARCHIVE_MESSAGES = {
  researcher: 'Archives hold a teacher’s own work: researchers cannot build or download one.',
  notFound: 'Archive not found.',
  active: 'Your archive is already being prepared. You can download it as soon as it is ready.',
  notReady: 'This archive is not ready yet.',
  expired: 'This archive has expired. Ask for a new one.',
} as const;

/** Who may ask for, list and download archives: teachers and PLC leads (each of her own work). */
export function canKeepArchives(actor: Pick<User, 'role'>): Decision {
  return isResearcher(actor) ? deny(403, ARCHIVE_MESSAGES.researcher) : allow;
}

/** Who may download one archive: its owner only; anyone else is told it does not exist. */
export function canDownloadArchive(actor: Pick<User, 'id' | 'role'>, job: { ownerId: number }): Decision {
  return job.ownerId === actor.id && !isResearcher(actor) ? allow : deny(404, ARCHIVE_MESSAGES.notFound);
}
