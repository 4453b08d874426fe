import { parse } from 'csv-parse/sync';
import { SHARED_CSV_HEADER, TEACHER_CSV_HEADER } from '../services/exportService.ts';
import { describe, expect, it } from 'vitest';
import {
  attachMedia,
  COMPLETE_RESPONSES,
  createArtifact,
  createComment,
  createLead,
  createPortfolio,
  createReaction,
  createResearcher,
  createSharedArtifact,
  createSharedPortfolio,
  createTeacher,
  createUser,
  teamQuestion,
} from '../../test/factories.ts';
import { buildTestApp } from '../../test/helper.ts';

/** The spec's 12 columns in their order (reference §4.1), then the added ones. */
const TEACHER_SPEC_HEADER =
  'Teacher,Portfolio,Artifacts,Parking Lot Artifacts,Completed Artifacts,Artifacts with Documents,Artifacts with Images,Artifacts with Videos,Documents,Images,Videos,Last Updated';
const TEACHER_HEADER = `${TEACHER_SPEC_HEADER},Teacher ID,Teacher E-mail,Portfolio ID,Subject,Topic,Grades,Created,Artifact Responses`;
/** The spec's 18 columns in their order (reference §4.2), then the added ones. */
const SHARED_SPEC_HEADER =
  'Shared Portfolio,Owner,Teachers Who Submitted Artifacts,Artifacts,Artifacts with Bonus Questions Answered,Artifacts with Documents,Artifacts with Images,Artifacts with Videos,Documents,Images,Videos,Teachers Who Commented or Reacted,Comments,Reactions,Tag Reactions,Star Reactions,Bridge Reactions,Question Reactions';
const SHARED_HEADER = `${SHARED_SPEC_HEADER},Shared Portfolio ID,Owner ID,Owner Username,Submitting Teacher IDs,Submitting Teacher Usernames,Commenting or Reacting Teacher IDs,Commenting or Reacting Teacher Usernames,Time-coded Comments,Time-coded Reactions,Created,Last Updated,Artifact Responses,Comment Texts,Scores,Time-coded Scores,Scored Artifacts,Scorers`;
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** The rows of a CSV text, each a list of its cells. */
const parseCsv = (text: string): string[][] => parse(text, { relaxColumnCount: true });

describe('GET /portfolios/export (teacher portfolios.csv)', async () => {
  const t = await buildTestApp();
  const download = (headers: Record<string, string>) =>
    t.app.inject({ method: 'GET', url: '/api/v1/portfolios/export', headers });

  it('is for researchers only (bearer or the jwt cookie of a download link)', async () => {
    const researcher = await createResearcher(t);
    expect(await download({})).toBeApiError(401, 'You need to log in.');
    for (const who of [await createTeacher(t), await createLead(t)]) {
      expect(await download({ authorization: `Bearer ${who.token}` })).toBeApiError(
        403,
        'Only researchers can export summaries.',
      );
      expect(await download({ cookie: `jwt=${who.token}` })).toBeApiError(
        403,
        'Only researchers can export summaries.',
      );
    }
    const res = await download({ cookie: `jwt=${researcher.token}` });
    expect(res).toHaveStatus(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="teacher portfolios.csv"; filename*=UTF-8''teacher%20portfolios.csv`,
    );
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body.split('\n')[0]).toBe(TEACHER_HEADER);
  });

  it('has one row per portfolio of every teacher and PLC lead with the counts, formula-leading cells escaped', async () => {
    const researcher = await createResearcher(t);
    const alice = await createUser(t, { username: '+Alice Adams', roleId: 1 });
    const bob = await createUser(t, { username: '-Bob Brown', roleId: 3 });
    const carol = await createUser(t, { username: '@Carol, "the" teacher', roleId: 1, blocked: true });
    const p1 = await createPortfolio(t, alice, {
      name: '=HYPERLINK("x")',
      subject: 'Science',
      topic: '=Forces',
      grades: ['5th', '6th'],
    });
    const parked = await createArtifact(t, p1);
    const done = await createArtifact(t, p1, { parkingLot: false });
    const third = await createArtifact(t, p1, {
      parkingLot: false,
      responses: { ...COMPLETE_RESPONSES, artifactCategory: ['Student work', 'Assessment'], nextSteps: 'More' },
    });
    await attachMedia(t, 'artifact', parked.id, 'document');
    await attachMedia(t, 'artifact', parked.id, 'document');
    await attachMedia(t, 'artifact', done.id, 'image');
    await attachMedia(t, 'artifact', done.id, 'video');
    await attachMedia(t, 'artifact', done.id, 'image');
    const p2 = await createPortfolio(t, bob, { name: 'Empty lab' });
    const p3 = await createPortfolio(t, carol, { name: 'Plain' });
    await createPortfolio(t, researcher, { name: 'A researcher’s (never listed)' });

    const res = await t.api({ method: 'GET', url: '/portfolios/export', token: researcher.token });
    expect(res).toHaveStatus(200);
    const rows = parseCsv(res.body);
    expect(rows[0]!.join(',')).toBe(TEACHER_HEADER);
    expect(TEACHER_CSV_HEADER.slice(0, 12).join(',')).toBe(TEACHER_SPEC_HEADER);
    expect(rows.every((r) => r.length === TEACHER_CSV_HEADER.length)).toBe(true);
    const stamp = async (portfolioId: number) => {
      const { rows: r } = await t.db.query<{ at: Date }>(
        'SELECT greatest(p.updated_at, max(a.updated_at)) AS at FROM portfolios p LEFT JOIN artifacts a ON a.portfolio_id = p.id WHERE p.id = $1 GROUP BY p.id',
        [portfolioId],
      );
      return r[0]!.at.toISOString();
    };
    // The spec's columns, "Last Updated" in ISO 8601 with its time zone.
    expect(rows.slice(1).map((r) => r.slice(0, 12))).toEqual([
      ["'+Alice Adams", '\'=HYPERLINK("x")', '3', '1', '2', '1', '1', '1', '2', '2', '1', await stamp(p1.id)],
      ["'-Bob Brown", 'Empty lab', '0', '0', '0', '0', '0', '0', '0', '0', '0', await stamp(p2.id)],
      ['\'@Carol, "the" teacher', 'Plain', '0', '0', '0', '0', '0', '0', '0', '0', '0', await stamp(p3.id)],
    ]);
    expect(res.body).toContain('"\'=HYPERLINK(""x"")"');
    expect(rows[1]![11]).toMatch(ISO_UTC);
    // The added columns: ids, the one identity convention (id, user name, e-mail), descriptors and the answers as text.
    const added = (r: string[]) => Object.fromEntries(TEACHER_CSV_HEADER.slice(12).map((name, i) => [name, r[12 + i]]));
    expect(added(rows[1]!)).toEqual({
      'Teacher ID': String(alice.user.id),
      'Teacher E-mail': alice.user.email,
      'Portfolio ID': String(p1.id),
      Subject: 'Science',
      Topic: "'=Forces",
      Grades: '5th | 6th',
      Created: expect.stringMatching(ISO_UTC),
      'Artifact Responses': [
        `Artifact ${parked.id}: `,
        `Artifact ${done.id}: Artifact Name: Ramp race; What were students working to learn?: Friction slows a rolling ball.`,
        `Artifact ${third.id}: Artifact Name: Ramp race; What kind of evidence is this?: Student work | Assessment; What were students working to learn?: Friction slows a rolling ball.; What would you do next, or differently?: More`,
      ].join('\n'),
    });
    expect(added(rows[3]!)['Teacher E-mail']).toBe(carol.user.email);
  });

  it('never truncates: 1,200 more portfolios give 1,200 more rows', async () => {
    const researcher = await createResearcher(t);
    const before = parseCsv(
      (await t.api({ method: 'GET', url: '/portfolios/export', token: researcher.token })).body,
    ).length;
    const owner = await createTeacher(t);
    await t.db.query(
      `INSERT INTO portfolios (owner_id, name, structure) SELECT $1, 'Bulk ' || g, '[]'::jsonb FROM generate_series(1, 1200) g`,
      [owner.user.id],
    );
    const rows = parseCsv((await t.api({ method: 'GET', url: '/portfolios/export', token: researcher.token })).body);
    expect(rows).toHaveLength(before + 1200);
    expect(rows.filter((r) => r[1]!.startsWith('Bulk '))).toHaveLength(1200);
    expect(new Set(rows.map((r) => r[1])).size).toBe(rows.length);
  });
});

describe('GET /shared-portfolios/export (shared portfolios.csv)', async () => {
  const t = await buildTestApp();

  it('is for researchers only, with the file name of the original', async () => {
    const researcher = await createResearcher(t);
    const lead = await createLead(t);
    expect(await t.app.inject({ method: 'GET', url: '/api/v1/shared-portfolios/export' })).toBeApiError(
      401,
      'You need to log in.',
    );
    expect(await t.api({ method: 'GET', url: '/shared-portfolios/export', token: lead.token })).toBeApiError(
      403,
      'Only researchers can export summaries.',
    );
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/v1/shared-portfolios/export',
      headers: { cookie: `jwt=${researcher.token}` },
    });
    expect(res).toHaveStatus(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="shared portfolios.csv"; filename*=UTF-8''shared%20portfolios.csv`,
    );
    expect(res.body).toBe(`${SHARED_HEADER}\n`);
  });

  it('has one row per shared portfolio with artifact, bonus, media, discussion and reaction counts', async () => {
    const researcher = await createResearcher(t);
    const lead = await createUser(t, { email: '-lead@school.example', roleId: 3 });
    const member = await createUser(t, { email: '+member@school.example' });
    const quiet = await createUser(t, { email: 'quiet@school.example' });
    const sp1 = await createSharedPortfolio(t, lead, {
      name: '@Team',
      members: [member, quiet],
      questions: [teamQuestion('t1'), teamQuestion('t2', { type: 'singleSelection', choices: ['Yes', 'No'] })],
    });
    const s1 = await createSharedArtifact(t, sp1, member, {
      responses: { ...COMPLETE_RESPONSES, t1: 'Answer', t2: 'Yes' },
    });
    const s2 = await createSharedArtifact(t, sp1, lead, { responses: { ...COMPLETE_RESPONSES, t1: 'Only one' } });
    const s3 = await createSharedArtifact(t, sp1, member);
    await attachMedia(t, 'sharedArtifact', s1.id, 'image');
    await attachMedia(t, 'sharedArtifact', s2.id, 'document');
    await attachMedia(t, 'sharedArtifact', s2.id, 'document');
    const video = await attachMedia(t, 'sharedArtifact', s3.id, 'video');
    const c1 = await createComment(t, s1, member);
    const c2 = await createComment(t, s3, member, 'again');
    const c3 = await createComment(t, s2, lead);
    // A comment and a reaction at moments of the video.
    await t.db.query('UPDATE comments SET media_id = $2, moment_start = 12.5, moment_end = 20 WHERE id = $1', [
      c2,
      video,
    ]);
    await createReaction(t, s1, lead, '🔖');
    await createReaction(t, s1, member, '⭐');
    await createReaction(t, s2, lead, '⭐');
    await createReaction(t, s3, member, '🌉');
    const timed = await createReaction(t, s3, lead, '❓');
    await t.db.query('UPDATE reactions SET media_id = $2, moment_start = 3 WHERE id = $1', [timed.id, video]);

    const noBonus = await createSharedPortfolio(t, quiet, { name: 'No team questions' });
    await createSharedArtifact(t, noBonus, quiet);
    await createSharedArtifact(t, noBonus, quiet);
    await createSharedPortfolio(t, quiet, { name: 'Empty' });

    const res = await t.api({ method: 'GET', url: '/shared-portfolios/export', token: researcher.token });
    expect(res).toHaveStatus(200);
    const rows = parseCsv(res.body);
    expect(rows[0]!.join(',')).toBe(SHARED_HEADER);
    expect(SHARED_CSV_HEADER.slice(0, 18).join(',')).toBe(SHARED_SPEC_HEADER);
    expect(rows.every((r) => r.length === SHARED_CSV_HEADER.length)).toBe(true);
    expect(rows.slice(1).map((r) => r.slice(0, 18))).toEqual([
      [
        "'@Team",
        "'-lead@school.example",
        "'+member@school.example, -lead@school.example",
        '3',
        '1',
        '1',
        '1',
        '1',
        '2',
        '1',
        '1',
        "'+member@school.example, -lead@school.example",
        '3',
        '5',
        '1',
        '2',
        '1',
        '1',
      ],
      [
        'No team questions',
        'quiet@school.example',
        'quiet@school.example',
        '2',
        '0',
        '0',
        '0',
        '0',
        '0',
        '0',
        '0',
        '',
        '0',
        '0',
        '0',
        '0',
        '0',
        '0',
      ],
      ['Empty', 'quiet@school.example', '', '0', '0', '0', '0', '0', '0', '0', '0', '', '0', '0', '0', '0', '0', '0'],
    ]);
    // The added columns: ids and user names beside the e-mails (same order), the time-coded discussion, ISO dates, texts.
    const added = (r: string[]) => Object.fromEntries(SHARED_CSV_HEADER.slice(18).map((name, i) => [name, r[18 + i]]));
    const commentAt = async (id: number) =>
      (
        await t.db.query<{ at: Date }>('SELECT created_at AS at FROM comments WHERE id = $1', [id])
      ).rows[0]!.at.toISOString();
    expect(added(rows[1]!)).toEqual({
      'Shared Portfolio ID': String(sp1.id),
      'Owner ID': String(lead.user.id),
      'Owner Username': lead.user.username,
      'Submitting Teacher IDs': `${member.user.id}, ${lead.user.id}`,
      'Submitting Teacher Usernames': `${member.user.username}, ${lead.user.username}`,
      'Commenting or Reacting Teacher IDs': `${member.user.id}, ${lead.user.id}`,
      'Commenting or Reacting Teacher Usernames': `${member.user.username}, ${lead.user.username}`,
      'Time-coded Comments': '1',
      'Time-coded Reactions': '1',
      // Scores are counted in researchRubrics.test.ts; none here.
      Scores: '0',
      'Time-coded Scores': '0',
      'Scored Artifacts': '0',
      Scorers: '0',
      Created: expect.stringMatching(ISO_UTC),
      'Last Updated': expect.stringMatching(ISO_UTC),
      'Artifact Responses': [
        `Artifact ${s1.id} by ${member.user.username}: Artifact Name: Ramp race; What were students working to learn?: Friction slows a rolling ball.; Team question t1?: Answer; Team question t2?: Yes`,
        `Artifact ${s2.id} by ${lead.user.username}: Artifact Name: Ramp race; What were students working to learn?: Friction slows a rolling ball.; Team question t1?: Only one`,
        `Artifact ${s3.id} by ${member.user.username}: Artifact Name: Ramp race; What were students working to learn?: Friction slows a rolling ball.`,
      ].join('\n'),
      'Comment Texts': [
        `Comment ${c1} by ${member.user.username} (id ${member.user.id}) at ${await commentAt(c1)}: A thoughtful comment.`,
        `Comment ${c2} by ${member.user.username} (id ${member.user.id}) at ${await commentAt(c2)}, video ${video} 12.5–20 s: again`,
        `Comment ${c3} by ${lead.user.username} (id ${lead.user.id}) at ${await commentAt(c3)}: A thoughtful comment.`,
      ].join('\n'),
    });
    expect(added(rows[3]!)).toMatchObject({
      'Submitting Teacher IDs': '',
      'Time-coded Comments': '0',
      'Artifact Responses': '',
      'Comment Texts': '',
    });
  });
});
