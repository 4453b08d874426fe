import { describe, expect, it } from 'vitest';
import { NotificationListResponseSchema } from '#schemas/notifications';
import { ScoreListSchema, ScoreSchema } from '#schemas/rubrics';
import {
  createLead,
  createSharedArtifact,
  createSharedPortfolio,
  snapshot,
  type TestUser,
} from '../../test/factories.ts';
import { buildTestApp } from '../../test/helper.ts';
import { rubricKit, SMALL_RUBRIC } from '../../test/fixtures/rubrics.ts';

const t = await buildTestApp();
const { makeRubric, choose, score, scored, team, first } = rubricKit(t);

const scoresOf = async (who: TestUser, artifact: number) => {
  const res = await t.api({ method: 'GET', url: `/shared-artifacts/${artifact}/scores`, token: who.token });
  expect(res).toHaveStatus(200);
  return ScoreListSchema.parse(res.json());
};

describe('scores', () => {
  it('scores a moment of a video, tells the artifact’s owner, and shows each person what the rules allow', async () => {
    const { lead, member, peer, invitee, researcher, sa, video, rubric } = await team();
    const given = await scored(lead, {
      sharedArtifact: sa.id,
      ...first(rubric, 1, 2),
      moment: { media: video, start: 3.25, end: 6 },
      note: 'Students revise their model after the ramp test.',
    });
    expect(given).toMatchObject({
      sharedArtifact: sa.id,
      criterion: { code: 'SEP2', label: 'Developing and using models' },
      level: { label: 'Proficient', score: 3 },
      moment: { media: video, start: 3.25, end: 6 },
      rubric: { id: rubric.id, version: 1 },
      abilities: { delete: true },
    });
    const byPeer = await scored(peer, {
      sharedArtifact: sa.id,
      ...first(rubric, 0, 0),
      moment: { media: video, start: 1 },
    });

    const feed = NotificationListResponseSchema.parse(
      (await t.api({ method: 'GET', url: '/notifications', token: member.token })).json(),
    );
    const item = feed.items.find((n) => n.kind === 'score' && n.actor?.id === lead.user.id)!;
    expect(item.summary).toMatch(
      /scored at 0:03–0:06 of a video of your artifact .*: Developing and using models — Proficient$/,
    );
    expect(item.moment).toEqual({ media: video, start: 3.25, end: 6 });
    expect(item.link).toBe(
      `/shared-portfolios/${sa.sharedPortfolio.id}/artifacts/${sa.id}?media=${video}&t=3#score-${given.id}`,
    );
    expect(feed.items.filter((n) => n.kind === 'score')).toHaveLength(2);

    // The owner, the lead and researchers see every score; another member her own; an invitee none.
    for (const who of [member, lead, researcher])
      expect((await scoresOf(who, sa.id)).map((s) => s.id)).toEqual([byPeer.id, given.id]);
    expect((await scoresOf(peer, sa.id)).map((s) => s.id)).toEqual([byPeer.id]);
    expect(await scoresOf(invitee, sa.id)).toEqual([]);
    expect((await scoresOf(member, sa.id)).every((s) => !s.abilities.delete)).toBe(true);
  });

  it('scores a whole image or document artifact, and the owner scoring her own work is not told', async () => {
    const { member, sa, rubric } = await team(SMALL_RUBRIC);
    const whole = await scored(member, { sharedArtifact: sa.id, ...first(rubric, 1, 1) });
    expect(whole.moment).toBeNull();
    const { rows } = await t.db.query('SELECT 1 FROM notifications WHERE score_id = $1', [whole.id]);
    expect(rows).toHaveLength(0);
  });

  it('refuses what does not fit the portfolio’s rubric or the video, storing nothing', async () => {
    const { lead, member, sa, sp, video, image, rubric } = await team(SMALL_RUBRIC);
    const otherLead = await createLead(t);
    const other = await createSharedPortfolio(t, otherLead);
    const elsewhere = await makeRubric(otherLead, other.id);
    const unchosen = await makeRubric(lead, sp.id);
    const base = { sharedArtifact: sa.id, ...first(rubric) };
    const before = await snapshot(t);
    const cases: [object, number, string | RegExp][] = [
      [
        { ...base, level: rubric.criteria[1]!.levels[0]!.id },
        400,
        'This level is not one of the levels of this criterion.',
      ],
      [
        { ...base, level: elsewhere.criteria[0]!.levels[0]!.id },
        400,
        'This level is not one of the levels of this criterion.',
      ],
      [{ ...base, criterion: elsewhere.criteria[0]!.id }, 400, 'This criterion is not part of the portfolio’s rubric.'],
      [{ ...base, rubric: elsewhere.id }, 400, 'This rubric belongs to another shared portfolio.'],
      [{ ...base, rubric: unchosen.id }, 400, 'This rubric is not the one this shared portfolio scores with.'],
      [{ ...base, moment: { media: video, start: 12 } }, 400, /past the end of the video/],
      [{ ...base, moment: { media: video, start: 5, end: 4 } }, 400, 'The end of a moment cannot be before its start.'],
      [{ ...base, moment: { media: image, start: 1 } }, 400, /only on a video/],
      [{ ...base, moment: { media: video, start: -1 } }, 400, 'A time cannot be negative.'],
      [{ ...base, note: 'x'.repeat(1001) }, 400, 'A note can be at most 1000 characters.'],
      [{ ...base, level: 'Proficient' }, 400, /level/],
      [{ ...base, scorer: lead.user.id }, 400, /scorer/],
    ];
    for (const [payload, status, message] of cases)
      expect(await score(member, payload), JSON.stringify(payload)).toBeApiError(status, message);
    expect(await choose(lead, sp.id, null)).toHaveStatus(200);
    const cleared = await snapshot(t);
    expect(await score(member, base)).toBeApiError(400, 'This shared portfolio has no rubric yet.');
    expect(await snapshot(t)).toEqual(cleared);
    expect(before.scores).toEqual(cleared.scores);
  });

  it('holds one person to at most 200 scores on one artifact', async () => {
    const { member, peer, sa, rubric } = await team(SMALL_RUBRIC);
    await t.db.query(
      `INSERT INTO scores (shared_artifact_id, version_id, criterion_id, level_id, scorer_id)
       SELECT $1, c.version_id, c.id, $3, $4 FROM rubric_criteria c, generate_series(1, 200) WHERE c.id = $2`,
      [sa.id, rubric.criteria[0]!.id, rubric.criteria[0]!.levels[0]!.id, peer.user.id],
    );
    const before = await snapshot(t);
    expect(await score(peer, { sharedArtifact: sa.id, ...first(rubric) })).toBeApiError(409, /at most 200 scores/);
    expect(await snapshot(t)).toEqual(before);
    expect(await score(member, { sharedArtifact: sa.id, ...first(rubric) })).toHaveStatus(200);
  });

  it('lets the scorer delete her score; the artifact’s owner is told no, other members that it does not exist', async () => {
    const { lead, member, peer, sa, rubric } = await team(SMALL_RUBRIC);
    const given = await scored(lead, { sharedArtifact: sa.id, ...first(rubric) });
    const del = (who: TestUser) => t.api({ method: 'DELETE', url: `/scores/${given.id}`, token: who.token });
    expect(await del(member)).toBeApiError(403, 'You can delete only your own scores.');
    expect(await del(peer)).toBeApiError(404, 'Score not found.');
    const gone = await del(lead);
    expect(gone).toHaveStatus(200);
    expect(ScoreSchema.parse(gone.json()).id).toBe(given.id);
    expect(await scoresOf(member, sa.id)).toEqual([]);
    const { rows } = await t.db.query('SELECT 1 FROM notifications WHERE score_id = $1', [given.id]);
    expect(rows).toHaveLength(0);
  });

  it('refuses scores on an artifact of a portfolio the caller does not work in', async () => {
    const { sa, rubric, invitee } = await team(SMALL_RUBRIC);
    const outsiderLead = await createLead(t);
    const own = await createSharedPortfolio(t, outsiderLead);
    await createSharedArtifact(t, own, outsiderLead);
    for (const who of [invitee, outsiderLead])
      expect(await score(who, { sharedArtifact: sa.id, ...first(rubric) })).toBeApiError(
        404,
        'Invalid shared artifact ID.',
      );
  });
});
