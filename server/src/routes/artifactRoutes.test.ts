import { describe, expect, it } from 'vitest';
import { ArtifactListResponseSchema, ArtifactSchema } from '#schemas/artifact';
import { STANDARDS_ITEMS } from '#schemas/standards';
import {
  attachMedia,
  COMPLETE_RESPONSES,
  createArtifact,
  createPortfolio,
  createResearcher,
  createTeacher,
  snapshot,
  TEMPLATE_STRUCTURE,
} from '../../test/factories.ts';
import { INVALID_RESPONSES, ownPortfolio } from '../../test/fixtures/artifacts.ts';
import { buildTestApp } from '../../test/helper.ts';

const t = await buildTestApp();

const NOT_FOUND = 'Artifact not found.';

const createIn = (token: string, portfolioId: number | string, payload?: unknown, trailingSlash = false) =>
  t.api({
    method: 'POST',
    url: `/portfolios/${portfolioId}/artifacts/responses${trailingSlash ? '/' : ''}`,
    token,
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
const read = (token: string, id: number | string) => t.api({ method: 'GET', url: `/artifacts/${id}`, token });
const save = (token: string, id: number | string, payload: unknown) =>
  t.api({ method: 'PUT', url: `/artifacts/${id}`, token, payload: payload as object });
const remove = (token: string, id: number) => t.api({ method: 'DELETE', url: `/artifacts/${id}`, token });

describe('POST /portfolios/{id}/artifacts/responses', () => {
  it('creates a parking-lot artifact with the portfolio’s questions, from the mobile’s {} or the web’s body', async () => {
    const { teacher, portfolioId } = await ownPortfolio(t);
    const mobile = await createIn(teacher.token, portfolioId, {});
    expect(mobile).toHaveStatus(200);
    const artifact = ArtifactSchema.parse(mobile.json());
    expect(artifact).toMatchObject({
      portfolio: { id: portfolioId },
      parkingLot: true,
      responses: {},
      nextCaption: 'A',
      owner: { id: teacher.user.id, username: teacher.user.username, email: teacher.user.email },
      ownerUsername: teacher.user.username,
      commentCount: 0,
      commentTexts: [],
      images: [],
      videos: [],
      documents: [],
    });
    expect(artifact.structure).toEqual(TEMPLATE_STRUCTURE);

    // The web sends the portfolio's structure as it read it (fields in another order) to the URL with a slash.
    const portfolio = (await t.api({ method: 'GET', url: `/portfolios/${portfolioId}`, token: teacher.token })).json();
    const web = await createIn(
      teacher.token,
      portfolioId,
      { structure: portfolio.structure, responses: {}, parkingLot: true },
      true,
    );
    expect(web).toHaveStatus(200);
    expect(web.json().parkingLot).toBe(true);
    expect(await createIn(teacher.token, portfolioId)).toHaveStatus(200);
  });

  it('can create a completed artifact when every core question is answered', async () => {
    const { teacher, portfolioId } = await ownPortfolio(t);
    const res = await createIn(teacher.token, portfolioId, {
      responses: { ...COMPLETE_RESPONSES, unitDay: '12', nextSteps: '' },
      parkingLot: false,
    });
    expect(res).toHaveStatus(200);
    expect(res.json()).toMatchObject({ parkingLot: false, responses: { ...COMPLETE_RESPONSES, unitDay: 12 } });
    expect(res.json().responses).not.toHaveProperty('nextSteps');
  });

  it('checks answers against the questions with the spec’s messages, and stores nothing', async () => {
    const { teacher, portfolioId } = await ownPortfolio(t);
    const before = await snapshot(t);
    for (const [responses, message] of INVALID_RESPONSES) {
      expect(await createIn(teacher.token, portfolioId, { responses })).toBeApiError(400, message);
    }
    expect(
      await createIn(teacher.token, portfolioId, { responses: { artifactName: 'Only a name' }, parkingLot: false }),
    ).toBeApiError(400, 'Field What were students working to learn? is required.');
    expect(await createIn(teacher.token, portfolioId, { responses: {}, parkingLot: false })).toBeApiError(
      400,
      'Field Artifact Name is required.',
    );
    expect(await snapshot(t)).toEqual(before);
  });

  it('refuses other questions, unknown fields and wrong types, and stores nothing', async () => {
    const { teacher, portfolioId } = await ownPortfolio(t);
    const otherPortfolio = await createPortfolio(t, await createTeacher(t));
    const before = await snapshot(t);
    const changed = [{ key: 'artifactName', text: 'Name', type: 'shortText', core: true }];
    expect(await createIn(teacher.token, portfolioId, { structure: changed })).toBeApiError(
      400,
      'The questions of an artifact cannot be changed.',
    );
    const cases: [unknown, string][] = [
      [{ portfolio: otherPortfolio.id }, 'Unknown field "portfolio"; it is not accepted.'],
      [{ owner: 1 }, 'Unknown field "owner"; it is not accepted.'],
      [{ images: [1] }, 'Unknown field "images"; it is not accepted.'],
      [{ parkingLot: 'no' }, 'parkingLot must be true or false.'],
      [{ responses: ['x'] }, 'responses must be an object.'],
      [{ responses: { artifactName: { nested: 1 } } }, 'responses.artifactName is not valid.'],
      [{ responses: { artifactName: null } }, 'responses.artifactName is not valid.'],
      [{ structure: 'all' }, 'structure must be a list.'],
      [[], 'The request body must be an object.'],
    ];
    for (const [payload, message] of cases)
      expect(await createIn(teacher.token, portfolioId, payload)).toBeApiError(400, message);
    expect(await snapshot(t)).toEqual(before);
  });

  it('never creates artifacts in the template portfolio', async () => {
    const teacher = await createTeacher(t);
    const before = await snapshot(t);
    expect(await createIn(teacher.token, 1, {})).toBeApiError(403, 'The portfolio template cannot be changed.');
    expect(await createIn(teacher.token, 1, { responses: COMPLETE_RESPONSES, parkingLot: false })).toBeApiError(
      403,
      'The portfolio template cannot be changed.',
    );
    expect(await snapshot(t)).toEqual(before);
  });

  it('answers bad portfolio ids with 400 and unknown ones with 404', async () => {
    const teacher = await createTeacher(t);
    expect(await createIn(teacher.token, 'abc', {})).toBeApiError(400, 'id must be a positive whole number.');
    expect(await createIn(teacher.token, 0, {})).toBeApiError(400, 'id must be a positive whole number.');
    expect(await createIn(teacher.token, 2_147_483_647, {})).toBeApiError(404, 'Portfolio not found.');
  });
});

describe('GET /artifacts/{id}', () => {
  it('answers the owner and researchers with the whole artifact', async () => {
    const { teacher, portfolioId } = await ownPortfolio(t);
    const created = await createArtifact(t, { id: portfolioId }, { parkingLot: false });
    await attachMedia(t, 'artifact', created.id, 'image');
    await attachMedia(t, 'artifact', created.id, 'document');
    for (const who of [teacher, await createResearcher(t)]) {
      const res = await read(who.token, created.id);
      expect(res).toHaveStatus(200);
      const artifact = ArtifactSchema.parse(res.json());
      expect(artifact).toMatchObject({
        id: created.id,
        portfolio: { id: portfolioId },
        parkingLot: false,
        responses: COMPLETE_RESPONSES,
        nextCaption: 'C',
      });
      expect(artifact.images.map((m) => m.caption)).toEqual(['A']);
      expect(artifact.documents.map((m) => m.caption)).toEqual(['B']);
    }
  });

  it('answers 404 alike for someone else’s artifact and a missing one, and 400 for a bad id', async () => {
    const teacher = await createTeacher(t);
    const theirs = await createArtifact(t, await createPortfolio(t, await createTeacher(t)));
    expect(await read(teacher.token, theirs.id)).toBeApiError(404, NOT_FOUND);
    expect(await read(teacher.token, 2_000_000_000)).toBeApiError(404, NOT_FOUND);
    expect(await read(teacher.token, 'x1')).toBeApiError(400, 'id must be a positive whole number.');
  });
});

describe('DELETE /artifacts/{id}', () => {
  it('deletes the artifact and answers it with its portfolio id', async () => {
    const { teacher, portfolioId } = await ownPortfolio(t);
    const a = await createArtifact(t, { id: portfolioId }, { responses: { artifactName: 'Gone soon' } });
    const res = await remove(teacher.token, a.id);
    expect(res).toHaveStatus(200);
    expect(ArtifactSchema.parse(res.json())).toMatchObject({
      id: a.id,
      portfolio: { id: portfolioId },
      responses: { artifactName: 'Gone soon' },
    });
    expect(await read(teacher.token, a.id)).toBeApiError(404, NOT_FOUND);
    expect(await remove(teacher.token, a.id)).toBeApiError(404, NOT_FOUND);
  });
});

describe('GET /artifacts (mobile)', () => {
  it('lists only the caller’s own artifacts, across portfolios, with the portfolio as an id', async () => {
    const teacher = await createTeacher(t);
    const p1 = await createPortfolio(t, teacher);
    const p2 = await createPortfolio(t, teacher);
    const a1 = await createArtifact(t, p1);
    const a2 = await createArtifact(t, p2, { parkingLot: false });
    await createArtifact(t, await createPortfolio(t, await createTeacher(t)));
    const res = await t.api({ method: 'GET', url: '/artifacts', token: teacher.token });
    expect(res).toHaveStatus(200);
    const list = ArtifactListResponseSchema.parse(res.json());
    expect(list.map((a) => [a.id, a.portfolio])).toEqual([
      [a2.id, p2.id],
      [a1.id, p1.id],
    ]);
    const researcher = await createResearcher(t);
    expect((await t.api({ method: 'GET', url: '/artifacts', token: researcher.token })).json()).toEqual([]);
  });
});

describe('standards answers', () => {
  it('accepts the standards items and keeps each once', async () => {
    const { teacher, portfolioId } = await ownPortfolio(t);
    const a = await createArtifact(t, { id: portfolioId });
    const [first, second] = STANDARDS_ITEMS;
    const res = await save(teacher.token, a.id, { responses: { standardFrameworkTags: [first, second, first] } });
    expect(res).toHaveStatus(200);
    expect(res.json().responses.standardFrameworkTags).toEqual([first, second]);
  });
});
