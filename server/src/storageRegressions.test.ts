import { connect, type AddressInfo } from 'node:net';
import type { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import {
  attachVideo,
  createArtifact,
  createLead,
  createPortfolio,
  createResearcher,
  createSharedArtifact,
  createSharedPortfolio,
  createTeacher,
  uploadedFiles,
} from '../test/factories.ts';
import { htmlPage, multipart, pdfDocument, svgImage } from '../test/files.ts';
import { readZip } from '../test/zipReader.ts';
import { buildTestApp } from '../test/helper.ts';
import { until } from '../test/until.ts';
import { UPLOAD_MESSAGES } from './http/multipart.ts';
import { objectStoreOf } from './media/objectStore.ts';
import { READY_ARCHIVES_KEPT } from './services/archiveService.ts';
import { MOMENT_MESSAGES } from './services/momentService.ts';
import { EXPORTS_BUSY, OWN_EXPORT_RUNNING } from './services/researchExportService.ts';

/**
 * Limits that hold under abuse (decision 017, "Storage, exports, uploads and mail"): the load
 * shapes of an attack run — slow readers, parallel uploads, floods of small writes — as tests.
 */

describe('research exports never take the request pool', async () => {
  const t = await buildTestApp();

  it('ten slow export readers: two run, the others get 409 at once, and GET /portfolios stays under a second', async () => {
    // A package far larger than the buffers between the server and a client that does not read.
    const owner = await createTeacher(t);
    const portfolio = await createPortfolio(t, owner);
    await createArtifact(t, portfolio);
    await t.db.query(
      `INSERT INTO artifacts (portfolio_id, structure, responses, parking_lot)
       SELECT $1, structure, jsonb_build_object('artifactName', md5(random()::text) || md5(random()::text), 'learningGoal', md5(random()::text) || md5(random()::text) || md5(random()::text)), false
       FROM artifacts, generate_series(1, 4000) WHERE portfolio_id = $1`,
      [portfolio.id],
    );
    const researchers = await Promise.all(Array.from({ length: 10 }, () => createResearcher(t)));
    // The same request with no export running: the yardstick on a machine that may be busy.
    const timed = async () => {
      const started = performance.now();
      expect(await t.api({ method: 'GET', url: '/portfolios', token: owner.token })).toHaveStatus(200);
      return performance.now() - started;
    };
    const alone = Math.max(await timed(), await timed(), await timed());
    // Each client reads nothing until the end of the test.
    const answers = await Promise.all(
      researchers.map((r) =>
        t.app.inject({
          method: 'GET',
          url: '/api/v1/research/export',
          headers: { authorization: `Bearer ${r.token}` },
          payloadAsStream: true,
        }),
      ),
    );
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(2);
    expect(statuses.filter((s) => s === 409)).toHaveLength(8);
    // The running exports fill every buffer up to their readers', and wait for them to read.
    const running = answers.filter((a) => a.statusCode === 200).map((a) => a.stream() as Readable);
    await until(() => running.every((zip) => zip.readableLength >= zip.readableHighWaterMark), {
      what: "the running exports' readers full",
    });
    // Had the exports taken the pool, this would wait until their readers read (the pool has no
    // waiting limit): under a second, or a few times its time alone where the machine is loaded.
    expect(await timed()).toBeLessThan(Math.max(1000, 4 * alone));

    // The same researcher cannot start a second one beside their running export.
    const runner = researchers[statuses.indexOf(200)]!;
    const again = await t.api({ method: 'GET', url: '/research/export', token: runner.token });
    expect(again).toBeApiError(409, OWN_EXPORT_RUNNING);
    const busy = researchers[statuses.indexOf(409)]!;
    expect(await t.api({ method: 'GET', url: '/research/export', token: busy.token })).toBeApiError(409, EXPORTS_BUSY);

    // Once the readers have read, the slots are free again.
    await Promise.all(
      answers.map(async (a) => {
        const stream = a.stream() as Readable;
        for await (const _chunk of stream) void _chunk;
      }),
    );
    await expect
      .poll(async () => (await t.api({ method: 'GET', url: '/research/export', token: busy.token })).statusCode, {
        timeout: 10_000,
      })
      .toBe(200);
  });
});

describe('parallel uploads cannot pass the storage quota', async () => {
  const small = await buildTestApp({ storageQuotaBytes: 3_000_000 });

  it('six parallel 900 KB uploads with 2.1 MB free: two are kept, the others refused with 413 and nothing of them left', async () => {
    const owner = await createTeacher(small);
    const portfolio = await createPortfolio(small, owner);
    const artifact = await createArtifact(small, portfolio);
    const url = `/portfolios/${portfolio.id}/artifacts/${artifact.id}/documents`;
    const file = (i: number) => multipart('file', `part-${i}.bin`, Buffer.alloc(900_000, i));
    expect(await small.api({ method: 'POST', url, token: owner.token, ...file(0) })).toHaveStatus(200);
    const answers = await Promise.all(
      [1, 2, 3, 4, 5, 6].map((i) => small.api({ method: 'POST', url, token: owner.token, ...file(i) })),
    );
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(2);
    for (const refused of answers.filter((a) => a.statusCode !== 200))
      expect(refused).toBeApiError(413, /^Your files would take more than your storage limit of /);
    const { rows } = await small.db.query<{ n: number }>(
      'SELECT coalesce(sum(size), 0)::int AS n FROM media_files WHERE uploaded_by = $1',
      [owner.user.id],
    );
    expect(rows[0]!.n).toBe(2_700_000);
    expect(await uploadedFiles(small)).toHaveLength(3);
  });
});

describe('storage outside the quota is bounded', async () => {
  const t = await buildTestApp();

  it('archives asked for again and again: the newest two ready ones are kept, with their files only', async () => {
    const teacher = await createTeacher(t);
    await createArtifact(t, await createPortfolio(t, teacher));
    const ids: number[] = [];
    for (let i = 0; i < 4; i += 1) {
      const asked = await t.api({ method: 'POST', url: '/archives', token: teacher.token });
      expect(asked).toHaveStatus(200);
      const id = (asked.json() as { id: number }).id;
      ids.push(id);
      await expect
        .poll(
          async () =>
            (
              (await t.api({ method: 'GET', url: '/archives', token: teacher.token })).json() as {
                id: number;
                status: string;
              }[]
            ).find((j) => j.id === id)?.status,
          { timeout: 20_000 },
        )
        .toBe('ready');
    }
    const jobs = (await t.api({ method: 'GET', url: '/archives', token: teacher.token })).json() as {
      id: number;
      status: string;
    }[];
    expect(READY_ARCHIVES_KEPT).toBe(2);
    expect(jobs.map((j) => j.id).sort((a, b) => a - b)).toEqual(ids.slice(-2));
    // The replaced archives' rows go with the newest one's "ready"; their files right after that commit.
    const kept = await objectStoreOf(t.config, 'archives');
    await expect.poll(async () => (await kept.list('')).filter((f) => f.endsWith('.zip')).length).toBe(2);
    expect(await t.api({ method: 'GET', url: `/archives/${ids[0]}/download`, token: teacher.token })).toBeApiError(404);
  });

  it('private notes per video are bounded in number and in characters, and count in the per-person write limit', async () => {
    const teacher = await createTeacher(t);
    const artifact = await createArtifact(t, await createPortfolio(t, teacher));
    const long = await attachVideo(t, 'artifact', artifact.id);
    const note = (media: number, text: string) =>
      t.api({
        method: 'POST',
        url: `/artifacts/${artifact.id}/notes`,
        token: teacher.token,
        payload: { media, start: 1, text },
      });
    // Characters: 40 notes of 2500 characters fill a video's 100,000.
    for (let i = 0; i < 40; i += 1) expect(await note(long, 'x'.repeat(2500)), `note ${i}`).toHaveStatus(200);
    expect(await note(long, 'one more')).toBeApiError(413, MOMENT_MESSAGES.notesTooLong);
    // Number: 100 notes on a video.
    const other = await createTeacher(t);
    const otherArtifact = await createArtifact(t, await createPortfolio(t, other));
    const [video, second] = [
      await attachVideo(t, 'artifact', otherArtifact.id),
      await attachVideo(t, 'artifact', otherArtifact.id),
    ];
    const otherNote = (media: number, text: string) =>
      t.api({
        method: 'POST',
        url: `/artifacts/${otherArtifact.id}/notes`,
        token: other.token,
        payload: { media, start: 1, text },
      });
    for (let i = 0; i < 100; i += 1) expect(await otherNote(video, `note ${i}`), `note ${i}`).toHaveStatus(200);
    expect(await otherNote(video, 'note 100')).toBeApiError(413, MOMENT_MESSAGES.tooManyNotes);
    // Another video has room, but 120 new notes in ten minutes are the most: then 429.
    for (let i = 0; i < 19; i += 1) expect(await otherNote(second, `note ${i}`)).toHaveStatus(200);
    expect(await otherNote(second, 'too often')).toBeApiError(429);
  });

  it('push tokens: at most ten per person, the least recently registered dropped; registrations count in the per-person write limit', async () => {
    const teacher = await createTeacher(t);
    const register = (i: number) =>
      t.api({
        method: 'POST',
        url: '/messages/register-token',
        token: teacher.token,
        payload: {
          fcmToken: `${String(i).padStart(3, '0')}${'t'.repeat(4000)}`,
          platform: 'ios',
          osVersion: '17',
          devMode: false,
        },
      });
    for (let i = 0; i < 30; i += 1) expect(await register(i), `token ${i}`).toHaveStatus(200);
    const { rows } = await t.db.query<{ token: string }>(
      'SELECT left(fcm_token, 3) AS token FROM push_tokens WHERE user_id = $1 ORDER BY token',
      [teacher.user.id],
    );
    expect(rows.map((r) => Number(r.token))).toEqual([20, 21, 22, 23, 24, 25, 26, 27, 28, 29]);
    expect(await register(30)).toBeApiError(429);
  });
});

describe('an upload header with a line break', async () => {
  const t = await buildTestApp();

  it('a file name with a line break or another control character is answered 400 at once, over a real connection; nothing is kept', async () => {
    const owner = await createTeacher(t);
    const portfolio = await createPortfolio(t, owner);
    const artifact = await createArtifact(t, portfolio);
    const url = `/api/v1/portfolios/${portfolio.id}/artifacts/${artifact.id}/documents`;
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.app.server.address() as AddressInfo).port;
    /** The status line of the answer, or `timeout` after two seconds. */
    const send = (body: { payload: Buffer; headers: Record<string, string> }) =>
      new Promise<string>((resolve) => {
        const socket = connect(port, '127.0.0.1', () => {
          socket.write(
            `POST ${url} HTTP/1.1\r\nHost: portal.test\r\nAuthorization: Bearer ${owner.token}\r\nContent-Type: ${body.headers['content-type']}\r\nContent-Length: ${body.payload.length}\r\n\r\n`,
          );
          socket.write(body.payload);
        });
        let got = '';
        const timer = setTimeout(() => {
          socket.destroy();
          resolve('timeout');
        }, 2000);
        socket.on('data', (d) => {
          got += String(d);
          if (!got.includes('\r\n\r\n')) return;
          clearTimeout(timer);
          socket.destroy();
          resolve(got.split('\r\n')[0]!);
        });
      });
    for (const name of [
      'a\nb.pdf',
      'a\r\nb.pdf',
      'a\rb.pdf',
      'a\u0000b.pdf',
      'a\u0007b.pdf',
      'notes\r\nContent-Type: text/html.pdf',
    ]) {
      expect(await send(multipart('file', name, Buffer.from('%PDF-1.4 hello'))), JSON.stringify(name)).toBe(
        'HTTP/1.1 400 Bad Request',
      );
    }
    expect((await uploadedFiles(t)).filter((f) => !f.startsWith('.incoming'))).toEqual([]);
    const refused = await t.api({
      method: 'POST',
      url: url.replace('/api/v1', ''),
      token: owner.token,
      ...multipart('file', 'a\r\nb.pdf', Buffer.from('x')),
    });
    expect(refused).toBeApiError(400, UPLOAD_MESSAGES.controlCharacters);
    // A name with tabs, quotes and letters of any language still goes through.
    expect(await send(multipart('file', 'Ramp\trace – Zoë’s notes.pdf', Buffer.from('%PDF-1.4 hello')))).toBe(
      'HTTP/1.1 200 OK',
    );
  });
});

describe('documents in a teacher’s archive never open as a page', async () => {
  const t = await buildTestApp();

  it('an HTML, SVG or unknown document is stored as .txt text and linked as a download; a PDF keeps its name', async () => {
    const teacher = await createTeacher(t);
    const portfolio = await createPortfolio(t, teacher);
    const artifact = await createArtifact(t, portfolio);
    const url = `/portfolios/${portfolio.id}/artifacts/${artifact.id}/documents`;
    for (const [name, content] of [
      ['lesson.html', htmlPage()],
      ['diagram.svg', svgImage()],
      ['page.xhtml', htmlPage()],
      ['handout.pdf', pdfDocument()],
    ] as const) {
      expect(
        await t.api({ method: 'POST', url, token: teacher.token, ...multipart('file', name, content) }),
        name,
      ).toHaveStatus(200);
    }
    const asked = await t.api({ method: 'POST', url: '/archives', token: teacher.token });
    const id = (asked.json() as { id: number }).id;
    await expect
      .poll(
        async () =>
          (
            (await t.api({ method: 'GET', url: '/archives', token: teacher.token })).json() as {
              id: number;
              status: string;
            }[]
          ).find((j) => j.id === id)?.status,
        { timeout: 20_000 },
      )
      .toBe('ready');
    const zip = readZip(
      (await t.api({ method: 'GET', url: `/archives/${id}/download`, token: teacher.token })).rawPayload,
    );
    const media = [...zip.keys()].filter((k) => k.startsWith('media/'));
    expect(media).toHaveLength(4);
    for (const entry of media) expect(entry, entry).toMatch(/\.(txt|pdf)$/);
    expect(media.some((e) => e.endsWith('-lesson.html.txt'))).toBe(true);
    expect(media.some((e) => e.endsWith('-handout.pdf'))).toBe(true);
    const pageHtml = String(zip.get(`artifact-${artifact.id}.html`));
    for (const entry of media) expect(pageHtml).toContain(`<a href="${entry}" download`);
  });
});

describe('another member’s edit lock', async () => {
  const t = await buildTestApp();

  it('the artifact’s owner, the portfolio’s lead and a researcher release it without its code; another member gets 400', async () => {
    const lead = await createLead(t);
    const [owner, holder, colleague] = [await createTeacher(t), await createTeacher(t), await createTeacher(t)];
    const sp = await createSharedPortfolio(t, lead, { members: [owner, holder, colleague] });
    const sa = await createSharedArtifact(t, sp, owner);
    const base = `/shared-portfolios/${sp.id}/shared-artifacts/${sa.id}`;
    const lockedBy = async () =>
      (
        await t.db.query<{ by: number | null }>(
          'SELECT CASE WHEN lock_code IS NULL THEN NULL ELSE locked_by END AS by FROM shared_artifacts WHERE id = $1',
          [sa.id],
        )
      ).rows[0]!.by;
    for (const releaser of [owner, lead, await createResearcher(t)]) {
      expect(await t.api({ method: 'POST', url: `${base}/lock`, token: holder.token })).toHaveStatus(200);
      expect(await t.api({ method: 'POST', url: `${base}/unlock`, token: colleague.token, payload: {} })).toBeApiError(
        400,
      );
      expect(await lockedBy()).toBe(holder.user.id);
      const released = await t.api({ method: 'POST', url: `${base}/unlock`, token: releaser.token, payload: {} });
      expect(released).toHaveStatus(200);
      expect(await lockedBy()).toBeNull();
    }
  });
});
