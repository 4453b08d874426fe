import { describe, expect, it } from 'vitest';
import { ArtifactSchema } from '#schemas/artifact';
import { COMPLETE_RESPONSES, createArtifact, createPortfolio, createTeacher, snapshot } from '../../test/factories.ts';
import { INVALID_RESPONSES, ownPortfolio } from '../../test/fixtures/artifacts.ts';
import { buildTestApp } from '../../test/helper.ts';

const t = await buildTestApp();

const NOT_FOUND = 'Artifact not found.';

const read = (token: string, id: number | string) => t.api({ method: 'GET', url: `/artifacts/${id}`, token });
const save = (token: string, id: number | string, payload: unknown) =>
  t.api({ method: 'PUT', url: `/artifacts/${id}`, token, payload: payload as object });
const merge = (token: string, portfolioId: number, id: number, payload: unknown) =>
  t.api({
    method: 'PUT',
    url: `/portfolios/${portfolioId}/artifacts/${id}/responses`,
    token,
    payload: payload as object,
  });

describe('PUT /artifacts/{id}', () => {
  it('replaces the answers of a parking-lot artifact without requiring the core questions', async () => {
    const { teacher, portfolioId } = await ownPortfolio(t);
    const a = await createArtifact(t, { id: portfolioId }, { responses: { artifactName: 'Old', nextSteps: 'Later' } });
    const res = await save(teacher.token, a.id, { responses: { studentThinking: 'They compare slopes.', unitDay: 4 } });
    expect(res).toHaveStatus(200);
    const body = ArtifactSchema.parse(res.json());
    expect(body).toMatchObject({
      parkingLot: true,
      responses: { studentThinking: 'They compare slopes.', unitDay: 4 },
    });
    expect(body.responses).not.toHaveProperty('artifactName');
    expect(Date.parse(body.updated_at)).toBeGreaterThan(Date.parse(a.updated_at));
  });

  it('submits to the portfolio only when every core question is answered', async () => {
    const { teacher, portfolioId } = await ownPortfolio(t);
    const a = await createArtifact(t, { id: portfolioId });
    const before = await snapshot(t);
    expect(await save(teacher.token, a.id, { responses: { learningGoal: 'Goal' }, parkingLot: false })).toBeApiError(
      400,
      'Field Artifact Name is required.',
    );
    expect(await save(teacher.token, a.id, { responses: { artifactName: '   ' }, parkingLot: false })).toBeApiError(
      400,
      'Field Artifact Name is required.',
    );
    expect(await snapshot(t)).toEqual(before);
    const res = await save(teacher.token, a.id, { responses: COMPLETE_RESPONSES, parkingLot: false, id: a.id });
    expect(res).toHaveStatus(200);
    expect(res.json()).toMatchObject({ parkingLot: false, responses: COMPLETE_RESPONSES });
  });

  it('keeps a completed artifact completed: no return to the lot, and the core questions stay required', async () => {
    const { teacher, portfolioId } = await ownPortfolio(t);
    const a = await createArtifact(t, { id: portfolioId }, { parkingLot: false });
    const before = await snapshot(t);
    expect(await save(teacher.token, a.id, { responses: COMPLETE_RESPONSES, parkingLot: true })).toBeApiError(
      400,
      'A completed artifact cannot go back to the parking lot.',
    );
    expect(await save(teacher.token, a.id, { responses: { artifactName: 'Only a name' } })).toBeApiError(
      400,
      'Field What were students working to learn? is required.',
    );
    expect(await snapshot(t)).toEqual(before);
    expect(
      (await save(teacher.token, a.id, { responses: { ...COMPLETE_RESPONSES, nextSteps: 'Try ice.' } })).json(),
    ).toMatchObject({ parkingLot: false });
  });

  it('checks the answers with the spec’s messages and changes nothing when they are wrong', async () => {
    const { teacher, portfolioId } = await ownPortfolio(t);
    const a = await createArtifact(t, { id: portfolioId }, { responses: { artifactName: 'Keep me' } });
    const before = await snapshot(t);
    for (const [responses, message] of INVALID_RESPONSES)
      expect(await save(teacher.token, a.id, { responses })).toBeApiError(400, message);
    expect(await snapshot(t)).toEqual(before);
  });

  it('refuses to move an artifact, change its questions or owner, or attach files (no mass assignment)', async () => {
    const { teacher, portfolioId } = await ownPortfolio(t);
    const a = await createArtifact(t, { id: portfolioId });
    const victim = await createPortfolio(t, await createTeacher(t));
    const before = await snapshot(t);
    const cases: [Record<string, unknown>, string][] = [
      [{ responses: {}, portfolio: victim.id }, 'Unknown field "portfolio"; it is not accepted.'],
      [{ responses: {}, structure: [] }, 'Unknown field "structure"; it is not accepted.'],
      [{ responses: {}, owner: 1 }, 'Unknown field "owner"; it is not accepted.'],
      [{ responses: {}, images: [1, 2] }, 'Unknown field "images"; it is not accepted.'],
      [{ responses: {}, nextCaption: 'Z' }, 'Unknown field "nextCaption"; it is not accepted.'],
      [{ responses: {}, id: a.id + 1 }, 'The id in the body does not match the address.'],
      [{ parkingLot: false }, 'responses is required.'],
      [{ responses: 'none' }, 'responses must be an object.'],
    ];
    for (const [payload, message] of cases) expect(await save(teacher.token, a.id, payload)).toBeApiError(400, message);
    expect(await snapshot(t)).toEqual(before);
  });
});

describe('PUT /portfolios/{id}/artifacts/{artifactId}/responses (mobile merge)', () => {
  it('merges answers: a key overwrites, null deletes it, the others stay', async () => {
    const { teacher, portfolioId } = await ownPortfolio(t);
    const a = await createArtifact(
      t,
      { id: portfolioId },
      { responses: { artifactName: 'Ramp', nextSteps: 'Ice', unitDay: 2 } },
    );
    const res = await merge(teacher.token, portfolioId, a.id, {
      responses: { nextSteps: null, unitDay: 3, studentThinking: 'Slopes' },
    });
    expect(res).toHaveStatus(200);
    expect(ArtifactSchema.parse(res.json()).responses).toEqual({
      artifactName: 'Ramp',
      unitDay: 3,
      studentThinking: 'Slopes',
    });
    expect((await merge(teacher.token, portfolioId, a.id, {})).json().responses).toEqual({
      artifactName: 'Ramp',
      unitDay: 3,
      studentThinking: 'Slopes',
    });
  });

  it('takes back the structure the artifact already has, and submits with parkingLot false', async () => {
    const { teacher, portfolioId } = await ownPortfolio(t);
    const a = await createArtifact(t, { id: portfolioId });
    const { structure } = (await read(teacher.token, a.id)).json();
    const res = await merge(teacher.token, portfolioId, a.id, {
      structure,
      responses: COMPLETE_RESPONSES,
      parkingLot: false,
    });
    expect(res).toHaveStatus(200);
    expect(res.json()).toMatchObject({ parkingLot: false, responses: COMPLETE_RESPONSES });
    expect(await merge(teacher.token, portfolioId, a.id, { responses: { learningGoal: null } })).toBeApiError(
      400,
      'Field What were students working to learn? is required.',
    );
    expect(await merge(teacher.token, portfolioId, a.id, { parkingLot: true })).toBeApiError(
      400,
      'A completed artifact cannot go back to the parking lot.',
    );
  });

  it('answers 404 for an artifact of another portfolio, even the caller’s own (no IDOR), and changes nothing', async () => {
    const teacher = await createTeacher(t);
    const mine = await createPortfolio(t, teacher);
    const mineToo = await createPortfolio(t, teacher);
    const myArtifact = await createArtifact(t, mineToo);
    const theirs = await createArtifact(t, await createPortfolio(t, await createTeacher(t)));
    const before = await snapshot(t);
    expect(await merge(teacher.token, mine.id, myArtifact.id, { responses: { artifactName: 'x' } })).toBeApiError(
      404,
      NOT_FOUND,
    );
    expect(await merge(teacher.token, mine.id, theirs.id, { responses: { artifactName: 'x' } })).toBeApiError(
      404,
      NOT_FOUND,
    );
    expect(await merge(teacher.token, 1, theirs.id, { responses: { artifactName: 'x' } })).toBeApiError(404, NOT_FOUND);
    expect(
      await merge(teacher.token, theirs.portfolio.id, theirs.id, { responses: { artifactName: 'x' } }),
    ).toBeApiError(404, NOT_FOUND);
    expect(await snapshot(t)).toEqual(before);
  });

  it('refuses other questions, invalid answers and unknown fields, changing nothing', async () => {
    const { teacher, portfolioId } = await ownPortfolio(t);
    const a = await createArtifact(t, { id: portfolioId });
    const before = await snapshot(t);
    const cases: [unknown, string][] = [
      [{ structure: [{ key: 'x', text: 'X', type: 'shortText' }] }, 'The questions of an artifact cannot be changed.'],
      [{ responses: { unitDay: 1.5 } }, 'Field Day of the unit must be an integer.'],
      [{ responses: { nope: 'x' } }, 'There is no question "nope" in this artifact.'],
      [{ responses: {}, portfolio: 1 }, 'Unknown field "portfolio"; it is not accepted.'],
      [{ responses: { artifactName: true } }, 'responses.artifactName is not valid.'],
    ];
    for (const [payload, message] of cases)
      expect(await merge(teacher.token, portfolioId, a.id, payload)).toBeApiError(400, message);
    expect(await snapshot(t)).toEqual(before);
  });
});

describe('saves per person', () => {
  it('limits the saves of a person to 1,200 in ten minutes on each save route: then 429 and nothing saved', async () => {
    const { teacher, portfolioId } = await ownPortfolio(t);
    const a = await createArtifact(t, { id: portfolioId });
    for (let i = 0; i < 1200; i += 1)
      expect(await save(teacher.token, a.id, { responses: { nextSteps: `web ${i}` } }), `save ${i}`).toHaveStatus(200);
    expect(await save(teacher.token, a.id, { responses: { nextSteps: 'too often' } })).toBeApiError(429);
    expect((await read(teacher.token, a.id)).json()).toMatchObject({ responses: { nextSteps: 'web 1199' } });
    // The mobile apps' merge counts on its own route; another person's saves are their own.
    expect(await merge(teacher.token, portfolioId, a.id, { responses: { nextSteps: 'from the phone' } })).toHaveStatus(
      200,
    );
    const other = await ownPortfolio(t);
    const b = await createArtifact(t, { id: other.portfolioId });
    expect(await save(other.teacher.token, b.id, { responses: { nextSteps: 'mine' } })).toHaveStatus(200);
  }, 180_000);
});
