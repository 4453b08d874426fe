import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { createResearcher } from '../../test/factories.ts';
import { rubricKit, SMALL_RUBRIC } from '../../test/fixtures/rubrics.ts';
import { buildTestApp } from '../../test/helper.ts';
import { readZip } from '../../test/zipReader.ts';

type Records = Record<string, string>[];
const PSEUDONYM = /^P-[0-9a-f]{20}$/;

const t = await buildTestApp();
const { scored, team, first } = rubricKit(t);

describe('rubrics and scores in the exports', async () => {
  const researcher = await createResearcher(t);
  const { lead, member, sa, sp, video, rubric } = await team(SMALL_RUBRIC);
  await t.db.query("UPDATE users SET username = 'Dana Whitfield' WHERE id = $1", [member.user.id]);
  const timed = await scored(lead, {
    sharedArtifact: sa.id,
    ...first(rubric, 0, 2),
    moment: { media: video, start: 4.5, end: 9 },
    note: 'Dana Whitfield let the groups argue it out.',
  });
  const whole = await scored(member, { sharedArtifact: sa.id, ...first(rubric, 1, 0) });

  it('the research package holds rubrics, their criteria and the scores, pseudonymised, with moment times', async () => {
    const res = await t.api({ method: 'GET', url: '/research/export', token: researcher.token });
    expect(res).toHaveStatus(200);
    const files = readZip(res.rawPayload);
    const rows = (name: string) => parse(files.get(`${name}.csv`)!, { columns: true }) as Records;

    const versions = rows('rubrics').filter((r) => r['rubric_id'] === String(rubric.id));
    expect(versions).toEqual([
      expect.objectContaining({ version: '1', shared_portfolio_id: String(sp.id), name: 'Discourse' }),
    ]);
    const versionId = versions[0]!['rubric_version_id']!;
    const levels = rows('rubric_criteria').filter((r) => r['rubric_version_id'] === versionId);
    expect(
      levels.map((r) => [
        r['criterion_position'],
        r['criterion_code'],
        r['level_position'],
        r['level_label'],
        r['level_score'],
      ]),
    ).toEqual([
      ['1', 'D1', '1', 'Low', '1'],
      ['1', 'D1', '2', 'Some', '2'],
      ['1', 'D1', '3', 'High', '3'],
      ['2', '', '1', 'Closed', '1'],
      ['2', '', '2', 'Mixed', '2'],
      ['2', '', '3', 'Open', '3'],
    ]);

    const scores = rows('scores').filter((r) => r['shared_artifact_id'] === String(sa.id));
    expect(scores.map((r) => r['score_id'])).toEqual([String(timed.id), String(whole.id)]);
    const [a, b] = scores as [Record<string, string>, Record<string, string>];
    expect(a).toMatchObject({
      rubric_version_id: versionId,
      criterion_id: String(rubric.criteria[0]!.id),
      level_id: String(rubric.criteria[0]!.levels[2]!.id),
      level_score: '3',
      media_id: String(video),
      moment_start: '4.5',
      moment_end: '9',
    });
    expect(b).toMatchObject({ media_id: '', moment_start: '', moment_end: '', level_score: '1' });
    for (const r of scores) expect(r['teacher_id']).toMatch(PSEUDONYM);
    expect(a['teacher_id']).not.toBe(b['teacher_id']);
    expect(a['note']).not.toContain('Dana');
    expect(a['note']).toMatch(/^P-[0-9a-f]{20} let the groups argue it out\.$/);
    // Every scorer joins teachers.csv.
    const people = new Set(rows('teachers').map((r) => r['teacher_id']));
    for (const r of scores) expect(people.has(r['teacher_id'])).toBe(true);

    const codebook = files.get('codebook.md')!.toString('utf8');
    for (const name of ['## rubrics.csv', '## rubric_criteria.csv', '## scores.csv']) expect(codebook).toContain(name);
    const columns = parse(files.get('codebook_columns.csv')!, { columns: true }) as Records;
    expect(columns.filter((c) => c['file'] === 'scores.csv').map((c) => c['column'])).toEqual(Object.keys(a));
  });

  it('the shared portfolios summary counts the scores in its last columns', async () => {
    const res = await t.api({ method: 'GET', url: '/shared-portfolios/export', token: researcher.token });
    expect(res).toHaveStatus(200);
    const records = parse(res.body, { columns: true }) as Records;
    const header = Object.keys(records[0]!);
    expect(header.slice(-4)).toEqual(['Scores', 'Time-coded Scores', 'Scored Artifacts', 'Scorers']);
    const row = records.find((r) => r['Shared Portfolio ID'] === String(sp.id))!;
    expect([row['Scores'], row['Time-coded Scores'], row['Scored Artifacts'], row['Scorers']]).toEqual([
      '2',
      '1',
      '1',
      '2',
    ]);
  });
});
