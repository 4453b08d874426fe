import { describe, expect, it } from 'vitest';
import { PortfolioDeleteResponseSchema, PortfolioSchema } from '#schemas/portfolio';
import {
  createArtifact,
  createLead,
  createPortfolio,
  createResearcher,
  createTeacher,
  snapshot,
  TEMPLATE_STRUCTURE,
} from '../../test/factories.ts';
import { buildTestApp } from '../../test/helper.ts';

const t = await buildTestApp();

const NOT_FOUND = 'Portfolio not found.';

const read = (token: string, id: number | string) => t.api({ method: 'GET', url: `/portfolios/${id}`, token });
const create = (token: string, payload: unknown) =>
  t.api({ method: 'POST', url: '/portfolios', token, payload: payload as object });
const update = (token: string, id: number | string, payload: unknown) =>
  t.api({ method: 'PUT', url: `/portfolios/${id}`, token, payload: payload as object });
const remove = (token: string, id: number | string) => t.api({ method: 'DELETE', url: `/portfolios/${id}`, token });

/** Sends a raw JSON text (for bodies a JavaScript object cannot express). */
const raw = (token: string, method: 'POST' | 'PUT', url: string, body: string) =>
  t.api({ method, url, token, payload: body, headers: { 'content-type': 'application/json' } });

describe('POST /portfolios', () => {
  it('creates a portfolio owned by the caller with the template’s questions and a trimmed name', async () => {
    const teacher = await createTeacher(t);
    const res = await create(teacher.token, {
      name: '  Forces and Motion \n',
      grades: ['K', '1st'],
      subject: 'Science',
      topic: '  Ramps  ',
    });
    expect(res).toHaveStatus(200);
    const body = PortfolioSchema.parse(res.json());
    expect(body).toMatchObject({
      name: 'Forces and Motion',
      grades: ['K', '1st'],
      subject: 'Science',
      topic: 'Ramps',
      template: 'Basic',
      owner: { id: teacher.user.id, username: teacher.user.username, email: teacher.user.email },
      artifacts: [],
    });
    expect(body.structure).toEqual(TEMPLATE_STRUCTURE);
    expect((await read(teacher.token, body.id)).json()).toEqual(body);
  });

  it('accepts the fields the original web client sends, and blank optional fields as empty', async () => {
    const lead = await createLead(t);
    const res = await create(lead.token, {
      name: 'Lab',
      grades: [],
      subject: '',
      topic: '   ',
      template: 'Basic',
      editMode: true,
    });
    expect(res).toHaveStatus(200);
    expect(res.json()).toMatchObject({ name: 'Lab', grades: [], subject: null, topic: null });
    const minimal = await create(lead.token, { name: 'Only a name' });
    expect(minimal.json()).toMatchObject({ grades: [], subject: null, topic: null });
  });

  it('keeps unicode names exactly (emoji, scripts, combining marks)', async () => {
    const teacher = await createTeacher(t);
    for (const name of [
      'Évolution 🌱 des plantes',
      'Física y Química',
      '物理の授業',
      'שיעור פיזיקה',
      'e\u0301te\u0301',
      '👩🏽‍🔬 Lab',
    ]) {
      const res = await create(teacher.token, { name });
      expect(res).toHaveStatus(200);
      expect(res.json().name).toBe(name);
    }
  });

  it('requires a name: "A name is required." when it is missing or blank, and nothing is stored', async () => {
    const teacher = await createTeacher(t);
    const before = await snapshot(t);
    for (const payload of [{ name: '' }, { name: '   ' }, { name: '\n\t ' }, { grades: ['K'] }]) {
      expect(await create(teacher.token, payload)).toBeApiError(
        400,
        payload.name === undefined ? 'name is required.' : 'A name is required.',
      );
    }
    expect(await snapshot(t)).toEqual(before);
  });

  it('refuses wrong types, unknown grades or subjects and too long texts with a message naming the field', async () => {
    const teacher = await createTeacher(t);
    const before = await snapshot(t);
    const cases: [unknown, string][] = [
      [{ name: 42 }, 'name must be a text.'],
      [{ name: null }, 'name must be a text.'],
      [{ name: ['a'] }, 'name must be a text.'],
      [{ name: 'x'.repeat(201) }, 'The name must be at most 200 characters.'],
      [{ name: 'ok', grades: 'K' }, 'grades must be a list.'],
      [{ name: 'ok', grades: ['13th'] }, 'Unknown grade "13th".'],
      [{ name: 'ok', grades: ['K', 'K'] }, 'Each grade may be listed once.'],
      [{ name: 'ok', subject: 'Astrology' }, 'Unknown subject "Astrology".'],
      [{ name: 'ok', subject: 3 }, 'Unknown subject 3.'],
      [{ name: 'ok', topic: 'x'.repeat(501) }, 'The topic must be at most 500 characters.'],
      [{ name: 'ok', template: 'Fancy' }, 'template must be one of: "Basic".'],
      [{ name: 'ok', editMode: 'yes' }, 'editMode must be true or false.'],
      [[{ name: 'ok' }], 'The request body must be an object.'],
    ];
    for (const [payload, message] of cases) expect(await create(teacher.token, payload)).toBeApiError(400, message);
    expect(await snapshot(t)).toEqual(before);
  });

  it('refuses fields it does not take (no mass assignment) and stores nothing', async () => {
    const teacher = await createTeacher(t);
    const victim = await createTeacher(t);
    const theirs = await createPortfolio(t, victim);
    const theirArtifact = await createArtifact(t, theirs);
    const before = await snapshot(t);
    const cases: [Record<string, unknown>, string][] = [
      [{ name: 'x', owner: victim.user.id }, 'Unknown field "owner"; it is not accepted.'],
      [{ name: 'x', artifacts: [theirArtifact.id] }, 'Unknown field "artifacts"; it is not accepted.'],
      [{ name: 'x', structure: [] }, 'Unknown field "structure"; it is not accepted.'],
      [{ name: 'x', id: 1 }, 'Unknown field "id"; it is not accepted.'],
      [{ name: 'x', owner: 1, structure: [] }, 'Unknown fields "owner", "structure"; they are not accepted.'],
    ];
    for (const [payload, message] of cases) expect(await create(teacher.token, payload)).toBeApiError(400, message);
    expect(await snapshot(t)).toEqual(before);
  });

  it('answers bodies that are not JSON, empty, too large or carry broken text with 4xx', async () => {
    const teacher = await createTeacher(t);
    const before = await snapshot(t);
    expect(await raw(teacher.token, 'POST', '/portfolios', '{"name": "x"')).toBeApiError(
      400,
      'The request body is not valid JSON.',
    );
    expect(await raw(teacher.token, 'POST', '/portfolios', '')).toBeApiError(400, 'The request body is required.');
    expect(await raw(teacher.token, 'POST', '/portfolios', '"just text"')).toBeApiError(
      400,
      'The request body must be an object.',
    );
    expect(await raw(teacher.token, 'POST', '/portfolios', 'null')).toBeApiError(400, 'The request body is required.');
    expect(await raw(teacher.token, 'POST', '/portfolios', '{"name":"a\\u0000b"}')).toBeApiError(
      400,
      'Text in the request body must not contain NUL characters.',
    );
    expect(await raw(teacher.token, 'POST', '/portfolios', '{"name":"\\ud800 half"}')).toBeApiError(
      400,
      'Text in the request body must be valid Unicode.',
    );
    expect(await raw(teacher.token, 'POST', '/portfolios', `{"name":"${'x'.repeat(1_100_000)}"}`)).toBeApiError(
      413,
      'The request body is too large.',
    );
    const text = await t.api({
      method: 'POST',
      url: '/portfolios',
      token: teacher.token,
      payload: 'name=x',
      headers: { 'content-type': 'text/plain' },
    });
    expect(text).toBeApiError(415, 'This content type is not accepted here.');
    const form = await t.api({
      method: 'POST',
      url: '/portfolios',
      token: teacher.token,
      payload: 'name=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form).toBeApiError(415, 'This content type is not accepted here.');
    expect(await snapshot(t)).toEqual(before);
  });

  it('refuses researchers with 403 (they keep no personal portfolios)', async () => {
    const researcher = await createResearcher(t);
    const before = await snapshot(t);
    expect(await create(researcher.token, { name: 'Mine' })).toBeApiError(
      403,
      'Researchers do not keep personal portfolios.',
    );
    expect(await snapshot(t)).toEqual(before);
  });
});

describe('PUT /portfolios/{id}', () => {
  it('changes the given fields only, trimming the name', async () => {
    const teacher = await createTeacher(t);
    const p = await createPortfolio(t, teacher, { name: 'Old', grades: ['3rd'], subject: 'Arts', topic: 'Colour' });
    const res = await update(teacher.token, p.id, { name: '  New name ' });
    expect(res).toHaveStatus(200);
    const body = PortfolioSchema.parse(res.json());
    expect(body).toMatchObject({ name: 'New name', grades: ['3rd'], subject: 'Arts', topic: 'Colour' });
    expect(Date.parse(body.updated_at)).toBeGreaterThan(Date.parse(p.updatedAt));
    const cleared = await update(teacher.token, p.id, { grades: [], subject: null, topic: '' });
    expect(cleared.json()).toMatchObject({ name: 'New name', grades: [], subject: null, topic: null });
    expect((await update(teacher.token, p.id, { id: p.id, name: 'Echoed id', editMode: false })).json().name).toBe(
      'Echoed id',
    );
  });

  it('refuses a blank name, unknown fields and a different id in the body, changing nothing', async () => {
    const teacher = await createTeacher(t);
    const victim = await createTeacher(t);
    const p = await createPortfolio(t, teacher);
    const theirs = await createArtifact(t, await createPortfolio(t, victim));
    const before = await snapshot(t);
    const cases: [Record<string, unknown>, string][] = [
      [{ name: '  ' }, 'A name is required.'],
      [{ name: 'x'.repeat(201) }, 'The name must be at most 200 characters.'],
      [{ owner: victim.user.id }, 'Unknown field "owner"; it is not accepted.'],
      [{ structure: [] }, 'Unknown field "structure"; it is not accepted.'],
      [{ artifacts: [theirs.id] }, 'Unknown field "artifacts"; it is not accepted.'],
      [{ id: p.id + 1, name: 'x' }, 'The id in the body does not match the address.'],
      [{ id: 'one' }, 'id must be a number.'],
    ];
    for (const [payload, message] of cases)
      expect(await update(teacher.token, p.id, payload)).toBeApiError(400, message);
    expect(await snapshot(t)).toEqual(before);
  });

  it('never changes the template, not even for researchers', async () => {
    const people = [await createTeacher(t), await createResearcher(t)];
    const before = await snapshot(t);
    for (const who of people) {
      expect(await update(who.token, 1, { name: 'Mine now' })).toBeApiError(
        403,
        'The portfolio template cannot be changed.',
      );
      expect(await remove(who.token, 1)).toBeApiError(403, 'The portfolio template cannot be changed.');
    }
    expect(await snapshot(t)).toEqual(before);
    expect((await read((await createTeacher(t)).token, 1)).json().structure).toEqual(TEMPLATE_STRUCTURE);
  });
});

describe('DELETE /portfolios/{id}', () => {
  it('is refused while the portfolio has artifacts, then allowed once it is empty', async () => {
    const teacher = await createTeacher(t);
    const p = await createPortfolio(t, teacher, { name: 'Doomed' });
    const a = await createArtifact(t, p);
    const before = await snapshot(t);
    expect(await remove(teacher.token, p.id)).toBeApiError(
      400,
      'A portfolio can be deleted only when it has no artifacts.',
    );
    expect(await snapshot(t)).toEqual(before);

    expect(await t.api({ method: 'DELETE', url: `/artifacts/${a.id}`, token: teacher.token })).toHaveStatus(200);
    const res = await remove(teacher.token, p.id);
    expect(res).toHaveStatus(200);
    expect(PortfolioDeleteResponseSchema.parse(res.json())).toMatchObject({ id: p.id, name: 'Doomed', artifacts: [] });
    expect(await read(teacher.token, p.id)).toBeApiError(404, NOT_FOUND);
    expect(await remove(teacher.token, p.id)).toBeApiError(404, NOT_FOUND);
  });
});
