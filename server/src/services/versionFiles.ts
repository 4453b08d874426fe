import type { Queryable } from '../db/client.ts';
import { badRequest } from '../errors.ts';
import { mediaRepository, type Holder } from '../repositories/mediaRepository.ts';
import { momentRepository } from '../repositories/momentRepository.ts';
import { versionRepository } from '../repositories/versionRepository.ts';
import { SHARED_ARTIFACT_MESSAGES } from './sharedArtifactMessages.ts';

/** What the history answers say. */
export const VERSION_MESSAGES = {
  notFound: 'Version not found.',
} as const;

/**
 * In a restore's transaction: makes the holder hold exactly `wanted` (a version's files). Files it
 * holds beyond them are unlinked as a removal would (their caption tracks and notes go); kept
 * files it lacks are linked again as it held them. Returns the unlinked ids (to delete those no
 * history keeps). @throws 400 when a file to unlink has comments or reactions at its moments.
 */
export async function restoreFiles(
  tx: Queryable,
  holder: Holder,
  holderId: number,
  wanted: readonly number[],
): Promise<number[]> {
  const held = await mediaRepository.idsHeldBy(tx, holder, holderId);
  const extra = held.filter((id) => !wanted.includes(id));
  for (const mediaId of extra) {
    if (holder === 'sharedArtifact' && (await momentRepository.hasMomentsOn(tx, holderId, mediaId)))
      throw badRequest(SHARED_ARTIFACT_MESSAGES.hasMoments, 'has_moments');
    await mediaRepository.unlink(tx, holder, holderId, mediaId);
  }
  await versionRepository.relink(
    tx,
    holder,
    holderId,
    wanted.filter((id) => !held.includes(id)),
  );
  return extra;
}
