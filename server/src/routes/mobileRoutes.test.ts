import { describe, expect, it } from 'vitest';
import { LoginResponseSchema } from '#schemas/loginBundle';
import { GRADE_CODES, SUBJECTS } from '#schemas/catalog';
import { SharedArtifactListResponseSchema } from '#schemas/sharedArtifact';
import { ContactSchema, NamedListSchema } from '#schemas/mobile';
import {
  createArtifact,
  createComment,
  createLead,
  createPortfolio,
  createReaction,
  createResearcher,
  createSharedArtifact,
  createSharedPortfolio,
  createTeacher,
  removeMember,
  snapshot,
  TEST_PASSWORD,
} from '../../test/factories.ts';
import { buildTestApp } from '../../test/helper.ts';

const t = await buildTestApp({ contactEmail: 'help@school.example' });
const withoutContact = await buildTestApp({ contactEmail: null });

describe('notification routes (the portal sends none)', () => {
  it('answer the apps’ calls and keep nothing', async () => {
    const teacher = await createTeacher(t);
    const before = await snapshot(t);
    expect((await t.api({ method: 'GET', url: '/messages/list', token: teacher.token })).json()).toEqual([]);
    const calls: [string, object][] = [
      ['/messages/register-token', { platform: 'android', osVersion: '14', fcmToken: 'f'.repeat(200), devMode: true }],
      ['/messages/register-token', { fcmToken: 'x' }],
      ['/messages/unregister-token', { fcmToken: 'x' }],
      ['/messages/mark-as-read', { messageId: 'abc' }],
      ['/messages/mark-as-read', { messageId: 7 }],
    ];
    for (const [url, payload] of calls) {
      const res = await t.api({ method: 'POST', url, token: teacher.token, payload });
      expect(res).toHaveStatus(200);
      expect(res.json()).toEqual({});
    }
    expect(await snapshot(t)).toEqual(before);
  });

  it('refuse bad bodies with 400', async () => {
    const teacher = await createTeacher(t);
    const post = (url: string, payload: unknown) => t.api({ method: 'POST', url, token: teacher.token, payload: payload as object });
    expect(await post('/messages/register-token', {})).toBeApiError(400, 'fcmToken is required.');
    expect(await post('/messages/register-token', { fcmToken: 5 })).toBeApiError(400, 'fcmToken must be a text.');
    expect(await post('/messages/register-token', { fcmToken: 'x'.repeat(4097) })).toBeApiError(400, 'fcmToken must be at most 4096 characters.');
    expect(await post('/messages/register-token', { fcmToken: 'x', devMode: 'yes' })).toBeApiError(400, 'devMode must be true or false.');
    expect(await post('/messages/register-token', { fcmToken: 'x', user: 1 })).toBeApiError(400, 'Unknown field "user"; it is not accepted.');
    expect(await post('/messages/unregister-token', { token: 'x' })).toBeApiError(400, 'Unknown field "token"; it is not accepted.');
    expect(await post('/messages/mark-as-read', { messageId: { id: 1 } })).toBeApiError(400, 'messageId is not valid.');
    expect(await post('/messages/mark-as-read', {})).toBeApiError(400, 'messageId is not valid.');
  });
});

describe('catalogues', () => {
  it('GET /contact answers no address when none is configured (the app shows its own)', async () => {
    const teacher = await createTeacher(withoutContact);
    expect(ContactSchema.parse((await withoutContact.api({ method: 'GET', url: '/contact', token: teacher.token })).json())).toEqual({ id: 1, email: null, phone: null });
  });

  it('GET /contact, /grades and /subjects answer the fixed lists', async () => {
    const teacher = await createTeacher(t);
    expect(ContactSchema.parse((await t.api({ method: 'GET', url: '/contact', token: teacher.token })).json())).toEqual({
      id: 1,
      email: 'help@school.example',
      phone: null,
    });
    const grades = NamedListSchema.parse((await t.api({ method: 'GET', url: '/grades', token: teacher.token })).json());
    expect(grades.map((g) => g.name)).toEqual([...GRADE_CODES]);
    expect(grades.map((g) => g.id)).toEqual(GRADE_CODES.map((_, i) => i + 1));
    const subjects = NamedListSchema.parse((await t.api({ method: 'GET', url: '/subjects', token: teacher.token })).json());
    expect(subjects.map((s) => s.name)).toEqual([...SUBJECTS]);
  });
});

describe('GET /shared-artifacts (mobile)', () => {
  it('lists the shared artifacts of the caller’s shared portfolios only (researchers: their memberships too)', async () => {
    const lead = await createLead(t);
    const member = await createTeacher(t);
    const sp = await createSharedPortfolio(t, lead, { members: [member] });
    const a = await createSharedArtifact(t, sp, lead);
    const b = await createSharedArtifact(t, sp, member);
    await createSharedArtifact(t, await createSharedPortfolio(t, await createLead(t)), lead);
    const list = SharedArtifactListResponseSchema.parse((await t.api({ method: 'GET', url: '/shared-artifacts', token: member.token })).json());
    expect(list.map((x) => x.id)).toEqual([b.id, a.id]);
    expect((await t.api({ method: 'GET', url: '/shared-artifacts', token: (await createResearcher(t)).token })).json()).toEqual([]);
  });
});

describe('POST /auth/local (the mobile apps’ bundle)', () => {
  it('answers the user with their portfolios, artifacts, shared portfolios, shared artifacts, comments and reactions — theirs only', async () => {
    const teacher = await createTeacher(t);
    const lead = await createLead(t);
    const stranger = await createTeacher(t);
    const mine = await createPortfolio(t, teacher, { name: 'Mine' });
    const parked = await createArtifact(t, mine);
    const done = await createArtifact(t, mine, { parkingLot: false });
    const theirs = await createPortfolio(t, stranger);
    await createArtifact(t, theirs);

    const sp = await createSharedPortfolio(t, lead, { members: [teacher] });
    const sa = await createSharedArtifact(t, sp, lead);
    const c = await createComment(t, sa, lead, 'Seen by the team');
    const r = await createReaction(t, sa, teacher, '🌉');
    const left = await createSharedPortfolio(t, lead, { members: [teacher] });
    const leftArtifact = await createSharedArtifact(t, left, lead);
    await createComment(t, leftArtifact, lead);
    await removeMember(t, left, teacher);
    const invitedOnly = await createSharedPortfolio(t, lead, { invitees: [teacher] });
    await createSharedArtifact(t, invitedOnly, lead);
    const other = await createSharedPortfolio(t, await createLead(t), { members: [stranger] });
    const otherArtifact = await createSharedArtifact(t, other, stranger);
    await createComment(t, otherArtifact, stranger);
    await createReaction(t, otherArtifact, stranger);

    const res = await t.api({ method: 'POST', url: '/auth/local', payload: { identifier: teacher.user.email, password: TEST_PASSWORD } });
    expect(res).toHaveStatus(200);
    const { jwt, user } = LoginResponseSchema.parse(res.json());
    expect(jwt.split('.')).toHaveLength(3);
    expect(user).toMatchObject({ id: teacher.user.id, username: teacher.user.username, email: teacher.user.email, role: teacher.user.role });
    expect(user.portfolios.map((p) => p.id)).toEqual([mine.id]);
    expect(user.portfolios[0]!.artifacts.map((a) => a.id).sort()).toEqual([parked.id, done.id].sort());
    expect(user.artifacts.map((a) => [a.id, a.portfolio]).sort()).toEqual([[parked.id, mine.id], [done.id, mine.id]].sort());
    expect(user.sharedPortfolios.map((p) => p.id)).toEqual([sp.id]);
    expect(user.sharedPortfolios[0]!.commentCount).toBe(1);
    expect(user.sharedArtifacts.map((a) => a.id)).toEqual([sa.id]);
    expect(user.comments.map((x) => x.id)).toEqual([c]);
    expect(user.reactions.map((x) => x.id)).toEqual([r.id]);
    for (const secret of ['password', 'hash', 'epoch', 'lockedby', 'lock_code']) expect(res.body.toLowerCase().replace(jwt.toLowerCase(), '')).not.toContain(secret);
  });

  it('gives a new researcher empty lists', async () => {
    const researcher = await createResearcher(t);
    const res = await t.api({ method: 'POST', url: '/auth/local', payload: { identifier: researcher.user.username, password: TEST_PASSWORD } });
    expect(res).toHaveStatus(200);
    const { user } = LoginResponseSchema.parse(res.json());
    expect(user).toMatchObject({ portfolios: [], artifacts: [], sharedPortfolios: [], sharedArtifacts: [], comments: [], reactions: [] });
  });
});
