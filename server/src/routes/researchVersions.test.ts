import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import {
  COMPLETE_RESPONSES,
  createArtifact,
  createPortfolio,
  createResearcher,
  createSharedArtifact,
  createSharedPortfolio,
  createUser,
  teamQuestion,
} from '../../test/factories.ts';
import { multipart, pngImage } from '../../test/files.ts';
import { buildTestApp } from '../../test/helper.ts';
import { asWeb } from '../../test/fixtures/versions.ts';
import { readZip } from '../../test/zipReader.ts';

const t = await buildTestApp();
type Records = Record<string, string>[];

/** The research package's CSV files, parsed. */
async function exportWith(token: string, query = '') {
  const res = await t.api({ method: 'GET', url: `/research/export${query}`, token });
  expect(res).toHaveStatus(200);
  const files = readZip(res.rawPayload);
  const csv = (name: string) => parse(files.get(`${name}.csv`)!, { columns: true }) as Records;
  return { files, csv };
}

/** A row of versions.csv as compared: who, what and how. */
const brief = (r: Record<string, string>) =>
  [
    r['version'],
    r['client'],
    r['field'],
    r['change'],
    r['answer_text'] || r['answer_number'] || `${r['files_added']}/${r['files_removed']}`,
  ].join(' ');

describe('the research package: versions.csv', () => {
  it('one row per version and changed field of the exported artifacts, pseudonymised and de-identified like the rest', async () => {
    const researcher = await createResearcher(t);
    const ana = await createUser(t, { roleId: 1, username: 'Ana Lopez', email: 'ana.lopez@school.example' });
    const lee = await createUser(t, { roleId: 3, username: 'Lee Lead', email: 'lee.lead@school.example' });
    const portfolio = await createPortfolio(t, ana);
    const artifact = await createArtifact(t, portfolio);
    const base = `/portfolios/${portfolio.id}/artifacts/${artifact.id}`;
    const first = { ...COMPLETE_RESPONSES, studentThinking: 'Ana Lopez saw them compare slopes.' };
    const saves = [
      () => asWeb(t, ana.token, { method: 'PUT', url: `/artifacts/${artifact.id}`, payload: { responses: first } }),
      () =>
        t.api({ method: 'PUT', url: `${base}/responses`, token: ana.token, payload: { responses: { unitDay: 4 } } }),
      async () =>
        t.api({
          method: 'POST',
          url: `${base}/images`,
          token: ana.token,
          ...multipart('file', 'a.png', await pngImage(20, 20)),
        }),
      () =>
        asWeb(t, ana.token, {
          method: 'PUT',
          url: `/artifacts/${artifact.id}`,
          payload: { responses: { ...COMPLETE_RESPONSES, unitDay: 4 } },
        }),
      () =>
        asWeb(t, ana.token, {
          method: 'PUT',
          url: `/artifacts/${artifact.id}`,
          payload: { responses: { ...COMPLETE_RESPONSES, unitDay: 4 } },
        }),
    ];
    for (const save of saves) expect((await save()).statusCode).toBe(200);

    // A shared artifact saved by its PLC lead, then by its teacher.
    const sp = await createSharedPortfolio(t, lee, { members: [ana], questions: [teamQuestion('t1')] });
    const shared = await createSharedArtifact(t, sp, ana, { responses: COMPLETE_RESPONSES });
    const stored = await t.api({ method: 'GET', url: `/shared-artifacts/${shared.id}`, token: lee.token });
    const leads = await asWeb(t, lee.token, {
      method: 'PUT',
      url: `/shared-artifacts/${shared.id}`,
      payload: { responses: { ...COMPLETE_RESPONSES, t1: 'Fourth grade' }, updated_at: stored.json().updated_at },
    });
    expect(leads.statusCode).toBe(200);
    const anas = await asWeb(t, ana.token, {
      method: 'PUT',
      url: `/shared-artifacts/${shared.id}`,
      payload: { responses: { ...COMPLETE_RESPONSES, t1: 'Fifth grade' }, updated_at: leads.json().updated_at },
    });
    expect(anas.statusCode).toBe(200);

    const pkg = await exportWith(researcher.token, `?teachers=${ana.user.id}`);
    const versions = pkg.csv('versions');
    const teachers = pkg.csv('teachers');
    const anaId = teachers.find((r) => r['in_filter'] === 'true')!['teacher_id'];
    const ofArtifact = versions.filter((r) => r['artifact_id'] === String(artifact.id));
    expect(ofArtifact.map(brief)).toEqual([
      '1 web artifactName added Ramp race',
      '1 web learningGoal added Friction slows a rolling ball.',
      expect.stringMatching(/^1 web studentThinking added P-[0-9a-f]{20} saw them compare slopes\.$/),
      '2 mobile unitDay added 4',
      '3 mobile files files 1/0',
      '4 web studentThinking removed /',
      '5 web  none /',
    ]);
    for (const row of ofArtifact) {
      expect(row).toMatchObject({
        version_of: 'artifact',
        shared_artifact_id: '',
        teacher_id: anaId,
        restored_from: '',
      });
      expect(row['created_at']).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    }
    // The shared artifact's history: the lead's save (whole answers, as the first version) and the teacher's.
    const ofShared = versions.filter((r) => r['shared_artifact_id'] === String(shared.id));
    expect(ofShared.map(brief)).toEqual([
      '1 web artifactName added Ramp race',
      '1 web learningGoal added Friction slows a rolling ball.',
      '1 web t1 added Fourth grade',
      '2 web t1 changed Fifth grade',
    ]);
    const leeId = ofShared[0]!['teacher_id'];
    expect(leeId).toMatch(/^P-[0-9a-f]{20}$/);
    expect(teachers.map((r) => r['teacher_id'])).toContain(leeId);
    expect(ofShared[3]!['teacher_id']).toBe(anaId);
    // Nobody is named, and the codebook describes the file.
    const text = pkg.files.get('versions.csv')!.toString();
    expect(text).not.toMatch(/Ana|Lopez|Lee Lead|school\.example/);
    expect(pkg.files.get('codebook.md')!.toString()).toContain('## versions.csv');
    expect(
      pkg
        .csv('codebook_columns')
        .filter((r) => r['file'] === 'versions.csv')
        .map((r) => r['column']),
    ).toEqual(Object.keys(versions[0]!));
    // Artifacts the filters leave out take their histories with them.
    const other = await createUser(t, { roleId: 1 });
    expect((await exportWith(researcher.token, `?teachers=${other.user.id}`)).csv('versions')).toEqual([]);
  });
});
