import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { ArtifactListResponseSchema, ArtifactMediaResponseSchema, ArtifactSchema } from '#schemas/artifact';
import { PortfolioListResponseSchema, PortfolioSchema } from '#schemas/portfolio';
import {
  COMPLETE_RESPONSES,
  countRows,
  createPortfolio,
  createResearcher,
  createTeacher,
  uploadedFiles,
  type TestUser,
} from '../../test/factories.ts';
import { multipart, pdfDocument, pngImage } from '../../test/files.ts';
import { buildTestApp } from '../../test/helper.ts';
import { discardAbandonedArtifacts } from '../services/housekeeping.ts';

const t = await buildTestApp();

const create = (token: string, portfolioId: number, payload: object) =>
  t.api({ method: 'POST', url: `/portfolios/${portfolioId}/artifacts/responses`, token, payload });

async function newArtifact(teacher: TestUser, portfolioId: number, payload: object = {}) {
  const res = await create(teacher.token, portfolioId, payload);
  expect(res).toHaveStatus(200);
  return ArtifactSchema.parse(res.json());
}

async function uploadImage(teacher: TestUser, portfolioId: number, artifactId: number) {
  const res = await t.api({
    method: 'POST',
    url: `/portfolios/${portfolioId}/artifacts/${artifactId}/images`,
    token: teacher.token,
    ...multipart('file', 'ramp.png', await pngImage(64, 48)),
  });
  expect(res).toHaveStatus(200);
  return ArtifactMediaResponseSchema.parse(res.json());
}

/** Every place a teacher's artifacts are listed or counted, as the owner and a researcher see them. */
async function listings(teacher: TestUser, researcher: TestUser, portfolioId: number) {
  const portfolio = PortfolioSchema.parse(
    (await t.api({ method: 'GET', url: `/portfolios/${portfolioId}`, token: teacher.token })).json(),
  );
  const list = PortfolioListResponseSchema.parse(
    (await t.api({ method: 'GET', url: '/portfolios', token: teacher.token })).json(),
  );
  const researcherList = PortfolioListResponseSchema.parse(
    (await t.api({ method: 'GET', url: `/portfolios?owner=${teacher.user.id}`, token: researcher.token })).json(),
  );
  const researcherPortfolio = PortfolioSchema.parse(
    (await t.api({ method: 'GET', url: `/portfolios/${portfolioId}`, token: researcher.token })).json(),
  );
  const mobile = ArtifactListResponseSchema.parse(
    (await t.api({ method: 'GET', url: '/artifacts', token: teacher.token })).json(),
  );
  const csv = (await t.api({ method: 'GET', url: '/portfolios/export', token: researcher.token })).body;
  const rows = parse(csv, { columns: true }) as Record<string, string>[];
  const row = rows.find((r) => r['Portfolio'] === portfolio.name);
  return {
    portfolio: portfolio.artifacts.map((a) => a.id),
    list: list.find((p) => p.id === portfolioId)?.artifacts.map((a) => a.id),
    researcherList: researcherList.find((p) => p.id === portfolioId)?.artifacts.map((a) => a.id),
    researcherPortfolio: researcherPortfolio.artifacts.map((a) => a.id),
    mobile: mobile.map((a) => a.id),
    csvArtifacts: [row?.['Artifacts'], row?.['Parking Lot Artifacts'], row?.['Images']],
  };
}

describe('a new artifact is kept only once saved', () => {
  it('is listed and counted nowhere until its first save, and everywhere after it', async () => {
    const teacher = await createTeacher(t);
    const researcher = await createResearcher(t);
    const portfolio = await createPortfolio(t, teacher);
    const artifact = await newArtifact(teacher, portfolio.id);
    expect(artifact.saved).toBe(false);
    await uploadImage(teacher, portfolio.id, artifact.id);

    expect(await listings(teacher, researcher, portfolio.id)).toEqual({
      portfolio: [],
      list: [],
      researcherList: [],
      researcherPortfolio: [],
      mobile: [],
      csvArtifacts: ['0', '0', '0'],
    });
    // Its editor still reads it; nobody else does.
    const own = await t.api({ method: 'GET', url: `/artifacts/${artifact.id}`, token: teacher.token });
    expect(own).toHaveStatus(200);
    expect(ArtifactSchema.parse(own.json())).toMatchObject({ id: artifact.id, saved: false });
    expect(await t.api({ method: 'GET', url: `/artifacts/${artifact.id}`, token: researcher.token })).toHaveStatus(404);

    const saved = await t.api({
      method: 'PUT',
      url: `/artifacts/${artifact.id}`,
      token: teacher.token,
      payload: { responses: { artifactName: 'Ramp race' }, parkingLot: true },
    });
    expect(saved).toHaveStatus(200);
    expect(ArtifactSchema.parse(saved.json()).saved).toBe(true);
    expect(await listings(teacher, researcher, portfolio.id)).toEqual({
      portfolio: [artifact.id],
      list: [artifact.id],
      researcherList: [artifact.id],
      researcherPortfolio: [artifact.id],
      mobile: [artifact.id],
      csvArtifacts: ['1', '1', '1'],
    });
  });

  it('counts as saved when the create itself carries answers or submits', async () => {
    const teacher = await createTeacher(t);
    const portfolio = await createPortfolio(t, teacher);
    expect((await newArtifact(teacher, portfolio.id, { responses: { artifactName: 'Ramp race' } })).saved).toBe(true);
    expect((await newArtifact(teacher, portfolio.id, { responses: COMPLETE_RESPONSES, parkingLot: false })).saved).toBe(
      true,
    );
    // The web's old create body (no answers, in the lot) is an empty new artifact.
    expect((await newArtifact(teacher, portfolio.id, { structure: [], responses: {}, parkingLot: true })).saved).toBe(
      false,
    );
  });

  it('keeps the mobile wizard working: create {}, upload, then the first PUT of its answers saves it', async () => {
    const teacher = await createTeacher(t);
    const portfolio = await createPortfolio(t, teacher);
    const artifact = await newArtifact(teacher, portfolio.id);
    const file = await uploadImage(teacher, portfolio.id, artifact.id);
    // The upload answers with the parent artifact the app caches (still unsaved).
    expect(file.parentArtifact).toMatchObject({ id: artifact.id, saved: false });
    const put = await t.api({
      method: 'PUT',
      url: `/portfolios/${portfolio.id}/artifacts/${artifact.id}/responses`,
      token: teacher.token,
      payload: { responses: { artifactName: 'Ramp race' }, parkingLot: true },
    });
    expect(put).toHaveStatus(200);
    expect(ArtifactSchema.parse(put.json())).toMatchObject({ saved: true, responses: { artifactName: 'Ramp race' } });
    const mobile = ArtifactListResponseSchema.parse(
      (await t.api({ method: 'GET', url: '/artifacts', token: teacher.token })).json(),
    );
    expect(mobile.map((a) => a.id)).toEqual([artifact.id]);
    const login = await t.api({
      method: 'POST',
      url: '/auth/local',
      payload: { identifier: teacher.user.email, password: teacher.password },
    });
    expect((login.json() as { user: { artifacts: { id: number }[] } }).user.artifacts.map((a) => a.id)).toEqual([
      artifact.id,
    ]);
  });

  it('leaves nothing behind when its editor deletes it: rows and files', async () => {
    const teacher = await createTeacher(t);
    const portfolio = await createPortfolio(t, teacher);
    const before = {
      artifacts: await countRows(t, 'artifacts'),
      media: await countRows(t, 'media_files'),
      files: await uploadedFiles(t),
    };
    const artifact = await newArtifact(teacher, portfolio.id);
    await uploadImage(teacher, portfolio.id, artifact.id);
    expect((await uploadedFiles(t)).length).toBeGreaterThan(before.files.length);
    expect(await t.api({ method: 'DELETE', url: `/artifacts/${artifact.id}`, token: teacher.token })).toHaveStatus(200);
    expect({
      artifacts: await countRows(t, 'artifacts'),
      media: await countRows(t, 'media_files'),
      files: await uploadedFiles(t),
    }).toEqual(before);
  });

  it('goes with its portfolio, which counts as empty', async () => {
    const teacher = await createTeacher(t);
    const portfolio = await createPortfolio(t, teacher);
    const files = await uploadedFiles(t);
    const artifact = await newArtifact(teacher, portfolio.id);
    await uploadImage(teacher, portfolio.id, artifact.id);
    expect(await t.api({ method: 'DELETE', url: `/portfolios/${portfolio.id}`, token: teacher.token })).toHaveStatus(
      200,
    );
    expect((await t.db.query('SELECT id FROM artifacts WHERE id = $1', [artifact.id])).rows).toEqual([]);
    expect(await uploadedFiles(t)).toEqual(files);
  });
});

describe('housekeeping of abandoned new artifacts', () => {
  it('removes never-saved artifacts older than the limit with their files, and keeps recent and saved ones', async () => {
    const teacher = await createTeacher(t);
    const portfolio = await createPortfolio(t, teacher);
    const files = await uploadedFiles(t);
    const abandoned = await newArtifact(teacher, portfolio.id);
    await uploadImage(teacher, portfolio.id, abandoned.id);
    const keptDocument = await t.api({
      method: 'POST',
      url: `/portfolios/${portfolio.id}/artifacts/${abandoned.id}/documents`,
      token: teacher.token,
      ...multipart('file', 'plan.pdf', pdfDocument()),
    });
    expect(keptDocument).toHaveStatus(200);
    const recent = await newArtifact(teacher, portfolio.id);
    const oldSaved = await newArtifact(teacher, portfolio.id, { responses: { artifactName: 'Kept' } });
    await t.db.query(`UPDATE artifacts SET created_at = ms_now() - interval '25 hours' WHERE id = ANY($1::int[])`, [
      [abandoned.id, oldSaved.id],
    ]);

    const removed = await discardAbandonedArtifacts(t.db, t.app.mediaStore);

    expect(removed).toBe(1);
    const left = await t.db.query<{ id: number }>('SELECT id FROM artifacts WHERE portfolio_id = $1 ORDER BY id', [
      portfolio.id,
    ]);
    expect(left.rows.map((r) => r.id)).toEqual([recent.id, oldSaved.id]);
    expect(await uploadedFiles(t)).toEqual(files);
    const media = await t.db.query(
      'SELECT m.id FROM media_files m LEFT JOIN artifact_media am ON am.media_id = m.id WHERE am.artifact_id IS NULL',
    );
    expect(media.rows).toEqual([]);
  });
});
