import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { CommentResponseSchema, ReactionSchema } from '#schemas/sharedArtifact';
import {
  createComment,
  createLead,
  createReaction,
  createResearcher,
  createSharedArtifact,
  createSharedPortfolio,
  createTeacher,
  removeMember,
  snapshot,
} from '../../test/factories.ts';
import { buildTestApp } from '../../test/helper.ts';

const t = await buildTestApp();

const comment = (token: string, payload: unknown) =>
  t.api({ method: 'POST', url: '/comments', token, payload: payload as object });
const edit = (token: string, id: number, payload: unknown) =>
  t.api({ method: 'PUT', url: `/comments/${id}`, token, payload: payload as object });
const react = (token: string, payload: unknown) =>
  t.api({ method: 'POST', url: '/reactions', token, payload: payload as object });
const count = async (sharedPortfolioId: number, token: string) =>
  (await t.api({ method: 'GET', url: `/shared-portfolios/${sharedPortfolioId}`, token })).json().commentCount;

async function team() {
  const lead = await createLead(t);
  const member = await createTeacher(t);
  const sp = await createSharedPortfolio(t, lead, { members: [member] });
  const sa = await createSharedArtifact(t, sp, member);
  return { lead, member, sp, sa };
}

describe('POST /comments', () => {
  it('adds a comment owned by the caller, whatever owner the body names, with the artifact’s comments and the portfolio’s count', async () => {
    const { lead, member, sp, sa } = await team();
    const first = await comment(member.token, {
      text: 'Nice ramp!',
      sharedArtifact: sa.id,
      owner: lead.user.id,
      updated_by: lead.user.id,
    });
    expect(first).toHaveStatus(200);
    const body = CommentResponseSchema.parse(first.json());
    expect(body).toMatchObject({
      text: 'Nice ramp!',
      owner: { id: member.user.id, username: member.user.username, email: member.user.email },
      username: member.user.username,
      sharedArtifact: { id: sa.id, sharedPortfolio: sp.id },
      updated_by: member.user.id,
    });
    expect(body.sharedArtifactComments.map((c) => c.id)).toEqual([body.id]);
    expect(body.sharedPortfolioCommentCount).toBe(1);

    const second = CommentResponseSchema.parse(
      (await comment(lead.token, { text: 'Agreed.', sharedArtifact: String(sa.id) })).json(),
    );
    expect(second.sharedArtifactComments.map((c) => c.text)).toEqual(['Nice ramp!', 'Agreed.']);
    expect(second.sharedPortfolioCommentCount).toBe(2);
    const researcher = await createResearcher(t);
    expect((await comment(researcher.token, { text: 'From research.', sharedArtifact: sa.id })).json().owner.id).toBe(
      researcher.user.id,
    );
    expect(await count(sp.id, lead.token)).toBe(3);
  });

  it('takes 1 to 2500 characters, any script or emoji, and refuses the rest without storing anything', async () => {
    const { member, sa } = await team();
    expect(await comment(member.token, { text: 'x'.repeat(2500), sharedArtifact: sa.id })).toHaveStatus(200);
    expect(await comment(member.token, { text: '👍', sharedArtifact: sa.id })).toHaveStatus(200);
    expect(
      (await comment(member.token, { text: '  Ça marche — 好 ✨\nSecond line ', sharedArtifact: sa.id })).json().text,
    ).toBe('  Ça marche — 好 ✨\nSecond line ');
    const before = await snapshot(t);
    const cases: [unknown, number, string][] = [
      [{ text: 'x'.repeat(2501), sharedArtifact: sa.id }, 400, 'A comment can be at most 2500 characters.'],
      [{ text: '', sharedArtifact: sa.id }, 400, 'Please enter a comment.'],
      [{ text: ' \n\t', sharedArtifact: sa.id }, 400, 'Please enter a comment.'],
      [{ sharedArtifact: sa.id }, 400, 'text is required.'],
      [{ text: 42, sharedArtifact: sa.id }, 400, 'text must be a text.'],
      [{ text: 'Hi' }, 400, 'sharedArtifact must be a shared artifact id.'],
      [{ text: 'Hi', sharedArtifact: 'abc' }, 400, 'sharedArtifact must be a shared artifact id.'],
      [{ text: 'Hi', sharedArtifact: 2_000_000_000 }, 404, 'Invalid shared artifact ID.'],
      [{ text: 'Hi', sharedArtifact: sa.id, id: 5 }, 400, 'Unknown field "id"; it is not accepted.'],
      [
        { text: 'Hi', sharedArtifact: sa.id, created_at: '2020-01-01' },
        400,
        'Unknown field "created_at"; it is not accepted.',
      ],
    ];
    for (const [payload, status, message] of cases)
      expect(await comment(member.token, payload)).toBeApiError(status, message);
    expect(await snapshot(t)).toEqual(before);
  });
});

describe('PUT and DELETE /comments/{id}', () => {
  it('lets the author edit and delete their own comment; the answer carries the remaining comments and the count', async () => {
    const { lead, member, sp, sa } = await team();
    const mine = await createComment(t, sa, member, 'Draft');
    await createComment(t, sa, lead, 'Other');
    const edited = await edit(member.token, mine, { text: 'Final', sharedArtifact: sa.id, owner: lead.user.id });
    expect(edited).toHaveStatus(200);
    expect(CommentResponseSchema.parse(edited.json())).toMatchObject({
      id: mine,
      text: 'Final',
      owner: { id: member.user.id },
      updated_by: member.user.id,
    });
    const removed = await t.api({ method: 'DELETE', url: `/comments/${mine}`, token: member.token });
    expect(removed).toHaveStatus(200);
    const body = CommentResponseSchema.parse(removed.json());
    expect(body).toMatchObject({ id: mine, text: 'Final' });
    expect(body.sharedArtifactComments.map((c) => c.text)).toEqual(['Other']);
    expect(body.sharedPortfolioCommentCount).toBe(1);
    expect(await count(sp.id, lead.token)).toBe(1);
    expect(await t.api({ method: 'DELETE', url: `/comments/${mine}`, token: member.token })).toBeApiError(
      404,
      'Comment not found.',
    );
  });

  it('refuses others’ comments (403 inside, 404 outside), former members, and bad texts, changing nothing', async () => {
    const { lead, member, sp, sa } = await team();
    const theirs = await createComment(t, sa, lead, 'Lead says');
    const mine = await createComment(t, sa, member, 'Member says');
    const before = await snapshot(t);
    expect(await edit(member.token, theirs, { text: 'Hijack' })).toBeApiError(
      403,
      'You can change only your own comments and reactions.',
    );
    expect(await t.api({ method: 'DELETE', url: `/comments/${theirs}`, token: member.token })).toBeApiError(
      403,
      'You can change only your own comments and reactions.',
    );
    expect(await edit(member.token, mine, { text: '' })).toBeApiError(400, 'Please enter a comment.');
    expect(await edit(member.token, mine, { text: 'y'.repeat(2501) })).toBeApiError(
      400,
      'A comment can be at most 2500 characters.',
    );
    expect(await edit(member.token, mine, { text: 'x', owner: 'me' })).toBeApiError(400, 'owner must be a number.');
    expect(await edit(member.token, 2_000_000_000, { text: 'x' })).toBeApiError(404, 'Comment not found.');
    expect(await snapshot(t)).toEqual(before);

    await removeMember(t, sp, member);
    const after = await snapshot(t);
    expect(await edit(member.token, mine, { text: 'Still mine?' })).toBeApiError(404, 'Comment not found.');
    expect(await t.api({ method: 'DELETE', url: `/comments/${mine}`, token: member.token })).toBeApiError(
      404,
      'Comment not found.',
    );
    expect(await comment(member.token, { text: 'Hello?', sharedArtifact: sa.id })).toBeApiError(
      404,
      'Invalid shared artifact ID.',
    );
    expect(await snapshot(t)).toEqual(after);
  });
});

describe('reactions', () => {
  it('offers the four reactions', async () => {
    const res = await t.api({ method: 'GET', url: '/reactions/available', token: (await createTeacher(t)).token });
    expect(res.json()).toEqual(['🔖', '⭐', '🌉', '❓']);
  });

  it('adds a reaction as the caller, idempotently per value, and never counts it as a comment', async () => {
    const { lead, member, sp, sa } = await team();
    const first = await react(member.token, {
      sharedArtifact: sa.id,
      value: '⭐',
      owner: lead.user.id,
      created_by: lead.user.id,
      updated_by: lead.user.id,
    });
    expect(first).toHaveStatus(200);
    const reaction = ReactionSchema.parse(first.json());
    expect(reaction).toMatchObject({
      value: '⭐',
      owner: { id: member.user.id, email: member.user.email },
      sharedArtifact: { id: sa.id, sharedPortfolio: sp.id },
    });
    expect((await react(member.token, { sharedArtifact: sa.id, value: '⭐' })).json()).toEqual(first.json());
    const bridge = ReactionSchema.parse((await react(member.token, { sharedArtifact: sa.id, value: '🌉' })).json());
    const leads = ReactionSchema.parse((await react(lead.token, { sharedArtifact: sa.id, value: '⭐' })).json());
    expect(new Set([reaction.id, bridge.id, leads.id]).size).toBe(3);
    const { rows } = await t.db.query('SELECT count(*)::int AS n FROM reactions WHERE shared_artifact_id = $1', [
      sa.id,
    ]);
    expect(rows[0]).toEqual({ n: 3 });
    expect(await count(sp.id, lead.token)).toBe(0);
    const artifact = (await t.api({ method: 'GET', url: `/shared-portfolios/${sp.id}`, token: lead.token })).json()
      .sharedArtifacts[0];
    expect(artifact).toMatchObject({
      commentCount: 0,
      reactions: { '🔖': false, '⭐': true, '🌉': true, '❓': false },
    });
  });

  it('accepts only the four values, exactly', async () => {
    const { member, sa } = await team();
    const before = await snapshot(t);
    for (const value of ['👍', '⭐\uFE0F', ' ⭐', 'star', '', 1, null]) {
      expect(await react(member.token, { sharedArtifact: sa.id, value })).toBeApiError(400, 'Invalid reaction value.');
    }
    expect(await react(member.token, { sharedArtifact: sa.id })).toBeApiError(400, 'Invalid reaction value.');
    expect(await react(member.token, { value: '⭐' })).toBeApiError(
      400,
      'sharedArtifact must be a shared artifact id.',
    );
    expect(await react(member.token, { sharedArtifact: 2_000_000_000, value: '⭐' })).toBeApiError(
      404,
      'Invalid shared artifact ID.',
    );
    expect(await react(member.token, { sharedArtifact: sa.id, value: '⭐', id: 1 })).toBeApiError(
      400,
      'Unknown field "id"; it is not accepted.',
    );
    expect(await snapshot(t)).toEqual(before);
  });

  it('lets only the owner delete a reaction, while still a member', async () => {
    const { lead, member, sp, sa } = await team();
    const mine = await createReaction(t, sa, member, '❓');
    const theirs = await createReaction(t, sa, lead, '❓');
    const before = await snapshot(t);
    expect(await t.api({ method: 'DELETE', url: `/reactions/${theirs.id}`, token: member.token })).toBeApiError(
      403,
      'You can change only your own comments and reactions.',
    );
    expect(
      await t.api({ method: 'PUT', url: `/reactions/${mine.id}`, token: member.token, payload: { value: '⭐' } }),
    ).toBeApiError(404);
    expect(await snapshot(t)).toEqual(before);
    const res = await t.api({ method: 'DELETE', url: `/reactions/${mine.id}`, token: member.token });
    expect(res).toHaveStatus(200);
    expect(ReactionSchema.parse(res.json())).toEqual(mine);
    expect(await t.api({ method: 'DELETE', url: `/reactions/${mine.id}`, token: member.token })).toBeApiError(
      404,
      'Reaction not found.',
    );
    await removeMember(t, sp, lead);
    expect(await t.api({ method: 'DELETE', url: `/reactions/${theirs.id}`, token: lead.token })).toBeApiError(
      404,
      'Reaction not found.',
    );
  });
});

describe('the mobile lists', () => {
  it('GET /comments and GET /reactions give what the caller’s memberships reach, nothing else', async () => {
    const { lead, member, sa } = await team();
    const other = await team();
    const c1 = await createComment(t, sa, lead);
    const c2 = await createComment(t, sa, member);
    const r1 = await createReaction(t, sa, lead, '🔖');
    await createComment(t, other.sa, other.lead);
    await createReaction(t, other.sa, other.member);
    const comments = z
      .array(CommentResponseSchema.omit({ sharedArtifactComments: true, sharedPortfolioCommentCount: true }))
      .parse((await t.api({ method: 'GET', url: '/comments', token: member.token })).json());
    expect(comments.map((c) => c.id)).toEqual([c1, c2]);
    const reactions = z
      .array(ReactionSchema)
      .parse((await t.api({ method: 'GET', url: '/reactions', token: member.token })).json());
    expect(reactions.map((r) => r.id)).toEqual([r1.id]);
    const researcher = await createResearcher(t);
    expect((await t.api({ method: 'GET', url: '/comments', token: researcher.token })).json()).toEqual([]);
  });
});
