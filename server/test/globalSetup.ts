import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import type { TestProject } from 'vitest/node';
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { s3Client } from '../src/media/s3ObjectStore.ts';
import { ensureCeph, startS3Server } from '../../scripts/s3server.mjs';
import { startRedisServer } from '../../scripts/redisServer.mjs';
import { MEDIA_TEST_BUCKET } from './mediaBucket.ts';
import { writeBackup } from '../src/backup/backup.ts';
import { openPostgres, type Db } from '../src/db/client.ts';
import { seedDemo } from '../src/db/demo.ts';
import { LocalObjectStore } from '../src/media/objectStore.ts';
import { startEmbedded } from '../src/db/embedded.ts';
import { migrate } from '../src/db/migrate.ts';
import { installJobSchema } from '../src/jobs/jobAdmin.ts';
import { ensureTemplate } from '../src/db/seed.ts';

/** The database server of this test run: the one of `TEST_DATABASE_URL`, or one embedded server. */
export type TestDatabase =
  { kind: 'external'; url: string } | { kind: 'embedded'; connection: pg.ClientConfig; template: string };

/** The run's S3 server (radosgw on loopback) and the tests' account on it; see `server/test/s3.ts`. */
export interface TestS3 {
  endpoint: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
}

/** The run's Redis (redis-server on loopback, nothing on disk); see `server/test/redis.ts`. */
export interface TestRedis {
  /** `redis://127.0.0.1:<port>` (its database 0 hands out the others). */
  url: string;
  /** How many numbered databases it has. */
  databases: number;
}

declare module 'vitest' {
  export interface ProvidedContext {
    testDatabase: TestDatabase;
    s3: TestS3;
    redis: TestRedis;
    /**
     * A backup of a migrated database with the demo data (project `server-restored`): each test
     * file's database is then this backup restored, not a fresh migration.
     */
    restoredBackup: string | null;
  }
}

export const TEMPLATE_DATABASE = 'pf_migrated';

type Stop = () => Promise<void>;

/**
 * One database server for the run. With `TEST_DATABASE_URL` each test file gets its own schema
 * there; otherwise an embedded PostgreSQL server starts once, a database is migrated once, and each
 * test file gets a copy of it (`CREATE DATABASE … TEMPLATE`).
 */
async function startDatabase(project: TestProject): Promise<Stop> {
  const url = process.env['TEST_DATABASE_URL'];
  if (url) {
    project.provide('testDatabase', { kind: 'external', url });
    const schema = `${RESTORED_SOURCE}_${process.pid}`;
    return prepareRestoredBackup(project, async () => {
      const admin = openPostgres(url, { max: 1 });
      await admin.exec(`CREATE SCHEMA ${schema}`);
      await admin.close();
      const db = openPostgres(url, { schema, max: 2 });
      await migrate(db);
      await ensureTemplate(db);
      const close = db.close.bind(db);
      return Object.assign(db, {
        close: async () => {
          await close();
          const dropping = openPostgres(url, { max: 1 });
          await dropping.exec(`DROP SCHEMA ${schema} CASCADE`);
          await dropping.close();
        },
      });
    });
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pf-test-db-'));
  // Two test files run side by side, each with its apps' pools, listeners and export workers.
  const server = await startEmbedded(dir, { maxConnections: 120 });
  const admin = openPostgres({ ...server.connection, database: 'postgres' }, { max: 1 });
  await admin.exec(`CREATE DATABASE ${TEMPLATE_DATABASE}`);
  await admin.close();
  const migrated = openPostgres({ ...server.connection, database: TEMPLATE_DATABASE }, { max: 1 });
  await migrate(migrated);
  await ensureTemplate(migrated);
  // The job engine's schema too: each test file's copy starts with it installed.
  await installJobSchema(migrated, migrated.settings!());
  await migrated.close();
  project.provide('testDatabase', { kind: 'embedded', connection: server.connection, template: TEMPLATE_DATABASE });
  const stopRestored = await prepareRestoredBackup(project, async () => {
    const admin = openPostgres({ ...server.connection, database: 'postgres' }, { max: 1 });
    await admin.exec(`CREATE DATABASE ${RESTORED_SOURCE} TEMPLATE ${TEMPLATE_DATABASE}`);
    await admin.close();
    return openPostgres({ ...server.connection, database: RESTORED_SOURCE }, { max: 2 });
  });
  return async () => {
    await stopRestored();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  };
}

const RESTORED_SOURCE = 'pf_restored_source';

/**
 * For the project `server-restored` (the mobile contract suite on a restored portal, issue
 * "backups that restore"): a backup, written with the admin command's code, of a migrated database
 * holding the demo data, whose restore each test file's database then is. `source` opens an empty
 * migrated database to fill.
 */
async function prepareRestoredBackup(project: TestProject, source: () => Promise<Db>): Promise<Stop> {
  if (project.name !== 'server-restored') {
    project.provide('restoredBackup', null);
    return async () => undefined;
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pf-test-restored-'));
  const db = await source();
  try {
    await seedDemo(db);
    const file = path.join(dir, 'demo.backup');
    await writeBackup(db, new LocalObjectStore(path.join(dir, 'uploads')), file);
    project.provide('restoredBackup', file);
  } finally {
    await db.close();
  }
  return async () => rmSync(dir, { recursive: true, force: true });
}

/**
 * One S3 server for the run (Ceph's radosgw, objects in memory), started whether or not the
 * chosen files use it: a global setup cannot tell. Without Ceph the run fails with the command
 * that installs it, so S3 tests never pass by being skipped.
 */
async function startS3(project: TestProject): Promise<Stop> {
  const ceph = ensureCeph();
  if (!ceph.ok) throw new Error(ceph.message);
  const server = await startS3Server({ dir: mkdtempSync(path.join(os.tmpdir(), 'pf-test-s3-')) });
  const { stop, ...s3 } = server;
  // The bucket of the apps that keep their media in S3 (TEST_MEDIA_STORE=s3): shared by the run's
  // test files, whose stored names are random keys.
  const client = s3Client({
    bucket: MEDIA_TEST_BUCKET,
    endpoint: s3.endpoint,
    region: s3.region,
    accessKeyId: s3.accessKeyId,
    secretAccessKey: s3.secretAccessKey,
    forcePathStyle: true,
  });
  try {
    await client.send(new CreateBucketCommand({ Bucket: MEDIA_TEST_BUCKET }));
  } catch (error) {
    await stop();
    throw error;
  } finally {
    client.destroy();
  }
  project.provide('s3', s3);
  return stop;
}

/**
 * One Redis for the run, with enough numbered databases for each test app that counts its limits
 * there to have one of its own. Without redis-server the run fails with the command that installs it.
 */
async function startRedis(project: TestProject): Promise<Stop> {
  const databases = 1024;
  const server = await startRedisServer({ databases });
  project.provide('redis', { url: server.url, databases });
  return server.stop;
}

/** Starts the database, the S3 server and Redis side by side; when one fails, the others are stopped again. */
export default async function setup(project: TestProject) {
  const started = await Promise.allSettled([startDatabase(project), startS3(project), startRedis(project)]);
  const stops = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const teardown = async () => {
    await Promise.all(stops.map((stop) => stop()));
  };
  const failures = started.flatMap((s) => (s.status === 'rejected' ? [s.reason as unknown] : []));
  if (failures.length > 0) {
    await teardown();
    throw failures.length === 1
      ? failures[0]
      : new AggregateError(failures, 'The test run could not start its servers');
  }
  return teardown;
}
