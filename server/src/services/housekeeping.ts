import type { Queryable } from '../db/client.ts';
import { authEventRepository } from '../repositories/authEventRepository.ts';
import { passwordCodeRepository } from '../repositories/passwordCodeRepository.ts';

/** How often a running server deletes what can no longer be used. */
export const PRUNE_INTERVAL_MS = 60 * 60 * 1000;

/** Deletes rate-limit events older than any window and one-time codes that expired a day ago or more. */
export async function pruneExpired(db: Queryable): Promise<void> {
  await authEventRepository.prune(db);
  await passwordCodeRepository.prune(db);
}
