import { describe, expect, it } from 'vitest';
import { type Media } from '#schemas/media';
import {
  countRows,
  createArtifact,
  createLead,
  createPortfolio,
  createResearcher,
  createSharedPortfolio,
  createTeacher,
  removeMember,
  snapshot,
} from '../../test/factories.ts';
import { multipart, pdfDocument, pngImage } from '../../test/files.ts';
import { buildTestApp } from '../../test/helper.ts';
import { MediaCapabilities } from '../media/capabilities.ts';
import {
  mediaKit,
  upload,
  fetchFile,
  addressFor,
  fileNameOf,
  isStored,
  filesOf,
  media,
} from '../../test/fixtures/media.ts';

const t = await buildTestApp({ ffmpegPath: '/usr/bin/ffmpeg' });
const { ownArtifact } = mediaKit(t);

describe('deleting files', () => {
  it('removes a file from the artifact; its history keeps the file until the artifact is deleted', async () => {
    const { teacher, artifact, base } = await ownArtifact();
    const file = media(
      await upload(t, teacher.token, `${base}/images`, multipart('file', 'a.png', await pngImage(600, 400))),
    );
    const keep = media(
      await upload(t, teacher.token, `${base}/images`, multipart('file', 'b.png', await pngImage(60, 40))),
    );
    const res = await t.api({ method: 'DELETE', url: `${base}/images/${file.id}`, token: teacher.token });
    const answer = media(res);
    expect(answer).toMatchObject({ id: file.id, caption: 'A', url: file.url });
    expect(answer.parentArtifact.id).toBe(artifact.id);
    expect(answer.parentArtifact.images.map((m) => m.id)).toEqual([keep.id]);
    // The versions that held it still show it.
    for (const url of filesOf(file)) expect(await isStored(t, url)).toBe(true);
    expect(await t.api({ method: 'DELETE', url: `${base}/images/${file.id}`, token: teacher.token })).toBeApiError(
      404,
      'File not found.',
    );
    expect(await t.api({ method: 'DELETE', url: `/artifacts/${artifact.id}`, token: teacher.token })).toHaveStatus(200);
    for (const url of [...filesOf(file), ...filesOf(keep)]) {
      expect(await isStored(t, url)).toBe(false);
      expect(await fetchFile(t, url)).toBeApiError(404, 'File not found.');
    }
    const { rows } = await t.db.query('SELECT 1 FROM media_files WHERE id = ANY($1::int[])', [[file.id, keep.id]]);
    expect(rows).toEqual([]);
    expect(await countRows(t, 'pending_uploads')).toBe(0);
  });

  it('answers 404 for a file of another kind, of another artifact, or under another portfolio, changing nothing', async () => {
    const { teacher, portfolio, base } = await ownArtifact();
    const mine = media(
      await upload(t, teacher.token, `${base}/images`, multipart('file', 'a.png', await pngImage(20, 20))),
    );
    const other = await ownArtifact();
    const theirs = media(
      await upload(t, other.teacher.token, `${other.base}/documents`, multipart('file', 'b.pdf', pdfDocument())),
    );
    const myOther = await createArtifact(t, await createPortfolio(t, teacher));
    const before = await snapshot(t);
    expect(await t.api({ method: 'DELETE', url: `${base}/documents/${mine.id}`, token: teacher.token })).toBeApiError(
      404,
      'File not found.',
    );
    expect(await t.api({ method: 'DELETE', url: `${base}/documents/${theirs.id}`, token: teacher.token })).toBeApiError(
      404,
      'File not found.',
    );
    expect(
      await t.api({ method: 'DELETE', url: `${other.base}/documents/${theirs.id}`, token: teacher.token }),
    ).toBeApiError(404, 'Artifact not found.');
    expect(
      await t.api({
        method: 'DELETE',
        url: `/portfolios/${portfolio.id}/artifacts/${other.artifact.id}/documents/${theirs.id}`,
        token: teacher.token,
      }),
    ).toBeApiError(404, 'Artifact not found.');
    expect(
      await t.api({
        method: 'DELETE',
        url: `/portfolios/${portfolio.id}/artifacts/${myOther.id}/images/${mine.id}`,
        token: teacher.token,
      }),
    ).toBeApiError(404, 'Artifact not found.');
    expect(await t.api({ method: 'DELETE', url: `${base}/images/abc`, token: teacher.token })).toBeApiError(
      400,
      'fileId must be a positive whole number.',
    );
    expect(await snapshot(t)).toEqual(before);
  });

  it('deletes the files an artifact held alone when the artifact is deleted', async () => {
    const { teacher, artifact, base } = await ownArtifact();
    const image = media(
      await upload(t, teacher.token, `${base}/images`, multipart('file', 'a.png', await pngImage(300, 300))),
    );
    const doc = media(await upload(t, teacher.token, `${base}/documents`, multipart('file', 'b.pdf', pdfDocument())));
    expect(await t.api({ method: 'DELETE', url: `/artifacts/${artifact.id}`, token: teacher.token })).toHaveStatus(200);
    for (const url of [...filesOf(image), ...filesOf(doc)]) expect(await isStored(t, url)).toBe(false);
    const { rows } = await t.db.query('SELECT 1 FROM media_files WHERE id = ANY($1::int[])', [[image.id, doc.id]]);
    expect(rows).toEqual([]);
    expect(await countRows(t, 'pending_uploads')).toBe(0);
  });

  it('keeps a file copied into a shared artifact when the personal artifact lets go of it, and serves it to members', async () => {
    const { teacher, portfolio } = await ownArtifact();
    const member = await createTeacher(t);
    const sp = await createSharedPortfolio(t, await createTeacher(t), { members: [teacher, member] });
    const artifact = await createArtifact(t, portfolio, { parkingLot: false });
    const own = `/portfolios/${portfolio.id}/artifacts/${artifact.id}`;
    const image = media(
      await upload(t, teacher.token, `${own}/images`, multipart('file', 'shared.png', await pngImage(400, 300))),
    );
    const copy = await t.api({
      method: 'POST',
      url: `/artifacts/${artifact.id}/share`,
      token: teacher.token,
      payload: { sharedPortfolioId: sp.id },
    });
    expect(copy).toHaveStatus(200);
    expect(copy.json().images.map((m: Media) => [m.id, m.caption])).toEqual([[image.id, 'A']]);

    expect(await t.api({ method: 'DELETE', url: `${own}/images/${image.id}`, token: teacher.token })).toHaveStatus(200);
    expect(await t.api({ method: 'DELETE', url: `/artifacts/${artifact.id}`, token: teacher.token })).toHaveStatus(200);
    for (const url of filesOf(image)) {
      expect(await isStored(t, url)).toBe(true);
      expect(await fetchFile(t, addressFor(t, member, url))).toHaveStatus(200);
    }

    // The last holder lets go: now the file goes.
    expect(
      await t.api({ method: 'DELETE', url: `/shared-artifacts/${copy.json().id}`, token: member.token }),
    ).toHaveStatus(200);
    for (const url of filesOf(image)) expect(await isStored(t, url)).toBe(false);
  });
});

describe('who may fetch a file', () => {
  it('serves a file by the capability address the API gave its reader, without a session; others get 404', async () => {
    const { teacher, base } = await ownArtifact();
    const file = media(
      await upload(t, teacher.token, `${base}/images`, multipart('file', 'a.png', await pngImage(300, 200))),
    );
    const researcher = await createResearcher(t);
    const stranger = await createTeacher(t);
    for (const url of filesOf(file)) {
      expect(await fetchFile(t, url)).toHaveStatus(200);
      expect(await fetchFile(t, addressFor(t, teacher, url))).toHaveStatus(200);
      expect(await fetchFile(t, addressFor(t, researcher, url))).toHaveStatus(200);
      expect(await fetchFile(t, addressFor(t, stranger, url))).toBeApiError(404, 'File not found.');
      // The bare name is no address at all, whatever credentials come with it.
      const bare = await t.app.inject({
        method: 'GET',
        url: `/api/v1/uploads/${fileNameOf(url)}`,
        headers: { authorization: `Bearer ${teacher.token}`, cookie: `jwt=${teacher.token}` },
      });
      expect(bare).toHaveStatus(404);
    }
    const served = await fetchFile(t, file.url);
    expect(served.headers['content-disposition']).toBe('inline; filename="a.png"');
    expect(served.headers['cache-control']).toMatch(/^private, max-age=\d+$/);
    expect(Number(/max-age=(\d+)/.exec(served.headers['cache-control'] as string)![1])).toBeLessThanOrEqual(3600);
  });

  it('sends the file as stored: whole, one byte range (206), an unsatisfiable range (416), or only its headers', async () => {
    const { teacher, base } = await ownArtifact();
    const png = await pngImage(300, 200);
    const file = media(await upload(t, teacher.token, `${base}/images`, multipart('file', 'a.png', png)));
    const address = file.url.replace(/^\//, '/api/v1/');
    const whole = await t.app.inject({ method: 'GET', url: address });
    expect(whole).toHaveStatus(200);
    expect(whole.rawPayload.equals(png)).toBe(true);
    expect(whole.headers['accept-ranges']).toBe('bytes');

    const part = await t.app.inject({ method: 'GET', url: address, headers: { range: 'bytes=1-3' } });
    expect(part).toHaveStatus(206);
    expect(part.headers['content-range']).toBe(`bytes 1-3/${png.length}`);
    expect(part.payload).toBe('PNG');
    const tail = await t.app.inject({ method: 'GET', url: address, headers: { range: 'bytes=-4' } });
    expect(tail).toHaveStatus(206);
    expect(tail.rawPayload.equals(png.subarray(png.length - 4))).toBe(true);

    const beyond = await t.app.inject({ method: 'GET', url: address, headers: { range: `bytes=${png.length}-` } });
    expect(beyond).toHaveStatus(416);
    expect(beyond.headers['content-range']).toBe(`bytes */${png.length}`);

    const head = await t.app.inject({ method: 'HEAD', url: address });
    expect(head).toHaveStatus(200);
    expect(Number(head.headers['content-length'])).toBe(png.length);
    expect(head.payload).toBe('');
    expect(head.headers['content-disposition']).toBe('inline; filename="a.png"');
  });

  it('refuses a tampered, expired, borrowed or foreign capability with a 404 that tells nothing', async () => {
    const { teacher, base } = await ownArtifact();
    const file = media(
      await upload(t, teacher.token, `${base}/images`, multipart('file', 'a.png', await pngImage(30, 20))),
    );
    const other = media(
      await upload(t, teacher.token, `${base}/images`, multipart('file', 'b.png', await pngImage(30, 20))),
    );
    const [, , capability, name] = file.url.split('/') as [string, string, string, string];
    const [user, expiry, signature] = capability.split('.') as [string, string, string];
    const flip = (text: string) => `${text.slice(0, -1)}${text.endsWith('A') ? 'B' : 'A'}`;
    const stranger = await createTeacher(t);
    const past = new MediaCapabilities(t.config.jwtSecret).sign(
      `/uploads/${name}`,
      teacher.user.id,
      Date.now() - 3 * 24 * 3600_000,
    );
    const otherKey = new MediaCapabilities('another installation').sign(`/uploads/${name}`, teacher.user.id);
    const refused = [
      `/uploads/${user}.${expiry}.${flip(signature)}/${name}`,
      `/uploads/${stranger.user.id.toString(36)}.${expiry}.${signature}/${name}`,
      `/uploads/${user}.${(parseInt(expiry, 36) + 3600).toString(36)}.${signature}/${name}`,
      `/uploads/${capability}/${fileNameOf(other.url)}`,
      `/uploads/${capability}/thumbnail_${fileNameOf(other.url).replace('.png', '.jpg')}`,
      past,
      otherKey,
      `/uploads/${capability}/..%2F..%2Fpackage.json`,
      `/uploads/not-a-capability/${name}`,
    ];
    for (const url of refused) expect(await fetchFile(t, url), url).toBeApiError(404, 'File not found.');
    expect(await fetchFile(t, `/uploads/${capability}/%2E%2E`)).toHaveStatus(404);
    expect(await fetchFile(t, file.url)).toHaveStatus(200);
  });

  it('stops working at once for a reader who may no longer read the file, and for a blocked account', async () => {
    const { teacher, portfolio } = await ownArtifact();
    const member = await createTeacher(t);
    const lead = await createLead(t);
    const sp = await createSharedPortfolio(t, lead, { members: [teacher, member] });
    const artifact = await createArtifact(t, portfolio, { parkingLot: false });
    const image = media(
      await upload(
        t,
        teacher.token,
        `/portfolios/${portfolio.id}/artifacts/${artifact.id}/images`,
        multipart('file', 'shared.png', await pngImage(40, 30)),
      ),
    );
    expect(
      await t.api({
        method: 'POST',
        url: `/artifacts/${artifact.id}/share`,
        token: teacher.token,
        payload: { sharedPortfolioId: sp.id },
      }),
    ).toHaveStatus(200);
    const membersAddress = addressFor(t, member, image.url);
    expect(await fetchFile(t, membersAddress)).toHaveStatus(200);
    await removeMember(t, sp, member);
    expect(await fetchFile(t, membersAddress)).toBeApiError(404, 'File not found.');

    const leadsAddress = addressFor(t, lead, image.url);
    expect(await fetchFile(t, leadsAddress)).toHaveStatus(200);
    await t.db.query('UPDATE users SET blocked = true WHERE id = $1', [lead.user.id]);
    await t.principalsHeard();
    expect(await fetchFile(t, leadsAddress)).toBeApiError(404, 'File not found.');
  });

  it('answers 404 for names that are not stored files, including path tricks', async () => {
    const { teacher, base } = await ownArtifact();
    const file = media(
      await upload(t, teacher.token, `${base}/images`, multipart('file', 'a.png', await pngImage(30, 20))),
    );
    const capability = file.url.split('/')[2]!;
    for (const name of [
      'nothing.png',
      'thumbnail_nothing.jpg',
      '..%2F..%2Fetc%2Fpasswd',
      '..%5Cpasswd',
      '.incoming',
      'a.PNG',
      'x'.repeat(30),
    ]) {
      const res = await fetchFile(t, `/uploads/${capability}/${name}`);
      expect(res, name).toBeApiError(404, 'File not found.');
    }
    expect(await fetchFile(t, `/uploads/${capability}/../../package.json`)).toHaveStatus(404);
    const long = await fetchFile(t, `/uploads/${capability}/${'x'.repeat(101)}.png`);
    expect(long).toBeApiError(414, 'The address of the request is not valid.');
    expect(long.json().error).toBe('URI Too Long');
  });
});
