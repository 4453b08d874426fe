import { describe, expect, it } from 'vitest';
import {
  ArtifactSharesResponseSchema,
  NotificationListResponseSchema,
  NotificationPreferencesSchema,
  UnreadCountSchema,
} from '#schemas/notifications';
import {
  COMPLETE_RESPONSES,
  createArtifact,
  createLead,
  createPortfolio,
  createResearcher,
  createSharedPortfolio,
  createTeacher,
} from '../../test/factories.ts';
import { buildTestApp } from '../../test/helper.ts';
import { notificationKit } from '../../test/fixtures/notifications.ts';

/**
 * The feed, read marks, the unread count and its ETag, e-mail settings and delivery, and the
 * comments on the copies of a personal artifact.
 */
const t = await buildTestApp({ queryCountHeader: true });
const { feed, comment, circle } = notificationKit(t);

describe('the feed, read marks and the unread count', () => {
  it('pages newest first, marks read by id or all, and answers the count with a weak ETag', async () => {
    const { owner, other, sa } = await circle();
    for (let i = 0; i < 3; i += 1) expect(await comment(other, sa.id, `Comment ${i}`)).toHaveStatus(200);
    const page = NotificationListResponseSchema.parse(
      (await t.api({ method: 'GET', url: '/notifications?limit=2', token: owner.token })).json(),
    );
    expect(page.unread).toBe(3);
    expect(page.items).toHaveLength(2);
    expect(page.items[0]!.id).toBeGreaterThan(page.items[1]!.id);
    const rest = NotificationListResponseSchema.parse(
      (await t.api({ method: 'GET', url: `/notifications?before=${page.items[1]!.id}`, token: owner.token })).json(),
    );
    expect(rest.items).toHaveLength(1);

    const unread = await t.api({ method: 'GET', url: '/notifications/unread', token: owner.token });
    expect(UnreadCountSchema.parse(unread.json())).toEqual({ unread: 3 });
    const etag = String(unread.headers.etag);
    expect(etag).toMatch(/^W\/"/);
    expect(
      (
        await t.api({
          method: 'GET',
          url: '/notifications/unread',
          token: owner.token,
          headers: { 'if-none-match': etag },
        })
      ).statusCode,
    ).toBe(304);

    // Another person's id changes nothing; the caller's own does.
    const theirs = (await feed(other))[0];
    const read = await t.api({
      method: 'POST',
      url: '/notifications/read',
      token: owner.token,
      payload: { ids: [page.items[0]!.id, ...(theirs ? [theirs.id] : [])] },
    });
    expect(UnreadCountSchema.parse(read.json())).toEqual({ unread: 2 });
    const changed = await t.api({
      method: 'GET',
      url: '/notifications/unread',
      token: owner.token,
      headers: { 'if-none-match': etag },
    });
    expect(changed).toHaveStatus(200);
    expect(changed.json()).toEqual({ unread: 2 });
    expect(
      (await t.api({ method: 'POST', url: '/notifications/read', token: owner.token, payload: { all: true } })).json(),
    ).toEqual({ unread: 0 });
  });

  it('refuses bad input with clear messages and changes nothing', async () => {
    const who = await createTeacher(t);
    const post = (payload: unknown) =>
      t.api({ method: 'POST', url: '/notifications/read', token: who.token, payload: payload as object });
    expect(await post({})).toBeApiError(400);
    expect(await post({ ids: [] })).toBeApiError(400);
    expect(await post({ all: false })).toBeApiError(400);
    expect(await post({ all: true, ids: [1] })).toBeApiError(400);
    expect(await post({ ids: Array.from({ length: 101 }, (_, i) => i + 1) })).toBeApiError(400);
    expect(await t.api({ method: 'GET', url: '/notifications?limit=0', token: who.token })).toBeApiError(400);
    expect(await t.api({ method: 'GET', url: '/notifications?limit=101', token: who.token })).toBeApiError(400);
    expect(await t.api({ method: 'GET', url: '/notifications?before=abc', token: who.token })).toBeApiError(400);
    expect(await t.api({ method: 'GET', url: '/notifications?page=2', token: who.token })).toBeApiError(400);
    for (const url of ['/notifications', '/notifications/unread', '/notification-preferences']) {
      expect(await t.api({ method: 'GET', url })).toBeApiError(401);
    }
  });
});

describe('e-mail', () => {
  it('preferences have their defaults, change per kind, and refuse unknown kinds or values', async () => {
    const who = await createTeacher(t);
    const get = NotificationPreferencesSchema.parse(
      (await t.api({ method: 'GET', url: '/notification-preferences', token: who.token })).json(),
    );
    expect(get.email).toEqual({
      invitation_received: 'immediately',
      invitation_accepted: 'daily',
      comment: 'immediately',
      reply: 'immediately',
      mention: 'immediately',
      reaction: 'daily',
      snapshot_edited: 'daily',
      removed: 'immediately',
      score: 'immediately',
    });
    const put = await t.api({
      method: 'PUT',
      url: '/notification-preferences',
      token: who.token,
      payload: { email: { comment: 'daily', reaction: 'off' } },
    });
    expect(NotificationPreferencesSchema.parse(put.json()).email).toMatchObject({
      comment: 'daily',
      reaction: 'off',
      reply: 'immediately',
    });
    expect(
      await t.api({
        method: 'PUT',
        url: '/notification-preferences',
        token: who.token,
        payload: { email: { likes: 'off' } },
      }),
    ).toBeApiError(400);
    expect(
      await t.api({
        method: 'PUT',
        url: '/notification-preferences',
        token: who.token,
        payload: { email: { comment: 'weekly' } },
      }),
    ).toBeApiError(400);
    expect(
      (await t.api({ method: 'GET', url: '/notification-preferences', token: who.token })).json().email.comment,
    ).toBe('daily');
  });

  it('a comment is mailed at once with links to the comment and to unsubscribe; "off" sends nothing', async () => {
    const { owner, other, sp, sa } = await circle();
    expect(await comment(other, sa.id, 'Mail me.')).toHaveStatus(200);
    const mail = await t.mail.sentTo(owner.user.email);
    expect(mail.subject).toContain('commented on your artifact “Group work”');
    expect(mail.links[0]).toMatch(
      new RegExp(`^http://portal\\.test/shared-portfolios/${sp.id}/artifacts/${sa.id}#comment-\\d+$`),
    );
    expect(mail.links.slice(1).every((l) => l.startsWith('http://portal.test/unsubscribe?token='))).toBe(true);
    expect(mail.text).toContain('Stop all notification e-mails');

    await t.api({
      method: 'PUT',
      url: '/notification-preferences',
      token: owner.token,
      payload: { email: { comment: 'off' } },
    });
    const sent = t.mail.sent.length;
    expect(await comment(other, sa.id, 'Do not mail me.')).toHaveStatus(200);
    // Delivery drained: whatever was due has been sent.
    await t.app.services.notifications.deliverNow();
    expect(t.mail.sent.length).toBe(sent);
  });
});

describe('GET /artifacts/{id}/shares and the personal comment count', () => {
  it('lists the copies with their comments, and the personal artifact counts them', async () => {
    const lead = await createLead(t);
    const teacher = await createTeacher(t);
    const colleague = await createTeacher(t);
    const researcher = await createResearcher(t);
    const sp = await createSharedPortfolio(t, lead, { name: 'Ramp PLC', members: [teacher, colleague] });
    const portfolio = await createPortfolio(t, teacher);
    const artifact = await createArtifact(t, portfolio, {
      parkingLot: false,
      responses: { ...COMPLETE_RESPONSES, artifactName: 'Ramps' },
    });
    const shared = await t.api({
      method: 'POST',
      url: `/artifacts/${artifact.id}/share`,
      token: teacher.token,
      payload: { sharedPortfolioId: sp.id },
    });
    expect(shared).toHaveStatus(200);
    const copyId = (shared.json() as { id: number }).id;
    for (const text of ['One', 'Two', 'Three', 'Four'])
      expect(await comment(colleague, copyId, text)).toHaveStatus(200);

    const res = await t.api({ method: 'GET', url: `/artifacts/${artifact.id}/shares`, token: teacher.token });
    const shares = ArtifactSharesResponseSchema.parse(res.json());
    expect(shares).toHaveLength(1);
    expect(shares[0]).toMatchObject({
      sharedPortfolio: { id: sp.id, name: 'Ramp PLC' },
      sharedArtifact: { id: copyId, title: 'Ramps' },
      commentCount: 4,
    });
    expect(shares[0]!.latestComments.map((c) => c.text)).toEqual(['Four', 'Three', 'Two']);
    expect(shares[0]!.latestComments[0]!.owner).toEqual({ id: colleague.user.id, username: colleague.user.username });

    const own = await t.api({ method: 'GET', url: `/artifacts/${artifact.id}`, token: teacher.token });
    expect(own.json().commentCount).toBe(4);
    const list = await t.api({ method: 'GET', url: `/portfolios/${portfolio.id}`, token: teacher.token });
    expect(
      (list.json() as { artifacts: { id: number; commentCount: number }[] }).artifacts.find((a) => a.id === artifact.id)
        ?.commentCount,
    ).toBe(4);

    expect(
      await t.api({ method: 'GET', url: `/artifacts/${artifact.id}/shares`, token: researcher.token }),
    ).toHaveStatus(200);
    expect(
      await t.api({ method: 'GET', url: `/artifacts/${artifact.id}/shares`, token: colleague.token }),
    ).toBeApiError(404);
    expect(await t.api({ method: 'GET', url: `/artifacts/${artifact.id}/shares` })).toBeApiError(401);
    expect(await t.api({ method: 'GET', url: '/artifacts/999999/shares', token: teacher.token })).toBeApiError(404);

    // Deleting the personal artifact keeps the copy; it just no longer points back.
    const { rows } = await t.db.query<{ source_artifact_id: number | null }>(
      'SELECT source_artifact_id FROM shared_artifacts WHERE id = $1',
      [copyId],
    );
    expect(rows[0]!.source_artifact_id).toBe(artifact.id);
  });
});
