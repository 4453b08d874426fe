import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { runAdmin } from '../admin.ts';
import { buildApp } from '../app.ts';
import { createArtifact, createPortfolio, createTeacher } from '../../test/factories.ts';
import { fetchFile, filesOf, media, upload } from '../../test/fixtures/media.ts';
import { multipart, pdfDocument, pngImage } from '../../test/files.ts';
import { buildTestApp, CapturingMailer, testAppOf } from '../../test/helper.ts';
import { testS3Settings } from '../../test/s3.ts';
import { s3Client } from './s3ObjectStore.ts';

// An installation that keeps its files in DATA_DIR/uploads (the server project's default).
const t = await buildTestApp();
const s3 = await testS3Settings();
const client = s3Client(s3);

/** A server of the same installation (database, DATA_DIR) with `s3` (or not): ready, or the reason it is not. */
async function restartWith(withS3: boolean) {
  const config = { ...t.config, s3: withS3 ? s3 : null };
  const app = await buildApp({ config, db: t.db, mailer: new CapturingMailer(), logger: false });
  try {
    await app.ready();
  } catch (error) {
    await app.close().catch(() => undefined);
    return { refused: (error as Error).message };
  }
  return { app: testAppOf(app, t.db, new CapturingMailer(), config) };
}

describe('npm run admin -- media copy-to-s3', () => {
  it('copies every file into the bucket, checked, resumably; the portal then runs from the bucket only', async () => {
    const teacher = await createTeacher(t);
    const artifact = await createArtifact(t, await createPortfolio(t, teacher));
    const base = `/portfolios/${artifact.portfolio.id}/artifacts/${artifact.id}`;
    const png = await pngImage(640, 480);
    const image = media(await upload(t, teacher.token, `${base}/images`, multipart('file', 'board.png', png)));
    const doc = media(
      await upload(t, teacher.token, `${base}/documents`, multipart('file', 'plan.pdf', pdfDocument())),
    );
    const names = [...filesOf(image), ...filesOf(doc)].map((url) => url.split('/').pop()!);
    expect(names).toHaveLength(6);

    // Before the copy the bucket is not where the files are: a server with MEDIA_STORE=s3 will not start.
    expect((await restartWith(true)).refused).toContain('The media files are in DATA_DIR/uploads, not in the bucket');
    await expect(runAdmin(['media', 'copy-to-s3'], t.config, t.db)).rejects.toThrow('Set MEDIA_STORE=s3');

    const withS3 = { ...t.config, s3 };
    const first = await runAdmin(['media', 'copy-to-s3'], withS3, t.db);
    expect(first).toContain('6 files copied and verified, 0 already in the bucket');
    for (const name of names) {
      const stored = await client.send(new GetObjectCommand({ Bucket: s3.bucket, Key: name }));
      const bytes = Buffer.from(await stored.Body!.transformToByteArray());
      expect(bytes.equals(readFileSync(path.join(t.config.dataDir, 'uploads', name))), name).toBe(true);
    }

    // Run again: nothing is copied twice. A lost object and one whose bytes changed are copied again.
    expect(await runAdmin(['media', 'copy-to-s3'], withS3, t.db)).toContain('0 files copied and verified, 6 already');
    await client.send(new DeleteObjectCommand({ Bucket: s3.bucket, Key: names[0] }));
    await client.send(
      new PutObjectCommand({ Bucket: s3.bucket, Key: names[5], Body: 'not the file', Metadata: { sha256: 'forged' } }),
    );
    expect(await runAdmin(['media', 'copy-to-s3'], withS3, t.db)).toContain(
      '2 files copied and verified, 4 already in the bucket',
    );

    // Now the files are in the bucket: a server without it refuses; with it, it serves the same bytes.
    expect((await restartWith(false)).refused).toContain(
      `The media files are in the S3 bucket "${s3.bucket}": start with MEDIA_STORE=s3`,
    );
    const other = await restartWith(true);
    expect(other.refused).toBeUndefined();
    const served = await fetchFile(other.app!, image.url);
    expect(served).toHaveStatus(200);
    expect(served.rawPayload.equals(png)).toBe(true);
    expect((await fetchFile(other.app!, doc.url)).rawPayload.equals(pdfDocument())).toBe(true);
    await other.app!.app.close();
  });
});
