import { randomBytes } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { ResearchExportListResponseSchema } from '#schemas/researchExport';
import {
  attachMedia,
  attachVideo,
  createArtifact,
  createComment,
  createPortfolio,
  createReaction,
  createResearcher,
  createSharedArtifact,
  createSharedPortfolio,
  createUser,
  teamQuestion,
  type TestUser,
} from '../../test/factories.ts';
import { buildTestApp, type TestApp } from '../../test/helper.ts';
import { readZip } from '../../test/zipReader.ts';

const CSV_FILES = [
  'teachers',
  'portfolios',
  'artifacts',
  'responses',
  'shared_portfolios',
  'shared_artifacts',
  'comments',
  'reactions',
  'memberships',
  'versions',
  'rubrics',
  'rubric_criteria',
  'scores',
  'codebook_questions',
  'codebook_columns',
];
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const PSEUDONYM = /^P-[0-9a-f]{20}$/;
/** What a spreadsheet would run as a formula (the cells the export must neutralise). */
const FORMULA = /^[\s\u3000]*[=+\-@\uFF1D\uFF0B\uFF0D\uFE63\u2212\uFF20]|^[\t\r\n]/;

type Records = Record<string, string>[];

/** The package of an answer: its files, and each CSV parsed (header → records) with its header. */
function unpack(body: Buffer) {
  const files = readZip(body);
  const csv = new Map<string, { header: string[]; rows: Records; cells: string[][] }>();
  for (const name of CSV_FILES) {
    const content = files.get(`${name}.csv`);
    if (!content) throw new Error(`${name}.csv is missing`);
    const cells = parse(content, { relaxQuotes: false }) as string[][];
    csv.set(name, { header: cells[0]!, rows: parse(content, { columns: true }) as Records, cells: cells.slice(1) });
  }
  const rows = (name: string) => csv.get(name)!.rows;
  return { files, csv, rows };
}

async function download(t: TestApp, researcher: TestUser, query: string) {
  const res = await t.api({
    method: 'GET',
    url: `/research/export${query ? `?${query}` : ''}`,
    token: researcher.token,
  });
  expect(res).toHaveStatus(200);
  return unpack(res.rawPayload);
}

describe('the research package', async () => {
  const t = await buildTestApp();
  const researcher = await createResearcher(t);
  const ana = await createUser(t, { roleId: 3, username: 'Ana Lopez', email: 'ana.lopez@school.example' });
  const bruno = await createUser(t, { roleId: 1, username: 'Bruno Diaz', email: 'bruno.diaz@school.example' });
  const carla = await createUser(t, { roleId: 1, username: 'Carla Mendes', email: 'carla.m@school.example' });
  const outsider = await createUser(t, { roleId: 1, username: 'Omar Quist', email: 'omar.q@school.example' });
  const people = [researcher, ana, bruno, carla, outsider];

  const portfolio = await createPortfolio(t, bruno, {
    name: '=Bruno Diaz portfolio',
    subject: 'Science',
    topic: 'Forces with Ana Lopez',
    grades: ['5th', '6th'],
  });
  const artifact = await createArtifact(t, portfolio, {
    parkingLot: false,
    responses: {
      artifactName: '+Ramp race',
      learningGoal: 'Planned with @ana and ana.lopez@school.example; Carla helped.',
      unitDay: 4,
      artifactCategory: ['Student work', 'Assessment'],
    },
  });
  await attachMedia(t, 'artifact', artifact.id, 'image');
  await createArtifact(t, portfolio, { responses: { artifactName: 'Draft' } });
  await createPortfolio(t, carla, { name: 'Carla’s portfolio' });
  await createPortfolio(t, outsider, { name: 'Not shared' });

  const sp = await createSharedPortfolio(t, ana, {
    name: '@Forces PLC',
    members: [bruno, carla],
    questions: [teamQuestion('t1'), teamQuestion('t2', { type: 'multipleResponse', choices: ['Yes', '-No'] })],
  });
  const shared = await createSharedArtifact(t, sp, bruno, {
    responses: { artifactName: 'Ramp race', learningGoal: 'Friction.', t1: 'Ask Bruno Diaz', t2: ['Yes', '-No'] },
  });
  const video = await attachVideo(t, 'sharedArtifact', shared.id, 60);
  const plain = await createComment(
    t,
    shared,
    carla,
    '@bruno great! cc Omar Quist <omar.q@school.example> and parent@home.example',
  );
  const timed = await createComment(t, shared, ana, '-1 for the ending, see BRUNO DIAZ at 0:12');
  await t.db.query('UPDATE comments SET media_id = $2, moment_start = 12.5, moment_end = 20 WHERE id = $1', [
    timed,
    video,
  ]);
  await createReaction(t, shared, carla, '🌉');
  const timedReaction = await createReaction(t, shared, ana, '⭐');
  await t.db.query('UPDATE reactions SET media_id = $2, moment_start = 3 WHERE id = $1', [timedReaction.id, video]);
  const other = await createSharedPortfolio(t, outsider, { name: 'Other PLC' });
  await createSharedArtifact(t, other, outsider);

  it('holds the files, whose CSVs parse, join on their ids, and the codebook names every column', async () => {
    const pkg = await download(t, researcher, '');
    expect([...pkg.files.keys()].sort()).toEqual(
      [...CSV_FILES.map((n) => `${n}.csv`), 'README.md', 'codebook.md'].sort(),
    );

    const teachers = new Set(pkg.rows('teachers').map((r) => r['teacher_id']));
    const portfolios = new Set(pkg.rows('portfolios').map((r) => r['portfolio_id']));
    const artifacts = new Set(pkg.rows('artifacts').map((r) => r['artifact_id']));
    const sps = new Set(pkg.rows('shared_portfolios').map((r) => r['shared_portfolio_id']));
    const sas = new Set(pkg.rows('shared_artifacts').map((r) => r['shared_artifact_id']));
    for (const id of teachers) expect(id).toMatch(PSEUDONYM);
    for (const name of [
      'portfolios',
      'artifacts',
      'responses',
      'shared_artifacts',
      'comments',
      'reactions',
      'memberships',
    ]) {
      for (const row of pkg.rows(name)) expect(teachers, `${name}.teacher_id`).toContain(row['teacher_id']);
    }
    for (const row of pkg.rows('shared_portfolios')) expect(teachers).toContain(row['owner_id']);
    for (const row of pkg.rows('artifacts')) expect(portfolios).toContain(row['portfolio_id']);
    for (const row of pkg.rows('responses')) {
      expect([
        row['response_of'],
        row['response_of'] === 'artifact' ? artifacts.has(row['artifact_id']!) : sas.has(row['shared_artifact_id']!),
      ]).toEqual([expect.stringMatching(/^(artifact|shared_artifact)$/), true]);
    }
    for (const name of ['shared_artifacts', 'memberships'])
      for (const row of pkg.rows(name)) expect(sps).toContain(row['shared_portfolio_id']);
    for (const name of ['comments', 'reactions'])
      for (const row of pkg.rows(name)) expect(sas).toContain(row['shared_artifact_id']);
    const questionPortfolios = pkg
      .rows('codebook_questions')
      .map((row) => row['shared_portfolio_id'])
      .filter((id) => id !== '');
    expect(questionPortfolios.length).toBeGreaterThan(0);
    for (const id of questionPortfolios) expect(sps).toContain(id);

    // Every column of every CSV is in the codebook, and the codebook names no column that is not there.
    const described = new Map<string, string[]>();
    for (const row of pkg.rows('codebook_columns'))
      described.set(row['file']!, [...(described.get(row['file']!) ?? []), row['column']!]);
    expect([...described.keys()].sort()).toEqual(CSV_FILES.map((n) => `${n}.csv`).sort());
    for (const name of CSV_FILES) expect(described.get(`${name}.csv`), name).toEqual(pkg.csv.get(name)!.header);
    for (const row of pkg.rows('codebook_columns')) {
      expect(row['meaning']!.length).toBeGreaterThan(5);
      expect(pkg.files.get('codebook.md')!.toString()).toContain(`| \`${row['column']}\` |`);
    }
    // The questions of the template and of each shared portfolio, with their choices.
    const questions = pkg.rows('codebook_questions');
    expect(questions.filter((q) => q['structure'] === 'template').map((q) => q['question_key'])).toContain(
      'artifactCategory',
    );
    expect(questions.find((q) => q['structure'] === 'template' && q['question_key'] === 'unitTiming')!['choices']).toBe(
      'Beginning of unit | Middle of unit | End of unit | Not part of a unit',
    );
    expect(
      questions.find((q) => q['shared_portfolio_id'] === String(sp.id) && q['question_key'] === 't2'),
    ).toMatchObject({ team_question: 'true', choices: 'Yes | -No' });
  });

  it('selects rows as the filters say and writes them in long format with ISO UTC times and moments', async () => {
    const pkg = await download(t, researcher, '');
    // Researchers are never selected; the outsider is, as a teacher of the installation.
    expect(
      pkg
        .rows('teachers')
        .map((r) => r['role'])
        .sort(),
    ).toEqual(['plc_lead', 'teacher', 'teacher', 'teacher']);
    const artifactRows = pkg.rows('artifacts').filter((r) => r['portfolio_id'] === String(portfolio.id));
    expect(artifactRows.map((r) => [r['artifact_id'], r['title'], r['parking_lot'], r['images']])).toEqual([
      [String(artifact.id), "'+Ramp race", 'false', '1'],
      [expect.any(String), 'Draft', 'true', '0'],
    ]);
    const answers = pkg.rows('responses').filter((r) => r['artifact_id'] === String(artifact.id));
    expect(answers.map((r) => [r['question_key'], r['answer_text'], r['answer_number'], r['choice_count']])).toEqual([
      ['artifactName', "'+Ramp race", '', ''],
      ['unitDay', '', '4', ''],
      ['artifactCategory', 'Student work | Assessment', '', '2'],
      [
        'learningGoal',
        expect.stringMatching(/^Planned with @P-[0-9a-f]{20} and P-[0-9a-f]{20}; P-[0-9a-f]{20} helped\.$/),
        '',
        '',
      ],
    ]);
    const sharedAnswers = pkg.rows('responses').filter((r) => r['shared_artifact_id'] === String(shared.id));
    expect(sharedAnswers.find((r) => r['question_key'] === 't2')).toMatchObject({
      answer_text: 'Yes | -No',
      team_question: 'true',
      choice_count: '2',
    });

    const comments = pkg.rows('comments');
    expect(comments.find((c) => c['comment_id'] === String(plain))).toMatchObject({
      media_id: '',
      moment_start: '',
      moment_end: '',
      edited: 'false',
    });
    expect(comments.find((c) => c['comment_id'] === String(timed))).toMatchObject({
      media_id: String(video),
      moment_start: '12.5',
      moment_end: '20',
    });
    expect(
      pkg
        .rows('reactions')
        .map((r) => [r['value'], r['reaction'], r['media_id'], r['moment_start'], r['moment_end']])
        .sort(),
    ).toEqual([
      ['⭐', 'star', String(video), '3', ''],
      ['🌉', 'bridge', '', '', ''],
    ]);
    expect(
      pkg
        .rows('memberships')
        .filter((m) => m['shared_portfolio_id'] === String(sp.id))
        .map((m) => m['is_owner'])
        .sort(),
    ).toEqual(['false', 'false', 'true']);
    for (const [name, { header, rows }] of pkg.csv) {
      for (const column of header.filter((h) => h.endsWith('_at')))
        for (const row of rows) expect(row[column], `${name}.${column}`).toMatch(ISO_UTC);
    }

    // Teachers: only them, their work, and the shared portfolios they are members of.
    const one = await download(t, researcher, `teachers=${carla.user.id}`);
    expect(one.rows('teachers').filter((r) => r['in_filter'] === 'true')).toHaveLength(1);
    expect(one.rows('portfolios').map((r) => r['name'])).toEqual([
      expect.stringMatching(/^P-[0-9a-f]{20}’s portfolio$/),
    ]);
    expect(one.rows('shared_portfolios').map((r) => r['shared_portfolio_id'])).toEqual([String(sp.id)]);
    expect(one.rows('shared_artifacts')).toEqual([]);
    expect(one.rows('comments')).toEqual([]);
    // Shared portfolios: their members only.
    const team = await download(t, researcher, `sharedPortfolios=${sp.id}`);
    expect(team.rows('teachers')).toHaveLength(3);
    expect(team.rows('comments')).toHaveLength(2);
    expect(team.rows('portfolios')).toHaveLength(2);
    // Dates: created within the inclusive UTC days.
    await t.db.query(`UPDATE comments SET created_at = '2020-01-15T23:59:59Z' WHERE id = $1`, [plain]);
    await t.db.query(`UPDATE shared_artifacts SET created_at = '2020-01-15T12:00:00Z' WHERE id = $1`, [shared.id]);
    const day = await download(t, researcher, 'from=2020-01-15&to=2020-01-15');
    expect(day.rows('shared_artifacts').map((r) => r['shared_artifact_id'])).toEqual([String(shared.id)]);
    expect(day.rows('comments').map((r) => r['comment_id'])).toEqual([String(plain)]);
    expect(day.rows('artifacts')).toEqual([]);
  });

  it('names nobody: no e-mail or username of any account anywhere, mentions replaced, formulas neutralised', async () => {
    const pkg = await download(t, researcher, '');
    for (const [name, content] of pkg.files) {
      const text = content.toString('utf8').toLowerCase();
      for (const who of people) {
        expect(text, `${who.user.email} in ${name}`).not.toContain(who.user.email.toLowerCase());
        expect(text, `${who.user.username} in ${name}`).not.toContain(who.user.username.toLowerCase());
      }
      expect(text).not.toContain('parent@home.example');
    }
    const comment = pkg.rows('comments').find((c) => c['comment_id'] === String(plain))!['text'];
    // A cell that starts with "@" is neutralised too.
    expect(comment).toMatch(/^'@P-[0-9a-f]{20} great! cc P-[0-9a-f]{20} <P-[0-9a-f]{20}> and \[email\]$/);
    const omar = pkg
      .rows('teachers')
      .map((r) => r['teacher_id'])
      .find((id) => comment!.includes(`cc ${id} <${id}>`));
    expect(omar).toBeDefined();
    expect(pkg.rows('comments').find((c) => c['comment_id'] === String(timed))!['text']).toMatch(
      /^'-1 for the ending, see P-[0-9a-f]{20} at 0:12$/,
    );
    expect(pkg.rows('shared_portfolios').find((r) => r['shared_portfolio_id'] === String(sp.id))!['name']).toBe(
      "'@Forces PLC",
    );
    expect(pkg.rows('portfolios').find((r) => r['portfolio_id'] === String(portfolio.id))).toMatchObject({
      name: expect.stringMatching(/^'=P-[0-9a-f]{20} portfolio$/),
      topic: expect.stringMatching(/^Forces with P-[0-9a-f]{20}$/),
      grades: '5th | 6th',
    });
    // Every text cell of every file: nothing a spreadsheet would run.
    let cells = 0;
    for (const [name, { cells: rows }] of pkg.csv) {
      for (const row of rows) {
        for (const cell of row) {
          cells += 1;
          if (/^-?\d+(\.\d+)?$/.test(cell)) continue;
          expect(FORMULA.test(cell), `${name}: ${cell}`).toBe(false);
        }
      }
    }
    expect(cells).toBeGreaterThan(200);
  });

  it('gives each person the same pseudonym in every export, another one under another secret, and never exports the secret', async () => {
    const pseudonymOf = (pkg: ReturnType<typeof unpack>, portfolioId: number) =>
      pkg.rows('portfolios').find((r) => r['portfolio_id'] === String(portfolioId))!['teacher_id'];
    const first = await download(t, researcher, '');
    const second = await download(t, researcher, `teachers=${bruno.user.id}`);
    expect(pseudonymOf(first, portfolio.id)).toMatch(PSEUDONYM);
    expect(pseudonymOf(second, portfolio.id)).toBe(pseudonymOf(first, portfolio.id));
    expect(new Set(first.rows('teachers').map((r) => r['teacher_id'])).size).toBe(first.rows('teachers').length);

    const { rows } = await t.db.query<{ value: Buffer }>(
      `SELECT value FROM installation_secrets WHERE name = 'research_pseudonyms'`,
    );
    const secret = rows[0]!.value;
    for (const [, content] of first.files) {
      expect(content.includes(secret)).toBe(false);
      const text = content.toString();
      for (const encoded of [secret.toString('hex'), secret.toString('base64'), secret.toString('base64url')])
        expect(text).not.toContain(encoded);
    }
    await t.db.query(`UPDATE installation_secrets SET value = $1 WHERE name = 'research_pseudonyms'`, [
      randomBytes(32),
    ]);
    const other = await download(t, researcher, '');
    expect(pseudonymOf(other, portfolio.id)).toMatch(PSEUDONYM);
    expect(pseudonymOf(other, portfolio.id)).not.toBe(pseudonymOf(first, portfolio.id));
    await t.db.query(`UPDATE installation_secrets SET value = $1 WHERE name = 'research_pseudonyms'`, [secret]);
    expect(pseudonymOf(await download(t, researcher, ''), portfolio.id)).toBe(pseudonymOf(first, portfolio.id));
  });

  it('names people only with the consent confirmed, and then in teachers.csv next to the pseudonym', async () => {
    const pkg = await download(t, researcher, `identities=included&consentConfirmed=true&teachers=${bruno.user.id}`);
    expect(pkg.csv.get('teachers')!.header).toEqual([
      'teacher_id',
      'role',
      'in_filter',
      'created_at',
      'user_id',
      'username',
      'email',
    ]);
    expect(pkg.rows('teachers').find((r) => r['user_id'] === String(bruno.user.id))).toMatchObject({
      username: 'Bruno Diaz',
      email: 'bruno.diaz@school.example',
    });
    expect(
      pkg
        .rows('codebook_columns')
        .filter((r) => r['file'] === 'teachers.csv')
        .map((r) => r['column']),
    ).toContain('email');
    expect(pkg.files.get('README.md')!.toString()).toContain('| Identities | included');
  });

  it('records every export in the audit log that researchers read', async () => {
    await download(t, researcher, `from=2020-01-01&sharedPortfolios=${sp.id}`);
    const res = await t.api({ method: 'GET', url: '/research/exports', token: researcher.token });
    expect(res).toHaveStatus(200);
    const log = ResearchExportListResponseSchema.parse(res.json());
    expect(log[0]).toMatchObject({
      researcher: { id: researcher.user.id, username: researcher.user.username },
      parameters: { from: '2020-01-01', sharedPortfolios: [sp.id], identities: 'pseudonymous' },
      status: 'completed',
      rowCounts: { teachers: 3, memberships: 3, shared_portfolios: 1 },
    });
    expect(log[0]!.bytes).toBeGreaterThan(1000);
    expect(log[0]!.started_at).toMatch(ISO_UTC);
    expect(Date.parse(log[0]!.finished_at!)).toBeGreaterThanOrEqual(Date.parse(log[0]!.started_at));
    const readme = (await download(t, researcher, `sharedPortfolios=${sp.id}&teachers=${bruno.user.id}`)).files
      .get('README.md')!
      .toString();
    expect(readme).toContain(
      `Export ${ResearchExportListResponseSchema.parse((await t.api({ method: 'GET', url: '/research/exports', token: researcher.token })).json())[0]!.id}`,
    );
    expect(readme).toMatch(/\| Teachers \| P-[0-9a-f]{20} \|/);
    expect(readme).toContain(`| Shared portfolios | @Forces PLC (id ${sp.id}) |`);
  });
});
