import type { Db, Queryable } from '../db/client.ts';
import type { MediaStore } from '../media/mediaStore.ts';
import { artifactRepository } from '../repositories/artifactRepository.ts';
import { authEventRepository } from '../repositories/authEventRepository.ts';
import { loginAddressRepository } from '../repositories/loginAddressRepository.ts';
import { notificationDeliveryRepository } from '../repositories/notificationDeliveryRepository.ts';
import { samlRepository } from '../repositories/samlRepository.ts';
import { ssoRepository } from '../repositories/ssoRepository.ts';
import { sessionRepository } from '../repositories/sessionRepository.ts';
import { passwordCodeRepository } from '../repositories/passwordCodeRepository.ts';
import { rateLimitRepository } from '../repositories/rateLimitRepository.ts';
import { deleteArtifacts } from './artifactService.ts';
import { MAIL_WINDOW_MS } from './notificationService.ts';

/** Deletes rate-limit events older than any window, one-time codes that expired a day ago or more, and passed mail windows. */
export async function pruneExpired(db: Queryable): Promise<void> {
  await authEventRepository.prune(db);
  await loginAddressRepository.prune(db);
  await passwordCodeRepository.prune(db);
  await sessionRepository.prune(db);
  await ssoRepository.prune(db);
  await samlRepository.prune(db);
  await notificationDeliveryRepository.pruneMailThreads(db, MAIL_WINDOW_MS);
  await rateLimitRepository.prune(db);
}

/**
 * How long a never-saved artifact (Create New Artifact, or the mobile wizard's first call) may
 * wait for its first save before it counts as abandoned: far longer than any editing session or
 * upload, short enough that abandoned files do not pile up.
 */
export const ABANDONED_AFTER_MS = 24 * 60 * 60 * 1000;

/** Removes never-saved artifacts created more than `olderThanMs` ago, with their files; returns how many. */
export async function discardAbandonedArtifacts(
  db: Db,
  store: Pick<MediaStore, 'discard'>,
  olderThanMs = ABANDONED_AFTER_MS,
): Promise<number> {
  return deleteArtifacts(db, store, await artifactRepository.abandonedIds(db, olderThanMs));
}
