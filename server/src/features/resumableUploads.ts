import type { FastifyInstance } from 'fastify';
import { authenticated } from '../http/auth.ts';
import { API_PREFIX } from '../http/apiPrefix.ts';
import { PgLocker } from '../media/resumable/pgLocker.ts';
import { RESUMABLE_FOLDER, ResumableStore, tusStoreOf } from '../media/resumable/resumableStore.ts';
import { TusBridge } from '../media/resumable/tusBridge.ts';
import { TusWriter } from '../media/resumable/tusWriter.ts';
import { resumableUploadOptions, resumableUploadRoutes } from '../routes/resumableUploadRoutes.ts';
import { createResumableUploadService, RESUMABLE_EXPIRES_AFTER_MS } from '../services/resumableUploadService.ts';

/** How long a request waits for an upload another request holds before it gets 423. */
const LOCK_WAIT_MS = 1000;
/** Connections for upload locks (one per request writing or reading an upload at the time). */
const LOCK_CONNECTIONS = 32;

/**
 * Resumable uploads (tus) of files to personal and shared artifacts, for the web app. Needs the
 * media and shared features. Several nodes share the uploads through the store (the bucket) and
 * their locks through PostgreSQL; the housekeeping expires abandoned ones.
 */
export async function resumableUploadsFeature(app: FastifyInstance): Promise<void> {
  const { config } = app;
  const place = await tusStoreOf(config);
  const objects = app.mediaStore.objects;
  // The bytes of PATCH requests are written in a thread of its own (decision 063), ended with the server.
  const writer = new TusWriter({ dataDir: config.dataDir, s3: config.s3 });
  app.services.resumableWriter = writer;
  app.addHook('onClose', () => writer.close());
  // Started with the server rather than by the first upload (whose memory it would count).
  app.addHook('onListen', async () => {
    await writer.start().catch((error: unknown) => app.log.warn({ err: error }, 'the upload writer did not start'));
  });
  const store = new ResumableStore(
    place.store,
    {
      progressed: (id, offset) => app.services.resumableUploads.progressed(id, offset),
      removed: (id) => app.services.resumableUploads.removed(id),
    },
    writer,
    place.prefix,
    // A bucket keeps a completed upload's object (and its `.info`), which the tus store's removal may not reach.
    async (key) => {
      if (objects.kind !== 's3') return;
      const name = `${RESUMABLE_FOLDER}${key.slice(place.prefix.length)}`;
      await objects.remove([name, `${name}.info`, `${name}.part`]);
    },
  );
  app.services.resumableUploads = createResumableUploadService(app.serviceContext, {
    media: app.services.media,
    sharedArtifacts: app.services.sharedArtifacts,
    store,
  });
  // The settings are read at the first lock: the app is built while the database starts.
  const { db } = app;
  const locker = db.settings
    ? new PgLocker(() => db.settings!(), { max: LOCK_CONNECTIONS, waitMs: LOCK_WAIT_MS })
    : null;
  if (locker) app.addHook('onClose', () => locker.close());
  const tus = new TusBridge({
    path: `${API_PREFIX}/uploads/tus`,
    store,
    maxSize: config.uploadLimitBytes,
    locker,
    tmpDir: app.mediaStore.tmpDir,
    finish: (user, id, client) => app.services.resumableUploads.finish(user, id, client),
    expiresAt: () => app.serviceContext.clock.now() + RESUMABLE_EXPIRES_AFTER_MS,
  });
  app.housekeeping.add(async () => {
    await app.services.resumableUploads.expire();
  });
  await app.register(authenticated(resumableUploadRoutes(tus)));
  await app.register(resumableUploadOptions(config.uploadLimitBytes));
}
