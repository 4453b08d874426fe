import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, createReadStream, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { isDeepStrictEqual } from 'node:util';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { validateResponses } from '#schemas/responses';
import type { Responses, Structure } from '#schemas/structure';
import { openPostgres } from '../server/src/db/client.ts';
import { startEmbedded } from '../server/src/db/embedded.ts';
import { ffmpegVideo, freeBoxHeader, paddedVideo, pngImage } from '../server/test/files.ts';
import { DEMO } from './fixtures.ts';
import { freePort } from '../server/test/processes.ts';

/**
 * Crash consistency: the server is killed (SIGKILL, it and every process it started) in the
 * middle of a large upload, of a stream of saves, and while a file's formats are made; after a
 * restart on the same DATA_DIR the database and the uploads folder agree. Every media row has
 * its files, no file lies in the uploads folder that no row names, nothing is left pending, and
 * every artifact holds either its last saved answers or the ones being saved, never a mixture.
 *
 * The server runs on its own embedded database here (not the shared e2e server), so that it can
 * be killed; the database is read directly once the restarted server has stopped cleanly.
 */

const MB = 1024 ** 2;


async function waitFor<T>(probe: () => T | undefined | null | false, what: string, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await sleep(2);
  }
}

/** The server as `npm start` runs it (the compiled `dist-server/main.js`), in its own process group. */
class ServerProcess {
  private child: ChildProcess | null = null;
  private exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }> | null = null;
  private output = '';

  constructor(
    private readonly env: NodeJS.ProcessEnv,
    readonly url: string,
  ) {}

  get running(): boolean {
    return this.child !== null;
  }

  /** Starts the server (migrations and the start-up sweep run) and waits until it answers. */
  async start(): Promise<void> {
    if (this.child) throw new Error('The server is already running');
    this.output = '';
    const child = spawn(process.execPath, [path.resolve('dist-server/main.js')], {
      env: this.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    this.child = child;
    this.exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
    child.stdout?.on('data', (d: Buffer) => (this.output += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (this.output += d.toString()));
    const deadline = Date.now() + 90_000;
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null) {
        this.child = null;
        throw new Error(`The server exited while starting:\n${this.output}`);
      }
      try {
        const res = await fetch(`${this.url}/api/v1/health`);
        if (res.ok) return;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) throw new Error(`The server did not become healthy:\n${this.output}`);
      await sleep(100);
    }
  }

  /**
   * A crash: SIGKILL to the server and every process of its group (ffmpeg), nothing flushed or
   * closed. Its PostgreSQL server, in a group of its own, must then stop by itself, not be left
   * running: the next start finds it gone (or still stopping, and waits).
   */
  async crash(): Promise<void> {
    const child = this.child;
    if (!child?.pid) throw new Error('The server is not running');
    if (postgresProcesses(this.env['DATA_DIR']!).length === 0) throw new Error('No embedded PostgreSQL server runs for the app');
    process.kill(-child.pid, 'SIGKILL');
    await this.exited;
    this.child = null;
    await waitFor(() => postgresProcesses(this.env['DATA_DIR']!).length === 0, 'the embedded PostgreSQL server to stop after the app was killed', 20_000);
  }

  /** A clean stop (SIGTERM); resolves with the exit code and what the server wrote. */
  async stop(): Promise<{ code: number | null; output: string }> {
    const child = this.child;
    if (!child) throw new Error('The server is not running');
    child.kill('SIGTERM');
    const { code } = await this.exited!;
    this.child = null;
    return { code, output: this.output };
  }

  /** Kills whatever is left of the process group (after a failed test). */
  async dispose(): Promise<void> {
    if (!this.child?.pid) return;
    try {
      process.kill(-this.child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
    await this.exited;
    this.child = null;
  }
}

/** The PostgreSQL processes serving `DATA_DIR/db` (from /proc: their command lines name its data folder). */
function postgresProcesses(dataDir: string): number[] {
  const folder = path.join(dataDir, 'db', 'pgdata');
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (cmdline.some((arg) => arg.endsWith('/postgres')) && cmdline.includes(folder)) found.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

interface Snapshot {
  artifacts: { id: number; structure: Structure; responses: Responses; parking_lot: boolean; next_caption: number; updated_at: Date }[];
  sharedArtifacts: { id: number; structure: Structure; responses: Responses; next_caption: number }[];
  media: { id: number; storage_key: string; ext: string; size: number; formats: Record<string, { url: string } | null> | null }[];
  links: { holder: 'artifact' | 'shared'; holder_id: number; media_id: number; caption: string }[];
  pending: string[];
}

/** Reads the stopped server's embedded database (`DATA_DIR/db`), on a server of its own. */
async function readDatabase(dataDir: string): Promise<Snapshot> {
  const server = await startEmbedded(path.join(dataDir, 'db'));
  const pg = openPostgres(server.connection, { max: 1, onClose: () => server.stop() });
  try {
    const rows = async <T,>(sql: string) => (await pg.query<T>(sql)).rows;
    return {
      artifacts: await rows('SELECT id, structure, responses, parking_lot, next_caption, updated_at FROM artifacts ORDER BY id'),
      sharedArtifacts: await rows('SELECT id, structure, responses, next_caption FROM shared_artifacts ORDER BY id'),
      media: await rows('SELECT id, storage_key, ext, size, formats FROM media_files ORDER BY id'),
      links: await rows(
        `SELECT 'artifact' AS holder, artifact_id AS holder_id, media_id, caption FROM artifact_media
         UNION ALL SELECT 'shared', shared_artifact_id, media_id, caption FROM shared_artifact_media`,
      ),
      pending: (await rows<{ storage_key: string }>('SELECT storage_key FROM pending_uploads')).map((r) => r.storage_key),
    };
  } finally {
    await pg.close();
  }
}

/** The index of a caption letter (A → 0, Z → 25, AA → 26, …). */
function captionIndex(caption: string): number {
  let n = 0;
  for (const ch of caption) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n - 1;
}

/** The invariants that must hold after any crash and restart. */
function expectConsistent(dataDir: string, db: Snapshot): void {
  const uploads = path.join(dataDir, 'uploads');
  expect(db.pending, 'uploads still recorded as pending').toEqual([]);
  expect(readdirSync(path.join(uploads, '.incoming')), 'files left in the temporary folder').toEqual([]);

  const referenced = new Set<string>();
  const broken: string[] = [];
  for (const m of db.media) {
    const main = `${m.storage_key}${m.ext}`;
    referenced.add(main);
    const file = path.join(uploads, main);
    if (!existsSync(file)) broken.push(`${main} is missing`);
    else if (statSync(file).size !== m.size) broken.push(`${main} has ${statSync(file).size} bytes, its row says ${m.size}`);
    for (const format of Object.values(m.formats ?? {})) {
      if (!format) continue;
      const name = format.url.replace(/^\/uploads\//, '');
      referenced.add(name);
      if (!existsSync(path.join(uploads, name))) broken.push(`${name} is missing`);
    }
  }
  expect(broken, 'media rows whose files are not on disk').toEqual([]);
  const stray = readdirSync(uploads).filter((name) => name !== '.incoming' && !referenced.has(name));
  expect(stray, 'files in the uploads folder that no media row names').toEqual([]);

  const linked = new Set(db.links.map((l) => l.media_id));
  expect(db.media.filter((m) => !linked.has(m.id)).map((m) => m.storage_key), 'media rows no artifact holds').toEqual([]);
  const nextCaption = new Map<string, number>([
    ...db.artifacts.map((a) => [`artifact ${a.id}`, a.next_caption] as const),
    ...db.sharedArtifacts.map((a) => [`shared ${a.id}`, a.next_caption] as const),
  ]);
  const badCaptions = db.links
    .filter((l) => !(captionIndex(l.caption) < (nextCaption.get(`${l.holder} ${l.holder_id}`) ?? -1)))
    .map((l) => `${l.holder} ${l.holder_id} holds ${l.caption} beyond its next caption`);
  expect(badCaptions, 'captions past the holder’s counter').toEqual([]);

  const invalid = [
    ...db.artifacts.map((a) => ({ id: `artifact ${a.id}`, issues: validateResponses(a.structure, a.responses, { requireCore: !a.parking_lot }).issues })),
    ...db.sharedArtifacts.map((a) => ({ id: `shared artifact ${a.id}`, issues: validateResponses(a.structure, a.responses, { requireCore: true }).issues })),
  ].filter((x) => x.issues.length > 0);
  expect(invalid, 'stored answers that are not valid answers').toEqual([]);
}

interface UploadOutcome {
  status: number | null;
  body: string;
  error: string | null;
}

/**
 * Streams a multipart upload (field `file`) from `content` over plain node:http, never holding
 * the file in memory; respects back-pressure. Resolves with the answer, or the connection error.
 */
function streamUpload(url: string, token: string, filename: string, size: number, content: AsyncIterable<Buffer>): Promise<UploadOutcome> {
  const boundary = `----practicefolio${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return new Promise((resolve) => {
    const request = http.request(url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': String(head.length + size + tail.length),
      },
    });
    request.on('response', (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (d: string) => (body += d));
      response.on('end', () => resolve({ status: response.statusCode ?? null, body, error: null }));
      response.on('error', (e) => resolve({ status: response.statusCode ?? null, body, error: e.message }));
    });
    request.on('error', (e) => resolve({ status: null, body: '', error: e.message }));
    const write = async (chunk: Buffer): Promise<boolean> => {
      if (request.destroyed) return false;
      if (!request.write(chunk)) {
        await new Promise<void>((resolve) => {
          const done = () => {
            request.off('drain', done);
            request.off('close', done);
            resolve();
          };
          request.on('drain', done);
          request.on('close', done);
        });
      }
      return !request.destroyed;
    };
    void (async () => {
      try {
        if (!(await write(head))) return;
        for await (const chunk of content) if (!(await write(chunk))) return;
        request.end(tail);
      } catch {
        // The request's own error event answers.
      }
    })();
  });
}

/**
 * A `size`-byte MP4 made on the fly (a real video, then a `free` box of filler); after `stallAt`
 * bytes the sender stalls, like a slow line.
 */
async function* videoContent(size: number, stallAt: number): AsyncGenerator<Buffer> {
  const video = ffmpegVideo();
  const header = Buffer.concat([video, freeBoxHeader(size - video.length)]);
  yield header;
  let sent = header.length;
  const block = randomBytes(MB);
  while (sent < size) {
    if (sent >= stallAt) await new Promise<void>((resolve) => setTimeout(resolve, 60_000).unref());
    const chunk = block.subarray(0, Math.min(block.length, size - sent));
    yield chunk;
    sent += chunk.length;
  }
}

async function* fileContent(file: string): AsyncGenerator<Buffer> {
  for await (const chunk of createReadStream(file, { highWaterMark: MB })) yield chunk as Buffer;
}

/** Answers of one save, tagged with its number, long and incompressible (stored out of line). */
function answersOf(tag: string, seq: number): Responses {
  const text = (field: string) => `${tag} #${seq} ${field} ${randomBytes(14_000).toString('base64')}`;
  return {
    artifactName: `${tag} save ${seq}`,
    learningGoal: text('goal'),
    studentThinking: text('thinking'),
    nextSteps: text('next'),
  };
}

function describeAnswers(responses: Responses | null | undefined): string {
  if (!responses) return 'nothing';
  return Object.entries(responses)
    .map(([k, v]) => `${k}=${JSON.stringify(v).slice(0, 40)}`)
    .join(', ');
}

interface Artifact {
  id: number;
  updated_at: string;
  nextCaption: string;
  responses: Responses;
  images: { id: number }[];
  videos: { id: number }[];
  documents: { id: number }[];
}

interface Media {
  id: number;
  caption: string;
  hash: string;
  ext: string;
  url: string;
  formats: Record<string, { url: string }> | null;
}

describe('crash consistency: the server killed mid-upload, mid-save and while making formats', () => {
  const workDir = mkdtempSync(path.join(os.tmpdir(), 'pf-crash-work-'));
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'pf-crash-data-'));
  const uploads = path.join(dataDir, 'uploads');
  const incoming = path.join(uploads, '.incoming');
  let server: ServerProcess;
  let token = '';
  let portfolioId = 0;

  const incomingFiles = () =>
    readdirSync(incoming).map((name) => {
      try {
        return { name, size: statSync(path.join(incoming, name)).size };
      } catch {
        return { name, size: -1 };
      }
    });

  async function api<T>(method: string, pathname: string, body?: unknown): Promise<{ status: number; body: T }> {
    const res = await fetch(`${server.url}/api/v1${pathname}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : null) as T };
  }

  async function newArtifact(name: string): Promise<Artifact> {
    const res = await api<Artifact>('POST', `/portfolios/${portfolioId}/artifacts/responses`, { responses: { artifactName: name } });
    expect(res.status).toBe(200);
    return res.body;
  }

  async function uploadSmall(artifactId: number, kind: 'images' | 'videos', name: string, content: Buffer): Promise<{ status: number; body: Media }> {
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
    expectConsistent(dataDir, db);
    return db;
  }

  beforeAll(async () => {
    const staticDir = path.join(workDir, 'static');
    mkdirSync(staticDir);
    writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>PracticeFolio</title><!--app-config-->\n');
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

    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    server = new ServerProcess(
      {
        ...process.env,
        NODE_ENV: 'production',
        PORT: String(port),
        HOST: '127.0.0.1',
        PUBLIC_URL: url,
        DATA_DIR: dataDir,
        DATABASE_URL: '',
        SMTP_URL: '',
        JWT_SECRET: '',
        DEMO_DATA: 'true',
        LOG_LEVEL: 'warn',
        STATIC_DIR: staticDir,
        FFMPEG_PATH: ffmpeg,
        UPLOAD_LIMIT_BYTES: String(512 * MB),
      },
      url,
    );
    await server.start();
    const login = await fetch(`${url}/api/v1/auth/local`, {
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
    await server?.dispose();
    rmSync(workDir, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('a kill halfway through a 200 MB video upload leaves neither a row nor a file of it', async () => {
    const artifact = await newArtifact('Field trip video');
    const total = 200 * MB;
    const upload = streamUpload(
      `${server.url}/api/v1/portfolios/${portfolioId}/artifacts/${artifact.id}/videos`,
      token,
      'field-trip.mp4',
      total,
      videoContent(total, 0.6 * total),
    );
    const partial = await waitFor(() => incomingFiles().find((f) => f.size >= total / 2), 'half of the video on disk');
    await server.crash();

    const outcome = await upload;
    expect(outcome.status, 'the upload was never answered').toBeNull();
    const received = statSync(path.join(incoming, partial.name)).size;
    expect(received).toBeGreaterThanOrEqual(total / 2);
    expect(received).toBeLessThan(total);

    const db = await recoverAndInspect(async () => {
      const after = await api<Artifact>('GET', `/artifacts/${artifact.id}`);
      expect(after.status).toBe(200);
      expect({ updated_at: after.body.updated_at, nextCaption: after.body.nextCaption, videos: after.body.videos }).toEqual({
        updated_at: artifact.updated_at,
        nextCaption: artifact.nextCaption,
        videos: [],
      });
    });
    expect(db.media.filter((m) => m.storage_key === partial.name)).toEqual([]);
    expect(db.links.filter((l) => l.holder === 'artifact' && l.holder_id === artifact.id)).toEqual([]);
    expect(readdirSync(uploads).filter((name) => name.includes(partial.name))).toEqual([]);
  });

  it('saves (personal and shared) and uploads cut off by a kill keep every row at its last or its next value', async () => {
    const personal = [await newArtifact('Crash save A'), await newArtifact('Crash save B'), await newArtifact('Crash save C')];
    const sharedList = await api<{ id: number; ownerUsername: string }[]>('GET', '/shared-artifacts');
    const sharedId = sharedList.body.find((a) => a.ownerUsername === DEMO.teacher.username)!.id;
    const gallery = await newArtifact('Crash uploads');
    const photo = await sharp(randomBytes(320 * 240 * 3), { raw: { width: 320, height: 240, channels: 3 } }).png().toBuffer();

    interface Writer {
      name: string;
      /** The answers known to be stored (the last acknowledged save, or what was there). */
      last: Responses;
      /** The answers of the save on its way, if any. */
      next: Responses | null;
      acked: number;
      failures: string[];
    }
    let heldImages = new Set<number>();

    for (const round of [1, 2]) {
      if (!server.running) await server.start();
      const writers: (Writer & { send: (r: Responses) => Promise<Response> })[] = [];
      for (const [i, a] of personal.entries()) {
        const current = await api<Artifact>('GET', `/artifacts/${a.id}`);
        writers.push({
          name: `artifact ${a.id}`,
          last: current.body.responses,
          next: null,
          acked: 0,
          failures: [],
          send: (responses) =>
            fetch(`${server.url}/api/v1/artifacts/${a.id}`, {
              method: 'PUT',
              headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
              // One of them is submitted to the portfolio (every later save must stay complete).
              body: JSON.stringify({ responses, ...(i === 1 ? { parkingLot: false } : {}) }),
            }),
        });
      }
      const shared = await api<{ responses: Responses; updated_at: string }>('GET', `/shared-artifacts/${sharedId}`);
      expect(shared.status).toBe(200);
      const sharedBase = shared.body.responses;
      // Each save names the version it replaces (the one the last answer returned), as the web does.
      let sharedVersion = shared.body.updated_at;
      writers.push({
        name: `shared artifact ${sharedId}`,
        last: sharedBase,
        next: null,
        acked: 0,
        failures: [],
        send: async (responses) => {
          const res = await fetch(`${server.url}/api/v1/shared-artifacts/${sharedId}`, {
            method: 'PUT',
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            body: JSON.stringify({ responses, updated_at: sharedVersion }),
          });
          if (res.status !== 200) return res;
          const body = (await res.json()) as { updated_at: string };
          sharedVersion = body.updated_at;
          return new Response(JSON.stringify(body), { status: 200 });
        },
      });
      const valueOf = (w: Writer, seq: number): Responses => {
        const answers = answersOf(`r${round} ${w.name}`, seq);
        return w.name.startsWith('shared')
          ? { ...sharedBase, ...answers, 'team-bridge-grade-levels': `${answers['learningGoal'] as string} (team)` }
          : answers;
      };

      const run = { stopped: false };
      const saving = writers.map(async (w) => {
        for (let seq = 1; !run.stopped; seq++) {
          const value = valueOf(w, seq);
          w.next = value;
          let res: Response;
          try {
            res = await w.send(value);
            await res.arrayBuffer();
          } catch {
            return; // the server is gone; this save may or may not have been stored
          }
          if (res.status !== 200) {
            w.failures.push(`save ${seq}: ${res.status}`);
            return;
          }
          w.last = value;
          w.next = null;
          w.acked += 1;
        }
      });
      const uploader = { acked: new Set<number>(), inFlight: false, failures: [] as string[] };
      const uploading = (async () => {
        for (let n = 1; !run.stopped; n++) {
          uploader.inFlight = true;
          let res: { status: number; body: Media };
          try {
            res = await uploadSmall(gallery.id, 'images', `board-${round}-${n}.png`, photo);
          } catch {
            return;
          }
          if (res.status !== 200) {
            uploader.failures.push(`upload ${n}: ${res.status}`);
            return;
          }
          uploader.acked.add(res.body.id);
          uploader.inFlight = false;
        }
      })();

      await waitFor(() => writers.every((w) => w.acked >= 2) && uploader.acked.size >= 2, 'a few saves and uploads', 60_000);
      await sleep(Math.floor(Math.random() * 600));
      const cutOff = writers.filter((w) => w.next !== null).length + (uploader.inFlight ? 1 : 0);
      const uploadCutOff = uploader.inFlight;
      await server.crash();
      run.stopped = true;
      await Promise.all([...saving, uploading]);

      expect([...writers.flatMap((w) => w.failures), ...uploader.failures], 'requests refused while the server ran').toEqual([]);
      expect(cutOff, 'requests on their way when the server was killed').toBeGreaterThan(0);

      const db = await recoverAndInspect();
      const outcomes = writers.map((w) => {
        const stored = w.name.startsWith('shared')
          ? db.sharedArtifacts.find((a) => a.id === sharedId)?.responses
          : db.artifacts.find((a) => `artifact ${a.id}` === w.name)?.responses;
        const which = isDeepStrictEqual(stored, w.last) ? 'last' : w.next && isDeepStrictEqual(stored, w.next) ? 'next' : 'neither';
        return { name: w.name, which, stored: which === 'neither' ? describeAnswers(stored) : '' };
      });
      expect(outcomes.filter((o) => o.which === 'neither'), `round ${round}: stored answers that were never sent whole`).toEqual([]);
      expect(db.artifacts.find((a) => a.id === personal[1]!.id)?.parking_lot, 'the submitted artifact stays submitted').toBe(false);

      const held = new Set(db.links.filter((l) => l.holder === 'artifact' && l.holder_id === gallery.id).map((l) => l.media_id));
      const expected = new Set([...heldImages, ...uploader.acked]);
      expect([...expected].filter((id) => !held.has(id)), `round ${round}: acknowledged uploads that are gone`).toEqual([]);
      const extra = [...held].filter((id) => !expected.has(id));
      expect(extra.length, `round ${round}: uploads stored beyond the acknowledged ones`).toBeLessThanOrEqual(uploadCutOff ? 1 : 0);
      heldImages = held;
    }
  });

  it('a kill while an image’s formats are being made leaves no trace of it', async () => {
    const artifact = await newArtifact('Classroom wall');
    const file = path.join(workDir, 'classroom-wall.png');
    await sharp(randomBytes(4000 * 3000 * 3), { raw: { width: 4000, height: 3000, channels: 3 } }).png({ compressionLevel: 0 }).toFile(file);
    const size = statSync(file).size;
    const upload = streamUpload(
      `${server.url}/api/v1/portfolios/${portfolioId}/artifacts/${artifact.id}/images`,
      token,
      'classroom-wall.png',
      size,
      fileContent(file),
    );
    const format = await waitFor(() => incomingFiles().find((f) => /^(thumbnail|small|medium|large)_/.test(f.name)), 'the first format file');
    await server.crash();
    expect((await upload).status, 'the upload was never answered').toBeNull();
    const key = format.name.replace(/^[a-z]+_/, '').replace(/\.jpg$/, '');
    expect(readdirSync(incoming)).toContain(key);

    const db = await recoverAndInspect();
    expect(db.media.filter((m) => m.storage_key === key)).toEqual([]);
    expect(db.links.filter((l) => l.holder === 'artifact' && l.holder_id === artifact.id)).toEqual([]);
    expect(db.artifacts.find((a) => a.id === artifact.id)?.next_caption).toBe(0);
  });

  it('a kill while a video’s poster is being made leaves no trace of it', async () => {
    const artifact = await newArtifact('Lab demo video');
    const video = paddedVideo(2 * MB);
    const upload = uploadSmall(artifact.id, 'videos', 'lab-demo.mp4', video).then(
      (r) => r.status,
      () => null,
    );
    const poster = await waitFor(() => incomingFiles().find((f) => f.name.endsWith('-poster.png')), 'the poster frame');
    await server.crash();
    expect(await upload, 'the upload was never answered').toBeNull();
    const key = poster.name.replace(/-poster\.png$/, '');
    expect(readdirSync(incoming)).toContain(key);

    const db = await recoverAndInspect();
    expect(db.media.filter((m) => m.storage_key === key)).toEqual([]);
    expect(db.links.filter((l) => l.holder === 'artifact' && l.holder_id === artifact.id)).toEqual([]);
  });

  it('a kill right after an upload was answered keeps the file, its poster formats and its row', async () => {
    const artifact = await newArtifact('Answered video');
    const video = paddedVideo(3 * MB);
    const res = await uploadSmall(artifact.id, 'videos', 'answered.mp4', video);
    await server.crash();
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.formats ?? {}).sort()).toEqual(['large', 'medium', 'small', 'thumbnail']);

    const db = await recoverAndInspect(async () => {
      const file = await fetch(`${server.url}/api/v1${res.body.url}`, { headers: { authorization: `Bearer ${token}` } });
      expect(file.status).toBe(200);
      expect(Buffer.from(await file.arrayBuffer()).equals(video)).toBe(true);
      const thumbnail = await fetch(`${server.url}/api/v1${res.body.formats!['thumbnail']!.url}`, { headers: { authorization: `Bearer ${token}` } });
      expect(thumbnail.status).toBe(200);
    });
    expect(db.media.filter((m) => m.storage_key === res.body.hash).map((m) => ({ id: m.id, ext: m.ext, size: m.size }))).toEqual([
      { id: res.body.id, ext: '.mp4', size: video.length },
    ]);
    expect(db.links.filter((l) => l.holder === 'artifact' && l.holder_id === artifact.id)).toEqual([
      { holder: 'artifact', holder_id: artifact.id, media_id: res.body.id, caption: res.body.caption },
    ]);
  });
});
