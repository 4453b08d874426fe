import type { InjectOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import { CommentSchema } from '#schemas/sharedArtifact';
import {
  attachMedia,
  COMPLETE_RESPONSES,
  createArtifact,
  createPortfolio,
  createSharedPortfolio,
  createTeacher,
  snapshot,
} from '../../test/factories.ts';
import { buildTestApp } from '../../test/helper.ts';
import { securityKit } from '../../test/fixtures/security.ts';

/**
 * The original's security weaknesses (reference-behaviour §12.3, §12.4) and the hardening findings,
 * mass assignment: one test proves that our server does not have it.
 */
const t = await buildTestApp();
const { team } = securityKit(t);

describe('#7 no mass assignment', () => {
  it('#7 no mass assignment: portfolio, owner, artifacts, members, sharedPortfolio and file ids in a body answer 400 and change nothing', async () => {
    const teacher = await createTeacher(t);
    const other = await createTeacher(t);
    const portfolio = await createPortfolio(t, teacher);
    const artifact = await createArtifact(t, portfolio);
    const otherPortfolio = await createPortfolio(t, other);
    const otherArtifact = await createArtifact(t, otherPortfolio);
    const otherFile = await attachMedia(t, 'artifact', otherArtifact.id);
    const { lead, m1, sp, sa1 } = await team();
    const elsewhere = await createSharedPortfolio(t, other);
    const spBody = { name: 'Renamed', structure: [] };
    const before = await snapshot(t);

    const refused: [InjectOptions & { token: string }, RegExp][] = [
      [
        {
          method: 'PUT',
          url: `/artifacts/${artifact.id}`,
          token: teacher.token,
          payload: { responses: {}, portfolio: otherPortfolio.id },
        },
        /"portfolio"/,
      ],
      [
        {
          method: 'PUT',
          url: `/artifacts/${artifact.id}`,
          token: teacher.token,
          payload: { responses: {}, portfolio: { id: otherPortfolio.id } },
        },
        /"portfolio"/,
      ],
      [
        {
          method: 'PUT',
          url: `/artifacts/${artifact.id}`,
          token: teacher.token,
          payload: { responses: {}, owner: other.user.id },
        },
        /"owner"/,
      ],
      [
        {
          method: 'PUT',
          url: `/artifacts/${artifact.id}`,
          token: teacher.token,
          payload: { responses: {}, images: [otherFile] },
        },
        /"images"/,
      ],
      [
        {
          method: 'PUT',
          url: `/artifacts/${artifact.id}`,
          token: teacher.token,
          payload: { responses: {}, documents: [{ id: otherFile }] },
        },
        /"documents"/,
      ],
      [
        {
          method: 'PUT',
          url: `/artifacts/${artifact.id}`,
          token: teacher.token,
          payload: { responses: {}, id: otherArtifact.id },
        },
        /id in the body does not match/,
      ],
      [
        {
          method: 'PUT',
          url: `/shared-artifacts/${sa1.id}`,
          token: m1.token,
          payload: { responses: COMPLETE_RESPONSES, owner: other.user.id },
        },
        /"owner"/,
      ],
      [
        {
          method: 'PUT',
          url: `/shared-artifacts/${sa1.id}`,
          token: m1.token,
          payload: { responses: COMPLETE_RESPONSES, sharedPortfolio: elsewhere.id },
        },
        /"sharedPortfolio"/,
      ],
      [
        {
          method: 'PUT',
          url: `/shared-artifacts/${sa1.id}`,
          token: m1.token,
          payload: { responses: COMPLETE_RESPONSES, images: [otherFile] },
        },
        /"images"/,
      ],
      [
        {
          method: 'PUT',
          url: `/shared-portfolios/${sp.id}`,
          token: lead.token,
          payload: { ...spBody, members: [other.user.id] },
        },
        /"members"/,
      ],
      [
        {
          method: 'PUT',
          url: `/shared-portfolios/${sp.id}`,
          token: lead.token,
          payload: { ...spBody, owner: other.user.id },
        },
        /"owner"/,
      ],
      [
        {
          method: 'POST',
          url: '/shared-portfolios',
          token: lead.token,
          payload: { ...spBody, members: [other.user.id] },
        },
        /"members"/,
      ],
      [
        {
          method: 'POST',
          url: '/portfolios',
          token: teacher.token,
          payload: { name: 'Grab', artifacts: [otherArtifact.id] },
        },
        /"artifacts"/,
      ],
      [
        { method: 'POST', url: '/portfolios', token: teacher.token, payload: { name: 'Grab', owner: other.user.id } },
        /"owner"/,
      ],
      [
        {
          method: 'PUT',
          url: `/portfolios/${portfolio.id}`,
          token: teacher.token,
          payload: { artifacts: [otherArtifact.id] },
        },
        /"artifacts"/,
      ],
      [
        {
          method: 'PUT',
          url: `/portfolios/${portfolio.id}`,
          token: teacher.token,
          payload: { name: 'Mine', owner: other.user.id },
        },
        /"owner"/,
      ],
    ];
    for (const [request, message] of refused)
      expect(await t.api(request), `${request.method} ${request.url}`).toBeApiError(400, message);
    expect(await snapshot(t)).toEqual(before);

    // Fields old clients send are ignored, never trusted: a comment is the caller's whatever `owner` says.
    const comment = await t.api({
      method: 'POST',
      url: '/comments',
      token: m1.token,
      payload: { text: 'Mine', sharedArtifact: sa1.id, owner: other.user.id, updated_by: other.user.id },
    });
    expect(comment).toHaveStatus(200);
    expect(CommentSchema.parse(comment.json()).owner.id).toBe(m1.user.id);
    const reaction = await t.api({
      method: 'POST',
      url: '/reactions',
      token: m1.token,
      payload: { value: '⭐', sharedArtifact: sa1.id, owner: other.user.id },
    });
    expect(reaction).toHaveStatus(200);
    expect(reaction.json().owner.id).toBe(m1.user.id);
  });
});
