import { describe, expect, it } from 'vitest';
import {
  SharedPortfolioListItemSchema,
  SharedPortfolioListResponseSchema,
  SharedPortfolioSchema,
} from '#schemas/sharedPortfolio';
import {
  countRows,
  createComment,
  createLead,
  createReaction,
  createResearcher,
  createSharedArtifact,
  createSharedPortfolio,
  createTeacher,
  snapshot,
  teamQuestion,
  type TestUser,
  TEMPLATE_STRUCTURE,
} from '../../test/factories.ts';
import { buildTestApp } from '../../test/helper.ts';

const t = await buildTestApp();

const CORE = TEMPLATE_STRUCTURE.filter((q) => q.core);
const INVALID = (n: number, first: string) =>
  `You have ${n} invalid ${n === 1 ? 'question' : 'questions'}. Please add the required info and re-submit. ${first}`;

const body = (overrides: Record<string, unknown> = {}) => ({
  name: 'Grades 5–7 Science PLC',
  grades: ['5th', '6th'],
  subject: 'Science',
  topic: 'Energy',
  plcName: 'Middle school science',
  plcGoals: 'Share evidence of modelling.',
  structure: [
    { key: 'nextSteps', text: 'What would you do next, or differently?', type: 'longText' },
    teamQuestion('team-a'),
  ],
  ...overrides,
});

const create = (token: string, payload: unknown) =>
  t.api({ method: 'POST', url: '/shared-portfolios', token, payload: payload as object });
const update = (token: string, id: number, payload: unknown) =>
  t.api({ method: 'PUT', url: `/shared-portfolios/${id}`, token, payload: payload as object });
const read = (token: string, id: number) => t.api({ method: 'GET', url: `/shared-portfolios/${id}`, token });
const person = (u: TestUser) => ({ id: u.user.id, username: u.user.username, email: u.user.email });

describe('POST /shared-portfolios', () => {
  it('lets a PLC lead create one: owner and only member, the template’s core questions kept, team questions added', async () => {
    const lead = await createLead(t);
    const res = await create(lead.token, body({ name: '  Grades 5–7 Science PLC  ', invalidKeys: [] }));
    expect(res).toHaveStatus(200);
    const sp = SharedPortfolioSchema.parse(res.json());
    expect(sp).toMatchObject({
      name: 'Grades 5–7 Science PLC',
      grades: ['5th', '6th'],
      subject: 'Science',
      topic: 'Energy',
      plcName: 'Middle school science',
      plcGoals: 'Share evidence of modelling.',
      owner: person(lead),
      members: [person(lead)],
      sharedArtifacts: [],
      commentCount: 0,
    });
    expect(sp.templateStructure).toEqual(TEMPLATE_STRUCTURE);
    expect(sp.structure).toEqual([
      ...CORE,
      TEMPLATE_STRUCTURE.find((q) => q.key === 'nextSteps'),
      { ...teamQuestion('team-a'), bonus: true },
    ]);
    expect((await read(lead.token, sp.id)).json()).toEqual(sp);
  });

  it('lets a researcher create one', async () => {
    const researcher = await createResearcher(t);
    const res = await create(
      researcher.token,
      body({ structure: [], grades: [], subject: '', topic: null, plcName: '  ', plcGoals: undefined }),
    );
    expect(res).toHaveStatus(200);
    expect(res.json()).toMatchObject({
      owner: person(researcher),
      subject: null,
      topic: null,
      plcName: null,
      plcGoals: null,
      structure: CORE,
    });
  });

  it('refuses teachers with 403 and stores nothing', async () => {
    const teacher = await createTeacher(t);
    const before = await snapshot(t);
    expect(await create(teacher.token, body())).toBeApiError(403, 'You do not have permission to access this page.');
    expect(await snapshot(t)).toEqual(before);
  });

  it('refuses invalid team questions with the spec’s messages and stores nothing', async () => {
    const lead = await createLead(t);
    const before = await snapshot(t);
    const cases: [unknown[], string][] = [
      [[teamQuestion('q', { text: '' })], INVALID(1, 'Question text is required.')],
      [[{ key: 'q', text: 'Q?', type: '' }], INVALID(1, 'Question type is required.')],
      [[{ key: 'q', text: 'Q?', type: 'fileUpload' }], INVALID(1, 'Question type is required.')],
      [[teamQuestion('q', { type: 'singleSelection' })], INVALID(1, 'You must enter at least one choice.')],
      [
        [teamQuestion('q', { type: 'multipleResponse', choices: ['  '] })],
        INVALID(1, 'You must enter at least one choice.'),
      ],
      [
        [teamQuestion('a', { text: ' ' }), teamQuestion('b', { type: 'singleSelection' }), teamQuestion('c')],
        INVALID(2, 'Question text is required.'),
      ],
    ];
    for (const [structure, message] of cases)
      expect(await create(lead.token, body({ structure }))).toBeApiError(400, message);
    expect(await snapshot(t)).toEqual(before);
  });

  it('refuses a blank name, missing or oversized fields, and fields it does not take (no mass assignment)', async () => {
    const lead = await createLead(t);
    const other = await createTeacher(t);
    const before = await snapshot(t);
    const cases: [Record<string, unknown>, string][] = [
      [body({ name: '   ' }), 'A name is required.'],
      [body({ name: 'x'.repeat(201) }), 'The name must be at most 200 characters.'],
      [body({ structure: undefined }), 'structure is required.'],
      [body({ structure: 'all' }), 'structure must be a list.'],
      [
        body({ structure: Array.from({ length: 201 }, (_, i) => teamQuestion(`q${i}`)) }),
        'structure must have at most 200 item(s).',
      ],
      [
        body({ structure: [teamQuestion('q', { text: 'x'.repeat(1001) })] }),
        'Question text must be at most 1000 characters.',
      ],
      [body({ structure: [{ text: 'No key', type: 'shortText' }] }), 'structure.0.key is required.'],
      [body({ plcGoals: 'x'.repeat(5001) }), 'The PLC goals must be at most 5000 characters.'],
      [body({ plcName: 'x'.repeat(501) }), 'The PLC name must be at most 500 characters.'],
      [body({ grades: ['Grade 5'] }), 'Unknown grade "Grade 5".'],
      [body({ members: [other.user.id] }), 'Unknown field "members"; it is not accepted.'],
      [body({ owner: other.user.id }), 'Unknown field "owner"; it is not accepted.'],
      [body({ templateStructure: [] }), 'Unknown field "templateStructure"; it is not accepted.'],
      [body({ sharedArtifacts: [1] }), 'Unknown field "sharedArtifacts"; it is not accepted.'],
    ];
    for (const [payload, message] of cases) expect(await create(lead.token, payload)).toBeApiError(400, message);
    expect(await snapshot(t)).toEqual(before);
  });

  it('keeps unicode names and texts exactly', async () => {
    const lead = await createLead(t);
    const res = await create(lead.token, body({ name: 'Ciencias 🔬 — 科学', plcGoals: 'Zuhören & Fragen\nשאלות' }));
    expect(res.json()).toMatchObject({ name: 'Ciencias 🔬 — 科学', plcGoals: 'Zuhören & Fragen\nשאלות' });
  });
});

describe('GET /shared-portfolios', () => {
  it('lists where the caller is a member (researchers: all), with members, artifacts in brief and comment counts', async () => {
    const lead = await createLead(t);
    const member = await createTeacher(t);
    const invitee = await createTeacher(t);
    const sp = await createSharedPortfolio(t, lead, { members: [member], invitees: [invitee] });
    const elsewhere = await createSharedPortfolio(t, await createLead(t));
    const a = await createSharedArtifact(t, sp, member);
    const b = await createSharedArtifact(t, sp, lead);
    await createComment(t, a, lead);
    await createComment(t, b, member);
    await createReaction(t, a, lead, '⭐');
    await createReaction(t, b, member, '🔖');

    const mine = SharedPortfolioListResponseSchema.parse(
      (await t.api({ method: 'GET', url: '/shared-portfolios', token: member.token })).json(),
    );
    expect(mine.map((p) => p.id)).toEqual([sp.id]);
    expect(mine[0]).toMatchObject({
      owner: person(lead),
      members: [person(lead), person(member)],
      commentCount: 2,
      sharedArtifacts: [
        { id: a.id, owner: { id: member.user.id }, created_at: a.created_at, updated_at: a.updated_at },
        { id: b.id, owner: { id: lead.user.id }, created_at: b.created_at, updated_at: b.updated_at },
      ],
    });
    expect((await t.api({ method: 'GET', url: '/shared-portfolios', token: invitee.token })).json()).toEqual([]);
    const all = (
      await t.api({ method: 'GET', url: '/shared-portfolios', token: (await createResearcher(t)).token })
    ).json();
    expect(all.map((p: { id: number }) => p.id)).toEqual(expect.arrayContaining([sp.id, elsewhere.id]));
    expect(all).toHaveLength(await countRows(t, 'shared_portfolios'));
  });
});

describe('GET /shared-portfolios/{id}', () => {
  it('answers members, invitees and researchers with its artifacts in full: comment counts (comments only), texts and reaction flags', async () => {
    const lead = await createLead(t);
    const member = await createTeacher(t);
    const invitee = await createTeacher(t);
    const sp = await createSharedPortfolio(t, lead, {
      members: [member],
      invitees: [invitee],
      questions: [teamQuestion('t1')],
    });
    const a = await createSharedArtifact(t, sp, member, { topic: 'Ramps', subject: 'Science', grades: ['5th'] });
    await createComment(t, a, lead, 'First');
    await createComment(t, a, member, 'Second');
    await createReaction(t, a, lead, '🌉');
    await createReaction(t, a, member, '🌉');
    await createReaction(t, a, member, '❓');
    for (const who of [lead, member, invitee, await createResearcher(t)]) {
      const res = await read(who.token, sp.id);
      expect(res).toHaveStatus(200);
      const detail = SharedPortfolioSchema.parse(res.json());
      expect(detail.commentCount).toBe(2);
      expect(detail.sharedArtifacts).toHaveLength(1);
      expect(detail.sharedArtifacts[0]).toMatchObject({
        id: a.id,
        ownerUsername: member.user.username,
        portfolioTopic: 'Ramps',
        portfolioSubject: 'Science',
        portfolioGrades: ['5th'],
        commentCount: 2,
        commentTexts: ['First', 'Second'],
        reactions: { '🔖': false, '⭐': false, '🌉': true, '❓': true },
      });
    }
  });
});

describe('PUT /shared-portfolios/{id}', () => {
  it('lets the owner and researchers change it; existing artifacts keep their questions', async () => {
    const lead = await createLead(t);
    const sp = await createSharedPortfolio(t, lead, { questions: [teamQuestion('old')] });
    const a = await createSharedArtifact(t, sp, lead);
    const res = await update(
      lead.token,
      sp.id,
      body({ name: ' Renamed ', structure: [teamQuestion('new', { type: 'number' })], id: sp.id }),
    );
    expect(res).toHaveStatus(200);
    const changed = SharedPortfolioSchema.parse(res.json());
    expect(changed).toMatchObject({ name: 'Renamed', owner: person(lead), members: [person(lead)] });
    expect(changed.structure).toEqual([
      ...CORE,
      { ...teamQuestion('new', { type: 'number' }), min: 1, max: 1, step: 1 },
    ]);
    expect(changed.templateStructure).toEqual(TEMPLATE_STRUCTURE);
    expect(changed.sharedArtifacts[0]!.structure).toEqual(a.structure);
    const researcher = await createResearcher(t);
    expect(
      (await update(researcher.token, sp.id, body({ name: 'By a researcher', structure: [] }))).json(),
    ).toMatchObject({
      name: 'By a researcher',
      owner: person(lead),
    });
  });

  it('refuses invalid questions, other ids and fields it does not take, changing nothing', async () => {
    const lead = await createLead(t);
    const intruder = await createTeacher(t);
    const sp = await createSharedPortfolio(t, lead);
    const before = await snapshot(t);
    const cases: [Record<string, unknown>, string][] = [
      [
        body({ structure: [teamQuestion('q', { type: 'singleSelection', choices: [] })] }),
        INVALID(1, 'You must enter at least one choice.'),
      ],
      [body({ id: sp.id + 1 }), 'The id in the body does not match the address.'],
      [body({ members: [intruder.user.id] }), 'Unknown field "members"; it is not accepted.'],
      [body({ owner: intruder.user.id }), 'Unknown field "owner"; it is not accepted.'],
      [body({ name: '' }), 'A name is required.'],
    ];
    for (const [payload, message] of cases) expect(await update(lead.token, sp.id, payload)).toBeApiError(400, message);
    expect(await snapshot(t)).toEqual(before);
  });
});

describe('DELETE /shared-portfolios/{id}', () => {
  it('is refused while it has artifacts; once empty it goes, with its pending invitations', async () => {
    const lead = await createLead(t);
    const invitee = await createTeacher(t);
    const sp = await createSharedPortfolio(t, lead, { invitees: [invitee] });
    const a = await createSharedArtifact(t, sp, lead);
    const before = await snapshot(t);
    expect(await t.api({ method: 'DELETE', url: `/shared-portfolios/${sp.id}`, token: lead.token })).toBeApiError(
      400,
      'A shared portfolio can be deleted only when it has no artifacts.',
    );
    expect(await snapshot(t)).toEqual(before);

    expect(await t.api({ method: 'DELETE', url: `/shared-artifacts/${a.id}`, token: lead.token })).toHaveStatus(200);
    const res = await t.api({ method: 'DELETE', url: `/shared-portfolios/${sp.id}`, token: lead.token });
    expect(res).toHaveStatus(200);
    expect(SharedPortfolioListItemSchema.parse(res.json())).toMatchObject({
      id: sp.id,
      name: sp.name,
      sharedArtifacts: [],
    });
    const { rows } = await t.db.query('SELECT 1 FROM invitations WHERE shared_portfolio_id = $1', [sp.id]);
    expect(rows).toEqual([]);
    expect((await t.api({ method: 'GET', url: '/invitations', token: invitee.token })).json()).toEqual([]);
    expect(await read(lead.token, sp.id)).toBeApiError(404, 'Shared portfolio not found.');
  });
});
