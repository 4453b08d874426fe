import Fastify, { type FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Clock } from './clock.ts';
import type { Config } from './config.ts';
import type { Db } from './db/client.ts';
import { accountsFeature } from './features/accounts.ts';
import { archivesFeature } from './features/archives.ts';
import { backupsFeature } from './features/backups.ts';
import { coverageFeature } from './features/coverage.ts';
import { exportsFeature } from './features/exports.ts';
import { mediaFeature } from './features/media.ts';
import { mobileFeature } from './features/mobile.ts';
import { momentsFeature } from './features/moments.ts';
import { notificationsFeature } from './features/notifications.ts';
import { portfoliosFeature } from './features/portfolios.ts';
import { researchFeature } from './features/research.ts';
import { resumableUploadsFeature } from './features/resumableUploads.ts';
import { sharedFeature } from './features/shared.ts';
import { spaFeature } from './features/spa.ts';
import { systemFeature } from './features/system.ts';
import { API_PREFIX } from './http/apiPrefix.ts';
import { loggerOptions } from './http/logging.ts';
import type { Mailer } from './mail/mailer.ts';
import background, { type JobOptions } from './plugins/app/background.ts';
import database from './plugins/app/database.ts';
import errors, { frameworkErrors } from './plugins/app/errors.ts';
import requestLimits from './plugins/app/requestLimits.ts';
import serializer from './plugins/app/serializer.ts';
import services from './plugins/app/services.ts';
import externalPlugins from './plugins/external/externalPlugins.ts';
import type { ArchiveJobOptions } from './features/archives.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The server's configuration (read from the environment at start). */
    config: Config;
    /** Where this node is in its life: `draining` from SIGTERM on (its readiness answers 503). */
    lifecycle: { draining: boolean };
  }
}

export interface BuildOptions {
  config: Config;
  db: Db;
  /** Replaces the configured mailer (tests capture messages). */
  mailer?: Mailer;
  /**
   * `false` silences the log; otherwise the level and destination may be replaced (tests capture
   * the log). The redaction rules apply either way.
   */
  logger?: false | { level?: string; stream?: { write(line: string): void } };
  /** How the teachers' archive builder runs (tests shorten its times). */
  archives?: ArchiveJobOptions;
  /** How the job engine polls and supervises (tests make it quicker). */
  jobs?: JobOptions;
  /** Where the services read the time (tests move it on instead of waiting). */
  clock?: Clock;
}

/**
 * Builds the whole server (API, docs and SPA) without listening: the app plugins (limits,
 * database, services, background tasks), the external plugins, the error handler and serializer,
 * then one plugin per feature (its services, routes and background task) and the SPA.
 * Background tasks start when the server is ready and stop when it closes.
 */
export async function buildApp(options: BuildOptions): Promise<FastifyInstance> {
  const { config, logger } = options;
  const app = Fastify({
    logger: loggerOptions(
      logger === false ? false : { level: logger?.level ?? config.logLevel, stream: logger?.stream },
    ),
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    requestTimeout: config.timeouts.requestMs,
    connectionTimeout: config.timeouts.idleMs,
    keepAliveTimeout: config.timeouts.keepAliveMs,
    // Start-up work (the first housekeeping run on a large database) may take its time.
    pluginTimeout: 0,
    frameworkErrors,
  }).withTypeProvider<ZodTypeProvider>();
  app.decorate('config', config);
  app.decorate('lifecycle', { draining: false });

  await app.register(requestLimits);
  await app.register(database, { db: options.db });
  await app.register(background, { jobs: options.jobs });
  await app.register(services, { mailer: options.mailer, clock: options.clock });
  await app.register(serializer);
  await app.register(externalPlugins);
  await app.register(errors);

  const api = { prefix: API_PREFIX };
  await app.register(systemFeature, api);
  await app.register(accountsFeature, api);
  await app.register(portfoliosFeature, api);
  await app.register(mediaFeature, api);
  await app.register(sharedFeature, api);
  await app.register(resumableUploadsFeature, api);
  await app.register(momentsFeature, api);
  await app.register(notificationsFeature, api);
  await app.register(mobileFeature, api);
  await app.register(exportsFeature, api);
  await app.register(researchFeature, api);
  await app.register(coverageFeature, api);
  await app.register(archivesFeature, { ...api, worker: options.archives });
  await app.register(backupsFeature, api);
  await app.register(spaFeature);
  return app;
}
