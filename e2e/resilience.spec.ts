import { randomBytes } from 'node:crypto';
import { statSync } from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { Responses } from '#schemas/structure';
import { paddedVideo } from '../server/test/files.ts';
import { DEMO, until } from './fixtures.ts';
import { setupCrashServer, type Artifact, type Media } from './resilience/crashServer.ts';
import { answersOf, describeAnswers, fileContent, MB, streamUpload, videoContent } from './resilience/streams.ts';

/**
 * Crash consistency: the server is killed (SIGKILL, it and every process it started) in the
 * middle of a large upload, of a stream of saves, and while a file's formats are made; after a
 * restart on the same DATA_DIR the database and the uploads folder agree. Every media row has
 * its files, no file lies in the uploads folder that no row names, nothing is left pending, and
 * every artifact holds either its last saved answers or the ones being saved, never a mixture.
 *
 * The server runs on its own embedded database here (not the shared e2e server), so that it can
 * be killed; the database is read directly once the restarted server has stopped cleanly
 * (`e2e/resilience/`: the server, what is sent, the invariants).
 */

/** Looked at every 2 ms: a kill is to land while a file is being written or a request is on its way. */
const promptly = { timeoutMs: 60_000, everyMs: 2 };

describe.each(['local', 's3'] as const)(
  'crash consistency, media in %s: the server killed mid-upload, mid-save and while making formats',
  (store) => {
    const own = setupCrashServer(store);
    const {
      workDir,
      incomingFiles,
      storedFiles,
      unfinishedUploads,
      arriving,
      api,
      newArtifact,
      uploadSmall,
      crash,
      recoverAndInspect,
    } = own;

    /** The poster formats of a video of `artifactId`, once the server has made them. */
    async function posterOf(artifactId: number, videoId: number): Promise<NonNullable<Media['formats']>> {
      return until(
        async () => {
          const after = await api<Artifact>('GET', `/artifacts/${artifactId}`);
          return after.body.videos.find((v) => v.id === videoId)?.formats ?? null;
        },
        'the poster of the video',
        { timeoutMs: 60_000, everyMs: 250 },
      );
    }

    it('a kill halfway through a 200 MB video upload leaves neither a row nor a file of it', async () => {
      const artifact = await newArtifact('Field trip video');
      const total = 200 * MB;
      const upload = streamUpload(
        `${own.server.url}/api/v1/portfolios/${own.portfolioId}/artifacts/${artifact.id}/videos`,
        own.token,
        'field-trip.mp4',
        total,
        videoContent(total, 0.6 * total),
      );
      // It streams into the store under its key as it arrives (the folder, or the bucket's parts).
      const partial = await until(
        async () => (await arriving()).find((f) => f.name.endsWith('.mp4') && f.size >= total / 2),
        'half of the video stored',
        promptly,
      );
      await crash();

      const outcome = await upload;
      expect(outcome.status, 'the upload was never answered').toBeNull();
      const received = (await arriving()).find((f) => f.name === partial.name)!.size;
      expect(received).toBeGreaterThanOrEqual(total / 2);
      expect(received).toBeLessThan(total);
      const key = partial.name.replace(/\.mp4$/, '');

      const db = await recoverAndInspect(async () => {
        const after = await api<Artifact>('GET', `/artifacts/${artifact.id}`);
        expect(after.status).toBe(200);
        expect({
          updated_at: after.body.updated_at,
          nextCaption: after.body.nextCaption,
          videos: after.body.videos,
        }).toEqual({
          updated_at: artifact.updated_at,
          nextCaption: artifact.nextCaption,
          videos: [],
        });
      });
      expect(db.media.filter((m) => m.storage_key === key)).toEqual([]);
      expect(db.links.filter((l) => l.holder === 'artifact' && l.holder_id === artifact.id)).toEqual([]);
      expect((await storedFiles()).filter((f) => f.name.includes(key))).toEqual([]);
      expect((await unfinishedUploads()).filter((f) => f.name.includes(key))).toEqual([]);
    });

    it('saves (personal and shared) and uploads cut off by a kill keep every row at its last or its next value', async () => {
      const personal = [
        await newArtifact('Crash save A'),
        await newArtifact('Crash save B'),
        await newArtifact('Crash save C'),
      ];
      const sharedList = await api<{ id: number; ownerUsername: string }[]>('GET', '/shared-artifacts');
      const sharedId = sharedList.body.find((a) => a.ownerUsername === DEMO.teacher.username)!.id;
      const gallery = await newArtifact('Crash uploads');
      const photo = await sharp(randomBytes(320 * 240 * 3), { raw: { width: 320, height: 240, channels: 3 } })
        .png()
        .toBuffer();

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
        if (!own.server.running) await own.server.start();
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
              fetch(`${own.server.url}/api/v1/artifacts/${a.id}`, {
                method: 'PUT',
                headers: { authorization: `Bearer ${own.token}`, 'content-type': 'application/json' },
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
            const res = await fetch(`${own.server.url}/api/v1/shared-artifacts/${sharedId}`, {
              method: 'PUT',
              headers: { authorization: `Bearer ${own.token}`, 'content-type': 'application/json' },
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

        await until(
          () => writers.every((w) => w.acked >= 2) && uploader.acked.size >= 2,
          'a few saves and uploads',
          promptly,
        );
        // The kill lands at a random point of the stream: after a random number (0–9) of further answers.
        const answered = () => writers.reduce((n, w) => n + w.acked, 0) + uploader.acked.size;
        const landAt = answered() + Math.floor(Math.random() * 10);
        await until(() => answered() >= landAt, 'further answers', promptly);
        const cutOff = writers.filter((w) => w.next !== null).length + (uploader.inFlight ? 1 : 0);
        const uploadCutOff = uploader.inFlight;
        await crash();
        run.stopped = true;
        await Promise.all([...saving, uploading]);

        expect(
          [...writers.flatMap((w) => w.failures), ...uploader.failures],
          'requests refused while the server ran',
        ).toEqual([]);
        expect(cutOff, 'requests on their way when the server was killed').toBeGreaterThan(0);

        const db = await recoverAndInspect();
        const outcomes = writers.map((w) => {
          const stored = w.name.startsWith('shared')
            ? db.sharedArtifacts.find((a) => a.id === sharedId)?.responses
            : db.artifacts.find((a) => `artifact ${a.id}` === w.name)?.responses;
          const which = isDeepStrictEqual(stored, w.last)
            ? 'last'
            : w.next && isDeepStrictEqual(stored, w.next)
              ? 'next'
              : 'neither';
          return { name: w.name, which, stored: which === 'neither' ? describeAnswers(stored) : '' };
        });
        expect(
          outcomes.filter((o) => o.which === 'neither'),
          `round ${round}: stored answers that were never sent whole`,
        ).toEqual([]);
        expect(
          db.artifacts.find((a) => a.id === personal[1]!.id)?.parking_lot,
          'the submitted artifact stays submitted',
        ).toBe(false);

        const held = new Set(
          db.links.filter((l) => l.holder === 'artifact' && l.holder_id === gallery.id).map((l) => l.media_id),
        );
        const expected = new Set([...heldImages, ...uploader.acked]);
        expect(
          [...expected].filter((id) => !held.has(id)),
          `round ${round}: acknowledged uploads that are gone`,
        ).toEqual([]);
        const extra = [...held].filter((id) => !expected.has(id));
        expect(extra.length, `round ${round}: uploads stored beyond the acknowledged ones`).toBeLessThanOrEqual(
          uploadCutOff ? 1 : 0,
        );
        heldImages = held;
      }
    });

    it('a kill while an image’s formats are being made leaves no trace of it', async () => {
      const artifact = await newArtifact('Classroom wall');
      const file = path.join(workDir, 'classroom-wall.png');
      await sharp(randomBytes(4000 * 3000 * 3), { raw: { width: 4000, height: 3000, channels: 3 } })
        .png({ compressionLevel: 0 })
        .toFile(file);
      const size = statSync(file).size;
      const before = new Set((await storedFiles()).map((f) => f.name));
      const upload = streamUpload(
        `${own.server.url}/api/v1/portfolios/${own.portfolioId}/artifacts/${artifact.id}/images`,
        own.token,
        'classroom-wall.png',
        size,
        fileContent(file),
      );
      // The formats are made one after the other, each stored as soon as it is written: the kill
      // lands once the first is being written or stored, while the others are still to come.
      const format = await until(
        async () =>
          [...incomingFiles(), ...(await storedFiles())].find(
            (f) => /^(thumbnail|small|medium|large)_/.test(f.name) && !before.has(f.name),
          ),
        'the first format file',
        promptly,
      );
      await crash();
      expect((await upload).status, 'the upload was never answered').toBeNull();
      const key = format.name.replace(/^[a-z]+_/, '').replace(/\.jpg$/, '');
      // The formats are made from the stored image.
      expect((await storedFiles()).map((f) => f.name)).toContain(`${key}.png`);

      const db = await recoverAndInspect();
      expect(db.media.filter((m) => m.storage_key === key)).toEqual([]);
      expect(db.links.filter((l) => l.holder === 'artifact' && l.holder_id === artifact.id)).toEqual([]);
      expect(db.artifacts.find((a) => a.id === artifact.id)?.next_caption).toBe(0);
    });

    it('a kill while a video’s poster is being made keeps the video, and its poster is made once the server is back', async () => {
      const artifact = await newArtifact('Lab demo video');
      const video = paddedVideo(2 * MB);
      // The upload is answered once the video is stored and checked; its poster comes after.
      const res = await uploadSmall(artifact.id, 'videos', 'lab-demo.mp4', video);
      expect(res.status).toBe(200);
      expect(res.body.formats).toBeNull();
      const poster = await until(
        () => incomingFiles().find((f) => f.name.endsWith('-poster.png')),
        'the poster frame',
        promptly,
      );
      await crash();
      expect(poster.name).toBe(`${res.body.hash}-poster.png`);

      const db = await recoverAndInspect(async () => {
        // The job of the killed server is run again once its heartbeat is missed.
        const formats = await posterOf(artifact.id, res.body.id);
        expect(Object.keys(formats).sort()).toEqual(['large', 'medium', 'small', 'thumbnail']);
      });
      expect(db.media.find((m) => m.id === res.body.id)?.formats).toBeTruthy();
    });

    it('a kill right after an upload was answered keeps the file and its row, and the poster still comes', async () => {
      const artifact = await newArtifact('Answered video');
      const video = paddedVideo(3 * MB);
      const res = await uploadSmall(artifact.id, 'videos', 'answered.mp4', video);
      await crash();
      expect(res.status).toBe(200);

      const db = await recoverAndInspect(async () => {
        const file = await fetch(`${own.server.url}/api/v1${res.body.url}`, {
          headers: { authorization: `Bearer ${own.token}` },
        });
        expect(file.status).toBe(200);
        expect(Buffer.from(await file.arrayBuffer()).equals(video)).toBe(true);
        // Its poster job was queued before the answer: the restarted server makes it.
        const formats = await posterOf(artifact.id, res.body.id);
        const thumbnail = await fetch(`${own.server.url}/api/v1${formats['thumbnail']!.url}`, {
          headers: { authorization: `Bearer ${own.token}` },
        });
        expect(thumbnail.status).toBe(200);
      });
      expect(
        db.media.filter((m) => m.storage_key === res.body.hash).map((m) => ({ id: m.id, ext: m.ext, size: m.size })),
      ).toEqual([{ id: res.body.id, ext: '.mp4', size: video.length }]);
      expect(db.links.filter((l) => l.holder === 'artifact' && l.holder_id === artifact.id)).toEqual([
        { holder: 'artifact', holder_id: artifact.id, media_id: res.body.id, caption: res.body.caption },
      ]);
    });
  },
);
