import { describe, expect, it } from 'vitest';
import {
  attachMedia,
  COMPLETE_RESPONSES,
  countRows,
  createComment,
  createLead,
  createResearcher,
  createSharedArtifact,
  createSharedPortfolio,
  createTeacher,
  createUser,
  type TestUser,
} from '../../test/factories.ts';
import { buildTestApp } from '../../test/helper.ts';
import { notificationKit } from '../../test/fixtures/notifications.ts';

/**
 * Who hears of what: every event kind, its recipients and those it must never reach (the actor,
 * people without access).
 */
const t = await buildTestApp({ queryCountHeader: true });
const { feed, kinds, comment, react, circle } = notificationKit(t);

describe('comments, replies and mentions', () => {
  it('tell the artifact owner, earlier commenters and mentioned members — never the author or an outsider', async () => {
    const { lead, owner, other, outsider, sp, sa } = await circle({ other: `Ana ${Date.now()}` });
    expect(await comment(other, sa.id, 'Lovely ramp.')).toHaveStatus(200);
    const [first] = await feed(owner);
    expect(first).toMatchObject({
      kind: 'comment',
      read: false,
      count: 1,
      actor: { id: other.user.id, username: other.user.username },
      sharedPortfolio: { id: sp.id, name: 'Grade 5 PLC' },
      sharedArtifact: { id: sa.id, title: 'Group work' },
      summary: `${other.user.username} commented on your artifact “Group work” in Grade 5 PLC`,
    });
    expect(first!.link).toBe(`/shared-portfolios/${sp.id}/artifacts/${sa.id}#comment-${first!.comment}`);
    expect(await kinds(other)).toEqual([]);
    expect(await kinds(lead)).toEqual([]);

    // The lead answers: the owner hears of a comment, Ana of a reply.
    expect(await comment(lead, sa.id, 'Agreed, and the timing helps.')).toHaveStatus(200);
    expect(await kinds(owner)).toEqual(['comment', 'comment']);
    expect(await kinds(other)).toEqual(['reply']);
    expect((await feed(other))[0]!.summary).toBe(`${lead.user.username} also commented on “Group work” in Grade 5 PLC`);

    // A mention of Ana (a member) and of the outsider (not a member): only Ana hears it, as a mention.
    expect(
      await comment(lead, sa.id, `@${other.user.username} could you share the rubric? cc @${outsider.user.username}`),
    ).toHaveStatus(200);
    expect(await kinds(other)).toEqual(['mention', 'reply']);
    expect(await kinds(outsider)).toEqual([]);
    expect(await kinds(lead)).toEqual([]);
  });

  it('a mention names a whole user name, case-insensitively, with its special characters taken literally', async () => {
    const { lead, owner, sa } = await circle();
    const dotted = await createUser(t, { username: `j.doe${Date.now()}` });
    const sp2 = await createSharedPortfolio(t, lead, { members: [owner, dotted] });
    const sa2 = await createSharedArtifact(t, sp2, owner);
    // "jXdoe" must not match "j.doe" as a pattern would; a longer name does not count either.
    expect(
      await comment(lead, sa2.id, `@${dotted.user.username.replace('.', 'X')} and @${dotted.user.username}s`),
    ).toHaveStatus(200);
    expect(await kinds(dotted)).toEqual([]);
    expect(await comment(lead, sa2.id, `Thanks @${dotted.user.username.toUpperCase()}!`)).toHaveStatus(200);
    expect(await kinds(dotted)).toEqual(['mention']);
    expect(sa.id).toBeGreaterThan(0);
  });

  it('a moment comment links to the video time', async () => {
    const { owner, other, sp, sa } = await circle();
    const video = await attachMedia(t, 'sharedArtifact', sa.id, 'video');
    await t.db.query('UPDATE media_files SET duration = 120 WHERE id = $1', [video]);
    expect(await comment(other, sa.id, 'Watch the pause here.', { media: video, start: 65.4, end: 70 })).toHaveStatus(
      200,
    );
    const [n] = await feed(owner);
    expect(n).toMatchObject({ kind: 'comment', moment: { media: video, start: 65.4, end: 70 } });
    expect(n!.summary).toContain('commented at 1:05–1:10 of a video of your artifact “Group work”');
    expect(n!.link).toBe(`/shared-portfolios/${sp.id}/artifacts/${sa.id}?media=${video}&t=65#comment-${n!.comment}`);
  });

  it('nobody without access hears: a removed owner, a blocked member', async () => {
    const { lead, owner, other, sp, sa } = await circle();
    expect(
      await t.api({
        method: 'POST',
        url: `/shared-portfolios/${sp.id}/remove-user/${owner.user.id}`,
        token: lead.token,
      }),
    ).toHaveStatus(200);
    await t.db.query('UPDATE users SET blocked = true WHERE id = $1', [other.user.id]);
    await t.principalsHeard();
    const before = await countRows(t, 'notifications');
    const third = await createTeacher(t);
    await t.db.query('INSERT INTO shared_portfolio_members (shared_portfolio_id, user_id) VALUES ($1, $2)', [
      sp.id,
      third.user.id,
    ]);
    await createComment(t, sa, other, 'An earlier comment by a member now blocked.');
    expect(await comment(third, sa.id, `Hello @${other.user.username}`)).toHaveStatus(200);
    // Only the removal item exists for the owner; the blocked member gets nothing.
    expect(await countRows(t, 'notifications')).toBe(before);
    expect(await kinds(owner)).toEqual(['removed']);
  });

  it('fan-out to 50 members is one statement: a comment costs as many SQL statements with 50 members as with 5', async () => {
    const lead = await createLead(t);
    const owner = await createTeacher(t);
    const crowd: TestUser[] = [];
    for (let i = 0; i < 49; i += 1) crowd.push(await createTeacher(t));
    const few = crowd.slice(0, 4);
    const small = await createSharedPortfolio(t, lead, { members: [owner, ...few] });
    const large = await createSharedPortfolio(t, lead, { members: [owner, ...crowd] });
    const smallArtifact = await createSharedArtifact(t, small, owner);
    const largeArtifact = await createSharedArtifact(t, large, owner);
    // Everyone in either portfolio has commented before and is mentioned: 5 and 50 people hear.
    for (const member of crowd) await createComment(t, largeArtifact, member, 'Earlier thought.');
    for (const member of few) await createComment(t, smallArtifact, member, 'Earlier thought.');
    const mentionsOf = (people: TestUser[]) => people.map((m) => `@${m.user.username}`).join(' ');
    const count = async (artifactId: number, text: string) => {
      const res = await comment(lead, artifactId, text);
      expect(res).toHaveStatus(200);
      return Number(res.headers['x-query-count']);
    };
    // The first request of a session also loads the signed-in principal into the cache.
    expect(await t.api({ method: 'GET', url: '/users/me', token: lead.token })).toHaveStatus(200);
    const before = await countRows(t, 'notifications');
    const five = await count(smallArtifact.id, `Nice work. ${mentionsOf(few)}`);
    expect(await countRows(t, 'notifications')).toBe(before + 5);
    const fifty = await count(largeArtifact.id, `Nice work. ${mentionsOf(crowd)}`);
    expect(await countRows(t, 'notifications')).toBe(before + 5 + 50);
    expect(five).toBeGreaterThan(0);
    expect(fifty).toBe(five);
    expect(await kinds(crowd[7]!)).toEqual(['mention']);
  });
});

describe('reactions, edits, invitations and removals', () => {
  it('reactions are batched into one unread item per artifact; a repeated reaction adds nothing', async () => {
    const { lead, owner, other, sa } = await circle();
    expect(await react(other, sa.id)).toHaveStatus(200);
    expect(await react(other, sa.id)).toHaveStatus(200);
    expect(await react(lead, sa.id, '🌉')).toHaveStatus(200);
    expect(await react(owner, sa.id, '❓')).toHaveStatus(200);
    const items = await feed(owner);
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ kind: 'reaction', count: 2, actor: { id: lead.user.id } });
    expect(items[0]!.summary).toBe(
      `2 new reactions to your artifact “Group work” in Grade 5 PLC, the latest from ${lead.user.username}`,
    );
    // Once read, the next reaction starts a new item.
    await t.api({ method: 'POST', url: '/notifications/read', token: owner.token, payload: { all: true } });
    expect(await react(other, sa.id, '🔖')).toHaveStatus(200);
    expect((await feed(owner)).map((n) => [n.kind, n.count, n.read])).toEqual([
      ['reaction', 1, false],
      ['reaction', 2, true],
    ]);
  });

  it('an edit by someone else tells the owner who edited and links to the artifact; the owner’s own edit tells nobody', async () => {
    const { owner, other, sp, sa } = await circle();
    const save = async (who: TestUser, text: string) => {
      const current = (await t.api({ method: 'GET', url: `/shared-artifacts/${sa.id}`, token: who.token })).json() as {
        updated_at: string;
      };
      return t.api({
        method: 'PUT',
        url: `/shared-artifacts/${sa.id}`,
        token: who.token,
        payload: {
          responses: { ...COMPLETE_RESPONSES, artifactName: 'Group work', learningGoal: text },
          updated_at: current.updated_at,
        },
      });
    };
    expect(await save(owner, 'My own change.')).toHaveStatus(200);
    expect(await kinds(owner)).toEqual([]);
    expect(await save(other, 'A colleague’s change.')).toHaveStatus(200);
    const [n] = await feed(owner);
    expect(n).toMatchObject({
      kind: 'snapshot_edited',
      actor: { id: other.user.id },
      link: `/shared-portfolios/${sp.id}/artifacts/${sa.id}`,
    });
    expect(n!.summary).toBe(`${other.user.username} edited your artifact “Group work” in Grade 5 PLC`);
  });

  it('an invitation tells the invitee; accepting tells the inviter; removing tells the removed member', async () => {
    const lead = await createLead(t);
    const invitee = await createTeacher(t);
    const sp = await createSharedPortfolio(t, lead, { name: 'Science PLC' });
    const sent = await t.api({
      method: 'POST',
      url: '/invitations',
      token: lead.token,
      payload: { to: invitee.user.id, sharedPortfolio: sp.id },
    });
    expect(sent).toHaveStatus(200);
    const invitationId = (sent.json() as { id: number }).id;
    const [received] = await feed(invitee);
    expect(received).toMatchObject({
      kind: 'invitation_received',
      actor: { id: lead.user.id },
      sharedPortfolio: { id: sp.id, name: 'Science PLC' },
      link: `/invitation/${invitationId}`,
    });
    expect(await kinds(lead)).toEqual([]);

    expect(
      await t.api({ method: 'POST', url: `/invitations/${invitationId}/accept`, token: invitee.token }),
    ).toHaveStatus(200);
    const [accepted] = await feed(lead);
    expect(accepted).toMatchObject({
      kind: 'invitation_accepted',
      actor: { id: invitee.user.id },
      link: `/shared-portfolios/${sp.id}`,
    });
    expect(accepted!.summary).toBe(`${invitee.user.username} accepted your invitation to Science PLC`);

    expect(
      await t.api({
        method: 'POST',
        url: `/shared-portfolios/${sp.id}/remove-user/${invitee.user.id}`,
        token: lead.token,
      }),
    ).toHaveStatus(200);
    const [removed] = await feed(invitee);
    expect(removed).toMatchObject({
      kind: 'removed',
      actor: { id: lead.user.id },
      link: '/shared-portfolios',
      summary: `${lead.user.username} removed you from the shared portfolio Science PLC`,
    });
    // A member who leaves on their own hears nothing.
    const leaver = await createTeacher(t);
    const sp2 = await createSharedPortfolio(t, lead, { members: [leaver] });
    expect(
      await t.api({ method: 'POST', url: `/shared-portfolios/${sp2.id}/leave`, token: leaver.token, payload: {} }),
    ).toHaveStatus(200);
    expect(await kinds(leaver)).toEqual([]);
  });

  it('a removed member no longer sees what happened in that shared portfolio', async () => {
    const { lead, owner, other, sa, sp } = await circle();
    expect(await comment(other, sa.id, 'Before the removal.')).toHaveStatus(200);
    expect(await kinds(owner)).toEqual(['comment']);
    expect(
      await t.api({
        method: 'POST',
        url: `/shared-portfolios/${sp.id}/remove-user/${owner.user.id}`,
        token: lead.token,
      }),
    ).toHaveStatus(200);
    expect(await kinds(owner)).toEqual(['removed']);
  });

  it('a researcher blocking and unblocking someone notifies nobody', async () => {
    const researcher = await createResearcher(t);
    const teacher = await createTeacher(t);
    const before = await countRows(t, 'notifications');
    for (const blocked of [true, false]) {
      expect(
        await t.api({ method: 'PUT', url: `/users/${teacher.user.id}`, token: researcher.token, payload: { blocked } }),
      ).toHaveStatus(200);
    }
    expect(await countRows(t, 'notifications')).toBe(before);
  });
});
