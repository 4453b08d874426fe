import { describe, expect, it } from 'vitest';
import { SharedArtifactMediaResponseSchema } from '#schemas/sharedArtifact';
import { SharedArtifactSchema } from '#schemas/sharedPortfolio';
import { csvDate } from '../export/csv.ts';
import {
  attachMedia,
  COMPLETE_RESPONSES,
  createComment,
  createInvitation,
  createReaction,
  createResearcher,
  createTeacher,
  removeMember,
  snapshot,
  type TestUser,
} from '../../test/factories.ts';
import { multipart, pdfDocument, pngImage } from '../../test/files.ts';
import { buildTestApp } from '../../test/helper.ts';
import { nested, NOT_FOUND, sharedArtifactKit } from '../../test/fixtures/sharedArtifacts.ts';

const t = await buildTestApp();
const { put, read, gate, acknowledge, team } = sharedArtifactKit(t);

describe('GET /shared-artifacts/{id}', () => {
  it('answers with its comments (with usernames) and reactions as a list', async () => {
    const { lead, member, sa } = await team();
    const c = await createComment(t, sa, lead, 'Lovely ramp.');
    const r = await createReaction(t, sa, member, '🔖');
    const detail = await read(member.token, sa.id);
    expect(detail).toMatchObject({
      id: sa.id,
      responses: { ...COMPLETE_RESPONSES, team1: 'First answer' },
      commentCount: 1,
      commentTexts: ['Lovely ramp.'],
    });
    expect(detail.comments).toEqual([
      expect.objectContaining({
        id: c,
        text: 'Lovely ramp.',
        owner: { id: lead.user.id, username: lead.user.username, email: lead.user.email },
        username: lead.user.username,
        sharedArtifact: expect.objectContaining({ id: sa.id, sharedPortfolio: sa.sharedPortfolio.id }),
      }),
    ]);
    expect(detail.reactions).toEqual([r]);
  });
});

describe('lock and unlock', () => {
  it('gives one holder 15 minutes of exclusive writes; others get 423; it is re-entrant, keeps updated_at, and ends with its code', async () => {
    const colleague = await createTeacher(t);
    const { lead, member, sp, sa } = await team([colleague]);
    const researcher = await createResearcher(t);
    const lockRes = await t.api({ method: 'POST', url: `${nested(sp.id, sa.id)}/lock`, token: member.token });
    expect(lockRes).toHaveStatus(200);
    const lock = lockRes.json<{ lock: string; lockedUntil: string; updated_at: string }>();
    expect(lock.updated_at).toBe(sa.updated_at);
    const minutes = (Date.parse(lock.lockedUntil) - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(14.9);
    expect(minutes).toBeLessThanOrEqual(15);
    const locked = `This artifact is being edited by ${member.user.username}. They have exclusive access until ${csvDate(lock.lockedUntil)}.`;

    const fileId = await attachMedia(t, 'sharedArtifact', sa.id);
    const before = await snapshot(t);
    for (const who of [lead, researcher]) {
      const refused = [
        await t.api({ method: 'POST', url: `${nested(sp.id, sa.id)}/lock`, token: who.token }),
        await put(who.token, sa.id, { responses: COMPLETE_RESPONSES }),
        await t.api({
          method: 'PUT',
          url: `${nested(sp.id, sa.id)}/responses`,
          token: who.token,
          payload: { responses: { team1: 'x' } },
        }),
        await t.api({
          method: 'POST',
          url: `${nested(sp.id, sa.id)}/documents`,
          token: who.token,
          ...multipart('file', 'x.pdf', pdfDocument()),
        }),
        await t.api({ method: 'DELETE', url: `${nested(sp.id, sa.id)}/documents/${fileId}`, token: who.token }),
        await t.api({ method: 'DELETE', url: `/shared-artifacts/${sa.id}`, token: who.token }),
      ];
      for (const res of refused) expect(res).toBeApiError(423, locked);
    }
    // Another member cannot release it without its code (the owner, the lead and a researcher can: see below).
    expect(
      await t.api({
        method: 'POST',
        url: `${nested(sp.id, sa.id)}/unlock`,
        token: colleague.token,
        payload: { lock: 'guess' },
      }),
    ).toBeApiError(
      400,
      `There was a problem releasing the lock. This artifact can be edited after ${csvDate(lock.lockedUntil)}.`,
    );
    expect(await t.api({ method: 'POST', url: `${nested(sp.id, sa.id)}/unlock`, token: colleague.token })).toBeApiError(
      400,
    );
    expect(await snapshot(t)).toEqual(before);
    // Reading, the gate check and comments are not writes to the artifact.
    expect((await gate(lead.token, sp.id, sa.id, `?updated_at=${encodeURIComponent(sa.updated_at)}`)).json().type).toBe(
      'ok',
    );

    const again = await t.api({ method: 'POST', url: `${nested(sp.id, sa.id)}/lock`, token: member.token });
    expect(again).toHaveStatus(200);
    expect(again.json().lock).not.toBe(lock.lock);
    await acknowledge(member, sp.id, sa.id);
    expect(await put(member.token, sa.id, { responses: { ...COMPLETE_RESPONSES, team1: 'Holder' } })).toHaveStatus(200);
    expect(
      await t.api({
        method: 'POST',
        url: `${nested(sp.id, sa.id)}/unlock`,
        token: member.token,
        payload: { lock: lock.lock },
      }),
    ).toBeApiError(400);
    const unlocked = await t.api({
      method: 'POST',
      url: `${nested(sp.id, sa.id)}/unlock`,
      token: member.token,
      payload: { lock: again.json().lock },
    });
    expect(unlocked).toHaveStatus(200);
    expect(unlocked.json()).toEqual({});
    await acknowledge(lead, sp.id, sa.id);
    expect(await put(lead.token, sa.id, { responses: { ...COMPLETE_RESPONSES, team1: 'Lead again' } })).toHaveStatus(
      200,
    );
    expect(await t.api({ method: 'POST', url: `${nested(sp.id, sa.id)}/unlock`, token: lead.token })).toHaveStatus(200);
  });

  it('expires: after its time others may write and lock', async () => {
    const { lead, member, sp, sa } = await team();
    expect(await t.api({ method: 'POST', url: `${nested(sp.id, sa.id)}/lock`, token: member.token })).toHaveStatus(200);
    await t.db.query("UPDATE shared_artifacts SET locked_until = now() - interval '1 second' WHERE id = $1", [sa.id]);
    await acknowledge(lead, sp.id, sa.id);
    expect(await put(lead.token, sa.id, { responses: COMPLETE_RESPONSES })).toHaveStatus(200);
    expect(await t.api({ method: 'POST', url: `${nested(sp.id, sa.id)}/lock`, token: lead.token })).toHaveStatus(200);
    expect(await put(member.token, sa.id, { responses: COMPLETE_RESPONSES })).toBeApiError(423);
  });
});

describe('DELETE /shared-artifacts/{id}', () => {
  it('is refused while it has comments or reactions, then answers the deleted artifact with its shared portfolio id', async () => {
    const { lead, member, sp, sa } = await team();
    const commentId = await createComment(t, sa, lead);
    const before = await snapshot(t);
    const refusal = 'You cannot delete a shared artifact with comments or reactions.';
    expect(await t.api({ method: 'DELETE', url: `/shared-artifacts/${sa.id}`, token: member.token })).toBeApiError(
      400,
      refusal,
    );
    expect(await snapshot(t)).toEqual(before);
    expect(await t.api({ method: 'DELETE', url: `/comments/${commentId}`, token: lead.token })).toHaveStatus(200);
    const reaction = await createReaction(t, sa, member, '❓');
    expect(await t.api({ method: 'DELETE', url: `/shared-artifacts/${sa.id}`, token: lead.token })).toBeApiError(
      400,
      refusal,
    );
    expect(await t.api({ method: 'DELETE', url: `/reactions/${reaction.id}`, token: member.token })).toHaveStatus(200);
    const res = await t.api({ method: 'DELETE', url: `/shared-artifacts/${sa.id}`, token: lead.token });
    expect(res).toHaveStatus(200);
    expect(SharedArtifactSchema.parse(res.json())).toMatchObject({ id: sa.id, sharedPortfolio: { id: sp.id } });
    expect(await t.api({ method: 'GET', url: `/shared-artifacts/${sa.id}`, token: lead.token })).toBeApiError(
      404,
      NOT_FOUND,
    );
  });
});

describe('uploads to shared artifacts', () => {
  it('keep the artifact’s updated_at, so nobody’s gate check trips; removing a file does not move it either', async () => {
    const { lead, member, sp, sa } = await team();
    const res = await t.api({
      method: 'POST',
      url: `${nested(sp.id, sa.id)}/images`,
      token: member.token,
      ...multipart('file', 'a.png', await pngImage(30, 30)),
    });
    const file = SharedArtifactMediaResponseSchema.parse(res.json());
    expect(file.caption).toBe('A');
    expect(file.parentSharedArtifact).toMatchObject({ id: sa.id, updated_at: sa.updated_at, nextCaption: 'B' });
    expect(file.parentSharedArtifact.images.map((m) => m.id)).toEqual([file.id]);
    expect((await gate(lead.token, sp.id, sa.id, `?updated_at=${encodeURIComponent(sa.updated_at)}`)).json().type).toBe(
      'ok',
    );
    const removed = await t.api({
      method: 'DELETE',
      url: `${nested(sp.id, sa.id)}/images/${file.id}`,
      token: lead.token,
    });
    expect(removed).toHaveStatus(200);
    expect(removed.json().parentSharedArtifact).toMatchObject({ updated_at: sa.updated_at, images: [] });
    expect(await put(lead.token, sa.id, { responses: COMPLETE_RESPONSES, updated_at: sa.updated_at })).toHaveStatus(
      200,
    );
  });

  it('serve the file and its formats to members, invitees and researchers only, each by the address signed for them', async () => {
    const { lead, member, sp, sa } = await team();
    const invitee = await createTeacher(t);
    const former = await createTeacher(t);
    const stranger = await createTeacher(t);
    await createInvitation(t, sp, invitee);
    await t.db.query('INSERT INTO shared_portfolio_members (shared_portfolio_id, user_id) VALUES ($1, $2)', [
      sp.id,
      former.user.id,
    ]);
    await removeMember(t, sp, former);
    const res = await t.api({
      method: 'POST',
      url: `${nested(sp.id, sa.id)}/images`,
      token: member.token,
      ...multipart('file', 'a.png', await pngImage(400, 300)),
    });
    const file = SharedArtifactMediaResponseSchema.parse(res.json());
    const urls = [file.url, ...Object.values(file.formats!).map((f) => f!.url)];
    expect(urls).toHaveLength(5);
    const fetch = (url: string) => t.app.inject({ method: 'GET', url: `/api/v1${url}` });
    const signedFor = (who: TestUser, url: string) => t.app.services.media.signFor(who.user.id)(url);
    for (const url of urls) {
      for (const who of [lead, member, invitee, await createResearcher(t)])
        expect(await fetch(signedFor(who, url))).toHaveStatus(200);
      for (const who of [former, stranger])
        expect(await fetch(signedFor(who, url))).toBeApiError(404, 'File not found.');
    }
    // What a member reads of the artifact carries addresses signed for them.
    const read = await t.api({ method: 'GET', url: `/shared-artifacts/${sa.id}`, token: invitee.token });
    const image = read.json().images[0];
    expect(image.url).toBe(signedFor(invitee, file.url));
    expect(await fetch(image.formats.thumbnail.url)).toHaveStatus(200);
  });
});
