import type { Queryable } from '../db/client.ts';
import { mediaLocationRepository, type MediaLocation } from '../repositories/mediaFileRepository.ts';
import type { S3Settings } from './objectStore.ts';

/** The location a configuration names. */
export function locationOf(s3: S3Settings | null): MediaLocation {
  return s3 ? { store: 's3', bucket: s3.bucket } : { store: 'local', bucket: null };
}

/**
 * Checks that the media files are where this server will look for them: the first start records
 * its store; a later start with another store (or another bucket) is refused with what to do, so
 * that no file is ever looked for, or written, in the wrong place.
 * @throws an Error whose message names the settings to change.
 */
export async function checkMediaLocation(db: Queryable, s3: S3Settings | null): Promise<void> {
  const configured = locationOf(s3);
  await mediaLocationRepository.recordFirst(db, configured);
  const recorded = await mediaLocationRepository.find(db);
  if (!recorded || (recorded.store === configured.store && recorded.bucket === configured.bucket)) return;
  if (recorded.store === 'local') {
    throw new Error(
      `The media files are in DATA_DIR/uploads, not in the bucket "${configured.bucket}" (MEDIA_STORE=s3): copy them ` +
        'there first with `npm run admin -- media copy-to-s3` (with the same S3_* settings), or start without MEDIA_STORE=s3.',
    );
  }
  throw new Error(
    configured.store === 'local'
      ? `The media files are in the S3 bucket "${recorded.bucket}": start with MEDIA_STORE=s3 and S3_BUCKET=${recorded.bucket} (and its S3_* settings).`
      : `The media files are in the S3 bucket "${recorded.bucket}", not "${configured.bucket}": set S3_BUCKET=${recorded.bucket}.`,
  );
}
