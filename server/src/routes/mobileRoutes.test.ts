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

const ANDROID_KERNEL =
  'Linux 5.10.198-android13-4-00050-g12f3388d7e5e-ab11920634 #1 SMP PREEMPT Mon Jun 3 18:36:09 UTC 2024 (Android 14)';

const devices = async (userId: number) =>
  (
    await t.db.query<{ fcm_token: string; platform: string | null; os_version: string | null; dev_mode: boolean }>(
      'SELECT fcm_token, platform, os_version, dev_mode FROM push_tokens WHERE user_id = $1 ORDER BY fcm_token',
      [userId],
    )
  ).rows;

describe('push tokens', () => {
  it('are kept per user and device, whatever the device says about itself', async () => {
    const teacher = await createTeacher(t);
    const other = await createTeacher(t);
    const post = (token: string, url: string, payload: object) => t.api({ method: 'POST', url, token, payload });
    const calls: object[] = [
      { platform: 'android', osVersion: ANDROID_KERNEL, fcmToken: 'phone-a', devMode: false },
      { platform: 'ios', osVersion: 'Version 17.5.1 (Build 21F90)', fcmToken: 'phone-b', devMode: true },
      { platform: 'x'.repeat(500), osVersion: `${'k'.repeat(2000)}\u0007\n`, fcmToken: 'phone-c', devMode: 'yes' },
      { fcmToken: 'phone-d', osVersion: null, platform: 14, devMode: null },
    ];
    for (const payload of calls) {
      const res = await post(teacher.token, '/messages/register-token', payload);
      expect(res).toHaveStatus(200);
      expect(res.json()).toEqual({});
    }
    // Registering again changes nothing but the details.
    expect(await post(teacher.token, '/messages/register-token', calls[0]!)).toHaveStatus(200);
    const kept = await devices(teacher.user.id);
    expect(kept.map((d) => d.fcm_token)).toEqual(['phone-a', 'phone-b', 'phone-c', 'phone-d']);
    expect(kept[0]).toEqual({ fcm_token: 'phone-a', platform: 'android', os_version: ANDROID_KERNEL, dev_mode: false });
    expect(kept[1]!.dev_mode).toBe(true);
    expect(kept[2]!.platform).toHaveLength(40);
    expect(kept[2]!.os_version).toBe('k'.repeat(300));
    expect(kept[2]!.dev_mode).toBe(false);
    expect(kept[3]).toMatchObject({ platform: '14', os_version: null });

    // Another teacher signs in on phone A: the device is theirs now.
    expect(await post(other.token, '/messages/register-token', calls[0]!)).toHaveStatus(200);
    expect((await devices(other.user.id)).map((d) => d.fcm_token)).toEqual(['phone-a']);
    expect((await devices(teacher.user.id)).map((d) => d.fcm_token)).toEqual(['phone-b', 'phone-c', 'phone-d']);
    // Signing out forgets only one's own token.
    expect(await post(teacher.token, '/messages/unregister-token', { fcmToken: 'phone-a' })).toHaveStatus(200);
    expect((await devices(other.user.id)).map((d) => d.fcm_token)).toEqual(['phone-a']);
    expect(await post(teacher.token, '/messages/unregister-token', { fcmToken: 'phone-b' })).toHaveStatus(200);
    expect((await devices(teacher.user.id)).map((d) => d.fcm_token)).toEqual(['phone-c', 'phone-d']);
  });

  it('answer the list and mark-as-read calls without changing anything for someone without notifications', async () => {
    const teacher = await createTeacher(t);
    const before = await snapshot(t);
    expect((await t.api({ method: 'GET', url: '/messages/list', token: teacher.token })).json()).toEqual([]);
    for (const payload of [{ messageId: 'abc' }, { messageId: 7 }]) {
      const res = await t.api({ method: 'POST', url: '/messages/mark-as-read', token: teacher.token, payload });
      expect(res).toHaveStatus(200);
      expect(res.json()).toEqual({});
    }
    expect(await snapshot(t)).toEqual(before);
  });

  it('refuse a missing token and unknown fields with 400, keeping nothing', async () => {
    const teacher = await createTeacher(t);
    const post = (url: string, payload: unknown) =>
      t.api({ method: 'POST', url, token: teacher.token, payload: payload as object });
    expect(await post('/messages/register-token', {})).toBeApiError(400, 'fcmToken is required.');
    expect(await post('/messages/register-token', { fcmToken: '  ' })).toBeApiError(400, 'fcmToken is required.');
    expect(await post('/messages/register-token', { fcmToken: 5 })).toBeApiError(400, 'fcmToken must be a text.');
    expect(await post('/messages/register-token', { fcmToken: 'x'.repeat(4097) })).toBeApiError(
      400,
      'fcmToken must be at most 4096 characters.',
    );
    expect(await post('/messages/register-token', { fcmToken: 'x', user: 1 })).toBeApiError(
      400,
      'Unknown field "user"; it is not accepted.',
    );
    expect(await post('/messages/unregister-token', { token: 'x' })).toBeApiError(
      400,
      'Unknown field "token"; it is not accepted.',
    );
    expect(await post('/messages/mark-as-read', { messageId: { id: 1 } })).toBeApiError(400, 'messageId is not valid.');
    expect(await post('/messages/mark-as-read', {})).toBeApiError(400, 'messageId is not valid.');
    expect(await devices(teacher.user.id)).toEqual([]);
  });
});

describe('catalogues', () => {
  it('GET /contact answers no address when none is configured (the app shows its own)', async () => {
    const teacher = await createTeacher(withoutContact);
    expect(
      ContactSchema.parse((await withoutContact.api({ method: 'GET', url: '/contact', token: teacher.token })).json()),
    ).toEqual({ id: 1, email: null, phone: null });
  });

  it('GET /contact, /grades and /subjects answer the fixed lists', async () => {
    const teacher = await createTeacher(t);
    expect(ContactSchema.parse((await t.api({ method: 'GET', url: '/contact', token: teacher.token })).json())).toEqual(
      {
        id: 1,
        email: 'help@school.example',
        phone: null,
      },
    );
    const grades = NamedListSchema.parse((await t.api({ method: 'GET', url: '/grades', token: teacher.token })).json());
    expect(grades.map((g) => g.name)).toEqual([...GRADE_CODES]);
    expect(grades.map((g) => g.id)).toEqual(GRADE_CODES.map((_, i) => i + 1));
    const subjects = NamedListSchema.parse(
      (await t.api({ method: 'GET', url: '/subjects', token: teacher.token })).json(),
    );
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
    const list = SharedArtifactListResponseSchema.parse(
      (await t.api({ method: 'GET', url: '/shared-artifacts', token: member.token })).json(),
    );
    expect(list.map((x) => x.id)).toEqual([b.id, a.id]);
    expect(
      (await t.api({ method: 'GET', url: '/shared-artifacts', token: (await createResearcher(t)).token })).json(),
    ).toEqual([]);
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

    const res = await t.api({
      method: 'POST',
      url: '/auth/local',
      payload: { identifier: teacher.user.email, password: TEST_PASSWORD },
    });
    expect(res).toHaveStatus(200);
    const { jwt, user } = LoginResponseSchema.parse(res.json());
    expect(jwt.split('.')).toHaveLength(3);
    expect(user).toMatchObject({
      id: teacher.user.id,
      username: teacher.user.username,
      email: teacher.user.email,
      role: teacher.user.role,
    });
    expect(user.portfolios.map((p) => p.id)).toEqual([mine.id]);
    expect(user.portfolios[0]!.artifacts.map((a) => a.id).sort()).toEqual([parked.id, done.id].sort());
    expect(user.artifacts.map((a) => [a.id, a.portfolio]).sort()).toEqual(
      [
        [parked.id, mine.id],
        [done.id, mine.id],
      ].sort(),
    );
    expect(user.sharedPortfolios.map((p) => p.id)).toEqual([sp.id]);
    expect(user.sharedPortfolios[0]!.commentCount).toBe(1);
    expect(user.sharedArtifacts.map((a) => a.id)).toEqual([sa.id]);
    expect(user.comments.map((x) => x.id)).toEqual([c]);
    expect(user.reactions.map((x) => x.id)).toEqual([r.id]);
    for (const secret of ['password', 'hash', 'epoch', 'lockedby', 'lock_code'])
      expect(res.body.toLowerCase().replace(jwt.toLowerCase(), '')).not.toContain(secret);
  });

  it('gives a new researcher empty lists', async () => {
    const researcher = await createResearcher(t);
    const res = await t.api({
      method: 'POST',
      url: '/auth/local',
      payload: { identifier: researcher.user.username, password: TEST_PASSWORD },
    });
    expect(res).toHaveStatus(200);
    const { user } = LoginResponseSchema.parse(res.json());
    expect(user).toMatchObject({
      portfolios: [],
      artifacts: [],
      sharedPortfolios: [],
      sharedArtifacts: [],
      comments: [],
      reactions: [],
    });
  });
});
