import { describe, expect, it } from 'vitest';
import { ArtifactSchema } from '#schemas/artifact';
import { SharedArtifactDetailSchema, SharedArtifactMediaResponseSchema } from '#schemas/sharedArtifact';
import { SharedArtifactSchema } from '#schemas/sharedPortfolio';
import { VersionDetailSchema } from '#schemas/versions';
import {
  COMPLETE_RESPONSES,
  createArtifact,
  createPortfolio,
  createSharedArtifact,
  createSharedPortfolio,
  createTeacher,
  teamQuestion,
} from '../../test/factories.ts';
import { multipart, pdfDocument, pngImage } from '../../test/files.ts';
import { buildTestApp } from '../../test/helper.ts';
import { fetchFile, filesOf, isStored, media } from '../../test/fixtures/media.ts';
import { toArtifact, tusClient, uploadIdOf } from '../../test/fixtures/resumable.ts';
import { asWeb, storedVersions, type StoredVersion } from '../../test/fixtures/versions.ts';

const t = await buildTestApp();

/** Runs `act` and expects exactly one new version of the holder, as `expected` says; returns it. */
async function oneVersion(
  holder: 'artifact' | 'sharedArtifact',
  id: number,
  act: () => Promise<{ statusCode: number; body: string }>,
  expected: Partial<StoredVersion>,
): Promise<StoredVersion> {
  const before = await storedVersions(t, holder, id);
  const res = await act();
  expect(res.statusCode, res.body).toBe(200);
  const after = await storedVersions(t, holder, id);
  expect(after.slice(0, before.length)).toEqual(before);
  expect(after).toHaveLength(before.length + 1);
  const added = after.at(-1)!;
  expect(added).toMatchObject({ number: before.length + 1, ...expected });
  return added;
}

describe('every save of a personal artifact records exactly one version', () => {
  it('web save, mobile save, file added, file removed, copy and restore, each through its client and by its author', async () => {
    const teacher = await createTeacher(t);
    const author = teacher.user.id;
    const portfolio = await createPortfolio(t, teacher);
    const artifact = await createArtifact(t, portfolio);
    const base = `/portfolios/${portfolio.id}/artifacts/${artifact.id}`;

    await oneVersion(
      'artifact',
      artifact.id,
      () =>
        asWeb(t, teacher.token, {
          method: 'PUT',
          url: `/artifacts/${artifact.id}`,
          payload: { responses: COMPLETE_RESPONSES },
        }),
      { client: 'web', author, files: [] },
    );
    await oneVersion(
      'artifact',
      artifact.id,
      () =>
        t.api({
          method: 'PUT',
          url: `${base}/responses`,
          token: teacher.token,
          payload: { responses: { studentThinking: 'They compare slopes.' }, parkingLot: false },
        }),
      { client: 'mobile', author },
    );
    let image = 0;
    const added = await oneVersion(
      'artifact',
      artifact.id,
      async () => {
        const res = await t.api({
          method: 'POST',
          url: `${base}/images`,
          token: teacher.token,
          ...multipart('file', 'a.png', await pngImage(40, 30)),
        });
        image = media(res).id;
        return res;
      },
      { client: 'mobile', author },
    );
    expect(added.files).toEqual([image]);
    await oneVersion(
      'artifact',
      artifact.id,
      () =>
        asWeb(t, teacher.token, {
          method: 'POST',
          url: `${base}/documents`,
          ...multipart('file', 'b.pdf', pdfDocument()),
        }),
      { client: 'web', author },
    );
    await oneVersion(
      'artifact',
      artifact.id,
      () => asWeb(t, teacher.token, { method: 'DELETE', url: `${base}/images/${image}` }),
      { client: 'web', author },
    );
    const restored = await oneVersion(
      'artifact',
      artifact.id,
      () =>
        asWeb(t, teacher.token, { method: 'POST', url: `/artifacts/${artifact.id}/versions/3/restore`, payload: {} }),
      { client: 'restore', author, restoredFrom: 3 },
    );
    expect(restored.files).toEqual([image]);

    // A copy into a shared portfolio starts the copy's history.
    const sp = await createSharedPortfolio(t, await createTeacher(t), { members: [teacher] });
    const shared = await t.api({
      method: 'POST',
      url: `/artifacts/${artifact.id}/share`,
      token: teacher.token,
      payload: { sharedPortfolioId: String(sp.id) },
    });
    expect(shared).toHaveStatus(200);
    const copy = SharedArtifactSchema.parse(shared.json());
    expect(await storedVersions(t, 'sharedArtifact', copy.id)).toEqual([
      { number: 1, client: 'copy', author, restoredFrom: null, files: [image] },
    ]);
    expect(await storedVersions(t, 'artifact', artifact.id)).toHaveLength(6);
  });

  it('a resumable upload records one version, when its last byte arrives, through the client of that request', async () => {
    const teacher = await createTeacher(t);
    const portfolio = await createPortfolio(t, teacher);
    const artifact = await createArtifact(t, portfolio);
    const png = await pngImage(200, 100);
    const tus = tusClient(t, teacher.token);
    const id = uploadIdOf(await tus.create(png.length, toArtifact(portfolio.id, artifact.id, 'image', 'a.png')));
    const half = Math.floor(png.length / 2);
    expect(await tus.patch(id, 0, png.subarray(0, half))).toHaveStatus(204);
    expect(await storedVersions(t, 'artifact', artifact.id)).toEqual([]);
    const added = await oneVersion('artifact', artifact.id, () => tus.patch(id, half, png.subarray(half)), {
      client: 'mobile',
      author: teacher.user.id,
    });
    expect(added.files).toHaveLength(1);
  });

  it('a new artifact created with answers starts its history; an empty one only at its first save', async () => {
    const teacher = await createTeacher(t);
    const portfolio = await createPortfolio(t, teacher);
    const create = (payload: object) =>
      t.api({ method: 'POST', url: `/portfolios/${portfolio.id}/artifacts/responses`, token: teacher.token, payload });
    const answered = ArtifactSchema.parse((await create({ responses: COMPLETE_RESPONSES, parkingLot: false })).json());
    expect(await storedVersions(t, 'artifact', answered.id)).toMatchObject([{ number: 1, client: 'mobile' }]);
    const empty = ArtifactSchema.parse((await create({})).json());
    expect(await storedVersions(t, 'artifact', empty.id)).toEqual([]);
  });

  it('a refused save records nothing', async () => {
    const teacher = await createTeacher(t);
    const artifact = await createArtifact(t, await createPortfolio(t, teacher), { parkingLot: false });
    const res = await t.api({
      method: 'PUT',
      url: `/artifacts/${artifact.id}`,
      token: teacher.token,
      payload: { responses: { learningGoal: 'No name' } },
    });
    expect(res).toBeApiError(400, 'Field Artifact Name is required.');
    expect(await storedVersions(t, 'artifact', artifact.id)).toEqual([]);
  });
});

describe('every save of a shared artifact records exactly one version', () => {
  it('web save, mobile save after a gate check, file added, file removed, copy and restore', async () => {
    const lead = await createTeacher(t);
    const member = await createTeacher(t);
    const sp = await createSharedPortfolio(t, lead, { members: [member], questions: [teamQuestion('nextSteps')] });
    const sa = await createSharedArtifact(t, sp, lead);
    const nested = `/shared-portfolios/${sp.id}/shared-artifacts/${sa.id}`;
    const author = member.user.id;

    const web = await oneVersion(
      'sharedArtifact',
      sa.id,
      () =>
        asWeb(t, member.token, {
          method: 'PUT',
          url: `/shared-artifacts/${sa.id}`,
          payload: { responses: { ...COMPLETE_RESPONSES, nextSteps: 'Try ramps.' }, updated_at: sa.updated_at },
        }),
      { client: 'web', author },
    );
    expect(web.number).toBe(1);
    // The mobile app's save: no updated_at, checked against the version its gate check saw.
    const gate = await t.api({
      method: 'GET',
      url: `${nested}/gate-check?updated_at=${Date.now()}`,
      token: lead.token,
    });
    expect(gate.json()).toMatchObject({ type: 'ok' });
    await oneVersion(
      'sharedArtifact',
      sa.id,
      () =>
        t.api({
          method: 'PUT',
          url: `${nested}/responses`,
          token: lead.token,
          payload: { responses: { nextSteps: null } },
        }),
      { client: 'mobile', author: lead.user.id },
    );
    let image = 0;
    await oneVersion(
      'sharedArtifact',
      sa.id,
      async () => {
        const res = await asWeb(t, member.token, {
          method: 'POST',
          url: `${nested}/images`,
          ...multipart('file', 'a.png', await pngImage(30, 30)),
        });
        image = SharedArtifactMediaResponseSchema.parse(res.json()).id;
        return res;
      },
      { client: 'web', author },
    );
    await oneVersion(
      'sharedArtifact',
      sa.id,
      () => t.api({ method: 'DELETE', url: `${nested}/images/${image}`, token: member.token }),
      { client: 'mobile', author, files: [] },
    );
    const current = SharedArtifactDetailSchema.parse(
      (await t.api({ method: 'GET', url: `/shared-artifacts/${sa.id}`, token: member.token })).json(),
    );
    await oneVersion(
      'sharedArtifact',
      sa.id,
      () =>
        asWeb(t, member.token, {
          method: 'POST',
          url: `/shared-artifacts/${sa.id}/versions/3/restore`,
          payload: { updated_at: current.updated_at },
        }),
      { client: 'restore', author, restoredFrom: 3, files: [image] },
    );
    const copied = await t.api({
      method: 'POST',
      url: `/shared-artifacts/${sa.id}/share`,
      token: member.token,
      payload: { sharedPortfolioId: String(sp.id) },
    });
    const copy = SharedArtifactSchema.parse(copied.json());
    expect(await storedVersions(t, 'sharedArtifact', copy.id)).toMatchObject([
      { number: 1, client: 'copy', files: [image] },
    ]);
  });

  it('a save refused by the gate (409) records nothing', async () => {
    const lead = await createTeacher(t);
    const member = await createTeacher(t);
    const sp = await createSharedPortfolio(t, lead, { members: [member], questions: [teamQuestion('nextSteps')] });
    const sa = await createSharedArtifact(t, sp, lead);
    const save = (who: typeof lead, nextSteps: string) =>
      t.api({
        method: 'PUT',
        url: `/shared-artifacts/${sa.id}`,
        token: who.token,
        payload: { responses: { ...COMPLETE_RESPONSES, nextSteps }, updated_at: sa.updated_at },
      });
    expect(await save(lead, 'First')).toHaveStatus(200);
    expect((await save(member, 'Second')).statusCode).toBe(409);
    expect(await storedVersions(t, 'sharedArtifact', sa.id)).toHaveLength(1);
  });
});

describe('files of a version', () => {
  it('stay viewable in that version after they left the artifact, and go with the artifact', async () => {
    const teacher = await createTeacher(t);
    const portfolio = await createPortfolio(t, teacher);
    const artifact = await createArtifact(t, portfolio);
    const base = `/portfolios/${portfolio.id}/artifacts/${artifact.id}`;
    const file = media(
      await t.api({
        method: 'POST',
        url: `${base}/images`,
        token: teacher.token,
        ...multipart('file', 'a.png', await pngImage(300, 200)),
      }),
    );
    expect(await t.api({ method: 'DELETE', url: `${base}/images/${file.id}`, token: teacher.token })).toHaveStatus(200);

    const res = await t.api({ method: 'GET', url: `/artifacts/${artifact.id}/versions/1`, token: teacher.token });
    expect(res).toHaveStatus(200);
    const version = VersionDetailSchema.parse(res.json());
    expect(version.images.map((m) => [m.id, m.caption, m.name])).toEqual([[file.id, 'A', 'a.png']]);
    for (const url of filesOf(version.images[0]!)) expect(await fetchFile(t, url)).toHaveStatus(200);
    const now = VersionDetailSchema.parse(
      (await t.api({ method: 'GET', url: `/artifacts/${artifact.id}/versions/2`, token: teacher.token })).json(),
    );
    expect(now.images).toEqual([]);

    expect(await t.api({ method: 'DELETE', url: `/artifacts/${artifact.id}`, token: teacher.token })).toHaveStatus(200);
    for (const url of filesOf(file)) expect(await isStored(t, url)).toBe(false);
    expect(await storedVersions(t, 'artifact', artifact.id)).toEqual([]);
    const { rows } = await t.db.query('SELECT 1 FROM media_files WHERE id = $1', [file.id]);
    expect(rows).toEqual([]);
  });
});
