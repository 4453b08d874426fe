import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import type { Responses } from '#schemas/structure';
import { pngImage } from '../../server/test/files.ts';
import { DEMO, until } from '../fixtures.ts';
import { ownServer, type OwnServer } from '../ownServer.ts';
import {
  CreateBucketCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  ListPartsCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { portalEnvironment, startS3Server } from '../../scripts/s3server.mjs';
import { s3Client } from '../../server/src/media/s3ObjectStore.ts';
import { expectConsistent, postgresProcesses, readDatabase, type Snapshot, type StoredFile } from './consistency.ts';
import { MB } from './streams.ts';

export interface Artifact {
  id: number;
  updated_at: string;
  nextCaption: string;
  responses: Responses;
  images: { id: number }[];
  videos: { id: number; formats: Record<string, { url: string }> | null }[];
  documents: { id: number }[];
}

export interface Media {
  id: number;
  caption: string;
  hash: string;
  ext: string;
  url: string;
  formats: Record<string, { url: string }> | null;
}

/**
 * A server of the crash journeys' own on its own embedded database (not the shared e2e server), its
 * media in its uploads folder or (`store: 's3'`) in a bucket of a radosgw of its own, so
 * that it can be killed: started before the journeys (the demo teacher signed in), started again
 * before each journey if a journey left it stopped, killed and its folders removed after them. Its
 * ffmpeg takes its time, so a kill can land while a poster is being made.
 */
export function setupCrashServer(store: 'local' | 's3' = 'local') {
  const workDir = mkdtempSync(path.join(os.tmpdir(), 'pf-crash-work-'));
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'pf-crash-data-'));
  const uploads = path.join(dataDir, 'uploads');
  const incoming = path.join(uploads, '.incoming');
  let server: OwnServer;
  let token = '';
  let portfolioId = 0;
  /** With `store: 's3'`: the radosgw of these journeys and a client of its bucket. */
  let bucket: { client: S3Client; name: string; stop: () => Promise<void> } | null = null;

  const incomingFiles = () =>
    readdirSync(incoming).map((name) => {
      try {
        return { name, size: statSync(path.join(incoming, name)).size };
      } catch {
        return { name, size: -1 };
      }
    });

  /** What the media store holds: the files of the uploads folder, or the objects of the bucket. */
  async function storedFiles(): Promise<StoredFile[]> {
    if (!bucket) {
      return readdirSync(uploads)
        .filter((name) => !name.startsWith('.'))
        .map((name) => {
          try {
            return { name, size: statSync(path.join(uploads, name)).size };
          } catch {
            return { name, size: -1 };
          }
        });
    }
    const page = await bucket.client.send(new ListObjectsV2Command({ Bucket: bucket.name }));
    return (page.Contents ?? []).map((o) => ({ name: o.Key!, size: o.Size ?? 0 }));
  }

  /** Uploads cut off in the store, with what they hold so far: the bucket's unfinished multipart uploads. */
  async function unfinishedUploads(): Promise<StoredFile[]> {
    if (!bucket) return [];
    const { client, name: Bucket } = bucket;
    const uploadsNow = (await client.send(new ListMultipartUploadsCommand({ Bucket }))).Uploads ?? [];
    return Promise.all(
      uploadsNow.map(async (u) => {
        const parts = (await client.send(new ListPartsCommand({ Bucket, Key: u.Key!, UploadId: u.UploadId! }))).Parts;
        return { name: u.Key!, size: (parts ?? []).reduce((sum, p) => sum + (p.Size ?? 0), 0) };
      }),
    );
  }

  /** An upload on its way into the store: its file growing in the folder, or its parts in the bucket. */
  async function arriving(): Promise<StoredFile[]> {
    return bucket ? unfinishedUploads() : storedFiles();
  }

  async function api<T>(method: string, pathname: string, body?: unknown): Promise<{ status: number; body: T }> {
    const res = await fetch(`${server.url}/api/v1${pathname}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : null) as T };
  }

  async function newArtifact(name: string): Promise<Artifact> {
    const res = await api<Artifact>('POST', `/portfolios/${portfolioId}/artifacts/responses`, {
      responses: { artifactName: name },
    });
    expect(res.status).toBe(200);
    return res.body;
  }

  async function uploadSmall(
    artifactId: number,
    kind: 'images' | 'videos',
    name: string,
    content: Buffer,
  ): Promise<{ status: number; body: Media }> {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(content)]), name);
    const res = await fetch(`${server.url}/api/v1/portfolios/${portfolioId}/artifacts/${artifactId}/${kind}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    return { status: res.status, body: (await res.json()) as Media };
  }

  /** After a crash: restart (the start-up sweep runs), stop cleanly, read the database, check the invariants. */
  async function recoverAndInspect(whileRunning?: () => Promise<void>): Promise<Snapshot> {
    await server.start();
    await whileRunning?.();
    const stopped = await server.stop();
    expect(stopped.code, `the restarted server stops cleanly:\n${stopped.output}`).toBe(0);
    const db = await readDatabase(dataDir);
    expectConsistent(dataDir, db, await storedFiles(), await unfinishedUploads());
    return db;
  }

  /**
   * A crash: SIGKILL to the server and every process of its group (ffmpeg), nothing flushed or
   * closed. Its PostgreSQL server, in a group of its own, must then stop by itself, not be left
   * running: the next start finds it gone (or still stopping, and waits).
   */
  async function crash(): Promise<void> {
    if (!server.running) throw new Error('The server is not running');
    if (postgresProcesses(dataDir).length === 0) throw new Error('No embedded PostgreSQL server runs for the app');
    await server.kill();
    await until(
      () => postgresProcesses(dataDir).length === 0,
      'the embedded PostgreSQL server to stop after the app was killed',
      { timeoutMs: 20_000 },
    );
  }

  beforeAll(async () => {
    // ffmpeg that takes its time: it "grabs" a prepared frame into the poster file (the last
    // argument), then works on for a second. The kill can so land while a poster is being made.
    // Asked only to read a video (`-i <file>` last, no output: how the server learns a video's
    // length), it reports a length and writes nothing, as ffmpeg does.
    const frame = path.join(workDir, 'frame.png');
    writeFileSync(frame, await pngImage(320, 240));
    const ffmpeg = path.join(workDir, 'ffmpeg');
    writeFileSync(
      ffmpeg,
      [
        '#!/bin/sh',
        'before=; last=',
        'for arg in "$@"; do before=$last; last=$arg; done',
        'if [ "$before" = "-i" ]; then echo "  Duration: 00:00:03.00, start: 0.000000, bitrate: 8 kb/s" >&2; exit 1; fi',
        `cp '${frame}' "$last"`,
        'sleep 1',
        '',
      ].join('\n'),
    );
    chmodSync(ffmpeg, 0o755);

    const media: Record<string, string> = {};
    if (store === 's3') {
      const s3 = await startS3Server({ dir: path.join(workDir, 's3') });
      const settings = {
        bucket: 'pf-crash-media',
        endpoint: s3.endpoint,
        region: s3.region,
        accessKeyId: s3.accessKeyId,
        secretAccessKey: s3.secretAccessKey,
        forcePathStyle: true,
      };
      const client = s3Client(settings);
      await client.send(new CreateBucketCommand({ Bucket: settings.bucket }));
      bucket = { client, name: settings.bucket, stop: () => s3.stop() };
      Object.assign(media, portalEnvironment(s3, settings.bucket));
    }
    server = await ownServer(dataDir, path.join(workDir, 'static'), {
      FFMPEG_PATH: ffmpeg,
      UPLOAD_LIMIT_BYTES: String(512 * MB),
      ...media,
    });
    await server.start();
    const login = await fetch(`${server.url}/api/v1/auth/local`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ identifier: DEMO.teacher.email, password: DEMO.password }),
    });
    if (login.status !== 200) throw new Error(`The demo teacher could not log in: ${login.status}`);
    token = ((await login.json()) as { jwt: string }).jwt;
    const portfolios = await api<{ id: number; name: string }[]>('GET', '/portfolios');
    portfolioId = portfolios.body.find((p) => p.name === 'My Portfolio 1')!.id;
  });

  beforeEach(async () => {
    if (!server.running) await server.start();
  });

  afterAll(async () => {
    await server?.kill();
    bucket?.client.destroy();
    await bucket?.stop();
    rmSync(workDir, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  });

  return {
    /** A folder for the journeys' own files. */
    workDir,
    uploads,
    incoming,
    incomingFiles,
    storedFiles,
    unfinishedUploads,
    arriving,
    /** The killable server. */
    get server(): OwnServer {
      return server;
    },
    /** The demo teacher's session. */
    get token(): string {
      return token;
    },
    /** The demo teacher's "My Portfolio 1". */
    get portfolioId(): number {
      return portfolioId;
    },
    api,
    newArtifact,
    uploadSmall,
    crash,
    recoverAndInspect,
  };
}
