import { describe, expect, it } from 'vitest';
import { createTeacher } from '../../test/factories.ts';
import { pngImage } from '../../test/files.ts';
import { buildTestApp } from '../../test/helper.ts';
import { media, mediaKit } from '../../test/fixtures/media.ts';
import { partsOf, toArtifact, tusClient, uploadIdOf } from '../../test/fixtures/resumable.ts';
import { RESUMABLE_EXPIRES_AFTER_MS, RESUMABLE_MESSAGES } from '../services/resumableUploadService.ts';

// The answer to an upload's last PATCH lost on the way: the client asks again (HEAD, or the last
// PATCH once more) and learns the upload is complete, with the record it became, never a second one.
const QUOTA = 4 * 1024 * 1024;
const t = await buildTestApp({ uploadLimitBytes: 6 * 1024 * 1024, storageQuotaBytes: QUOTA });
const { ownArtifact } = mediaKit(t);

async function filesBy(userId: number): Promise<{ n: number; bytes: number }> {
  const { rows } = await t.db.query<{ n: number; bytes: number }>(
    'SELECT count(*)::int AS n, coalesce(sum(size), 0)::float8 AS bytes FROM media_files WHERE uploaded_by = $1',
    [userId],
  );
  return rows[0]!;
}

/**
 * The quota left to `tus` is exactly `QUOTA - used`: an upload of that length may be created (and
 * is cancelled again), one byte more is refused.
 */
async function expectRoomLeft(tus: ReturnType<typeof tusClient>, meta: Record<string, string>, used: number) {
  const fits = await tus.create(QUOTA - used, meta);
  expect(fits).toHaveStatus(201);
  expect(await tus.terminate(uploadIdOf(fits))).toHaveStatus(204);
  expect(await tus.create(QUOTA - used + 1, meta)).toBeApiError(413);
}

describe('the lost answer to the last PATCH', () => {
  it('is asked again: HEAD tells the whole length, the repeated PATCH answers the same record, quota charged once', async () => {
    const { teacher, portfolio, artifact } = await ownArtifact();
    const tus = tusClient(t, teacher.token);
    const png = await pngImage(400, 300);
    const id = uploadIdOf(await tus.create(png.length, toArtifact(portfolio.id, artifact.id, 'image', 'a.png')));
    const first = media(await tus.patch(id, 0, png));
    // The answer above is what the client lost: it asks where the upload stands.
    const head = await tus.head(id);
    expect(head).toHaveStatus(200);
    expect(head.headers['upload-offset']).toBe(String(png.length));
    expect(head.headers['upload-length']).toBe(String(png.length));
    expect(head.headers['cache-control']).toBe('no-store');
    const again = await tus.patch(id, png.length, Buffer.alloc(0));
    expect(again).toHaveStatus(200);
    expect(again.headers['upload-offset']).toBe(String(png.length));
    const record = media(again);
    expect(record.id).toBe(first.id);
    expect(record.parentArtifact.images.map((m) => m.id)).toEqual([first.id]);
    expect(await filesBy(teacher.user.id)).toEqual({ n: 1, bytes: png.length });
    await expectRoomLeft(tus, toArtifact(portfolio.id, artifact.id, 'image', 'b.png'), png.length);
    expect(await partsOf(t, id)).toBe(0);
    // Bytes past the end, or a PATCH at another offset, are refused as with any upload.
    expect(await tus.patch(id, 0, png)).toBeApiError(409);
    expect(await filesBy(teacher.user.id)).toEqual({ n: 1, bytes: png.length });
  });

  it('answers 423 to HEAD while it is being finished, which the client asks again', async () => {
    const { teacher, portfolio, artifact } = await ownArtifact();
    const tus = tusClient(t, teacher.token);
    const png = await pngImage(300, 200);
    const id = uploadIdOf(await tus.create(png.length, toArtifact(portfolio.id, artifact.id, 'image', 'a.png')));
    expect(await tus.patch(id, 0, png.subarray(0, 100))).toHaveStatus(204);
    // What a request turning it into its record (on any node) holds meanwhile.
    await t.db.query('UPDATE resumable_uploads SET finishing = true WHERE id = $1', [id]);
    expect((await tus.head(id)).statusCode).toBe(423);
  });

  it('is forgotten by DELETE, and the file it became stays', async () => {
    const { teacher, portfolio, artifact } = await ownArtifact();
    const tus = tusClient(t, teacher.token);
    const png = await pngImage(300, 200);
    const id = uploadIdOf(await tus.create(png.length, toArtifact(portfolio.id, artifact.id, 'image', 'a.png')));
    const first = media(await tus.patch(id, 0, png));
    expect(await tus.terminate(id)).toHaveStatus(204);
    expect((await tus.head(id)).statusCode).toBe(404);
    expect(await filesBy(teacher.user.id)).toEqual({ n: 1, bytes: png.length });
    expect(first.parentArtifact.images.map((m) => m.id)).toEqual([first.id]);
  });

  it("answers 404 to another person's HEAD and PATCH of a finished upload", async () => {
    const { teacher, portfolio, artifact } = await ownArtifact();
    const png = await pngImage(300, 200);
    const id = uploadIdOf(
      await tusClient(t, teacher.token).create(png.length, toArtifact(portfolio.id, artifact.id, 'image', 'a.png')),
    );
    media(await tusClient(t, teacher.token).patch(id, 0, png));
    const other = tusClient(t, (await createTeacher(t)).token);
    expect((await other.head(id)).statusCode).toBe(404);
    expect(await other.patch(id, png.length, Buffer.alloc(0))).toBeApiError(404, RESUMABLE_MESSAGES.notFound);
    expect(await filesBy(teacher.user.id)).toEqual({ n: 1, bytes: png.length });
  });

  it('is remembered until its expiry; the housekeeping then forgets it and the file keeps its quota', async () => {
    const { teacher, portfolio, artifact } = await ownArtifact();
    const tus = tusClient(t, teacher.token);
    const png = await pngImage(300, 200);
    const id = uploadIdOf(await tus.create(png.length, toArtifact(portfolio.id, artifact.id, 'image', 'a.png')));
    media(await tus.patch(id, 0, png));
    t.clock.advance(RESUMABLE_EXPIRES_AFTER_MS - 60_000);
    await t.app.services.resumableUploads.expire();
    expect((await tus.head(id)).headers['upload-offset']).toBe(String(png.length));
    t.clock.advance(120_000);
    expect((await tus.head(id)).statusCode).toBe(404);
    expect(await t.app.services.resumableUploads.expire()).toBeGreaterThanOrEqual(1);
    const { rows } = await t.db.query('SELECT id FROM resumable_uploads WHERE id = $1', [id]);
    expect(rows).toEqual([]);
    expect(await filesBy(teacher.user.id)).toEqual({ n: 1, bytes: png.length });
    await expectRoomLeft(tus, toArtifact(portfolio.id, artifact.id, 'image', 'b.png'), png.length);
  });
});
