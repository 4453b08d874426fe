import { describe, expect, it } from 'vitest';
import { ArtifactSchema } from '#schemas/artifact';
import { VersionDetailSchema, VersionListResponseSchema } from '#schemas/versions';
import {
  COMPLETE_RESPONSES,
  createArtifact,
  createInvitation,
  createPortfolio,
  createResearcher,
  createSharedArtifact,
  createSharedPortfolio,
  createTeacher,
  removeMember,
  teamQuestion,
  type TestUser,
} from '../../test/factories.ts';
import { multipart, pngImage } from '../../test/files.ts';
import { buildTestApp } from '../../test/helper.ts';
import { asWeb, storedVersions } from '../../test/fixtures/versions.ts';

const t = await buildTestApp();

const get = (token: string | null, url: string) => t.api({ method: 'GET', url, token });
const list = async (token: string, url: string) => {
  const res = await get(token, url);
  expect(res).toHaveStatus(200);
  return VersionListResponseSchema.parse(res.json());
};
const restore = (token: string, url: string, payload: object = {}) => t.api({ method: 'POST', url, token, payload });

/** A teacher's completed artifact with `saves` web saves, each changing "What were students working to learn?". */
async function savedArtifact(saves: number, teacher?: TestUser) {
  const owner = teacher ?? (await createTeacher(t));
  const artifact = await createArtifact(t, await createPortfolio(t, owner), { parkingLot: false });
  for (let i = 1; i <= saves; i += 1) {
    const res = await asWeb(t, owner.token, {
      method: 'PUT',
      url: `/artifacts/${artifact.id}`,
      payload: { responses: { ...COMPLETE_RESPONSES, learningGoal: `Goal ${i}` } },
    });
    expect(res.statusCode, res.body).toBe(200);
  }
  return { owner, artifact, url: `/artifacts/${artifact.id}/versions` };
}

describe('GET /artifacts/{id}/versions', () => {
  it('lists the versions newest first: number, author, time, client and what changed, by question title', async () => {
    const { owner, artifact, url } = await savedArtifact(1);
    const base = `/portfolios/${artifact.portfolio.id}/artifacts/${artifact.id}`;
    for (const name of ['a.png', 'b.png']) {
      const file = multipart('file', name, await pngImage(20, 20));
      expect(await t.api({ method: 'POST', url: `${base}/images`, token: owner.token, ...file })).toHaveStatus(200);
    }
    await t.api({
      method: 'PUT',
      url: `${base}/responses`,
      token: owner.token,
      payload: { responses: { studentThinking: 'Slopes.', nextSteps: 'Ramps.', unitDay: 3, artifactName: 'New' } },
    });
    expect(await restore(owner.token, `${url}/1/restore`)).toHaveStatus(200);
    const page = await list(owner.token, url);
    expect(page.total).toBe(5);
    expect(page.nextBefore).toBeNull();
    expect(page.items.map((v) => [v.number, v.client, v.summary])).toEqual([
      [
        5,
        'restore',
        "Restored version 1: Artifact Name, Day of the unit, What does this evidence show about students' thinking, and 1 more, 2 images removed",
      ],
      [
        4,
        'mobile',
        "Artifact Name, Day of the unit, What does this evidence show about students' thinking, and 1 more",
      ],
      [3, 'mobile', '1 image added'],
      [2, 'mobile', '1 image added'],
      [1, 'web', 'First version'],
    ]);
    expect(page.items[0]).toMatchObject({ author: { id: owner.user.id, name: owner.user.username }, restoredFrom: 1 });
    expect(Date.parse(page.items[0]!.created_at)).toBeGreaterThanOrEqual(Date.parse(page.items[1]!.created_at));
  });

  it('pages: at most `limit` (default 20, at most 100) older than `before`, with the number to ask for next', async () => {
    const { owner, url } = await savedArtifact(45);
    const first = await list(owner.token, url);
    expect(first.items.map((v) => v.number)).toEqual(Array.from({ length: 20 }, (_, i) => 45 - i));
    expect(first.nextBefore).toBe(26);
    expect(first.items[0]!.summary).toBe('What were students working to learn');
    const second = await list(owner.token, `${url}?before=26&limit=25`);
    expect(second.items.map((v) => v.number)).toEqual(Array.from({ length: 25 }, (_, i) => 25 - i));
    expect(second.nextBefore).toBeNull();
    expect((await list(owner.token, `${url}?limit=100`)).items).toHaveLength(45);
    expect(await get(owner.token, `${url}?limit=101`)).toBeApiError(400, /limit must be a whole number from 1 to 100/);
    expect(await get(owner.token, `${url}?page=2`)).toBeApiError(400);
  });
});

describe('GET /artifacts/{id}/versions/{n}', () => {
  it('gives a version whole, its answers rebuilt across full copies and changes, and 404 for one that does not exist', async () => {
    const { owner, url } = await savedArtifact(60);
    for (const n of [1, 49, 50, 51, 60]) {
      const res = await get(owner.token, `${url}/${n}`);
      expect(res).toHaveStatus(200);
      const version = VersionDetailSchema.parse(res.json());
      expect(version).toMatchObject({
        number: n,
        client: 'web',
        responses: { ...COMPLETE_RESPONSES, learningGoal: `Goal ${n}` },
      });
    }
    expect(await get(owner.token, `${url}/61`)).toBeApiError(404, 'Version not found.');
  });
});

describe('restoring a version', () => {
  it('saves it as a new version; a stale updated_at gets the 409 of a save and changes nothing', async () => {
    const { owner, artifact, url } = await savedArtifact(3);
    const seen = ArtifactSchema.parse((await get(owner.token, `/artifacts/${artifact.id}`)).json());
    const res = await restore(owner.token, `${url}/1/restore`, { updated_at: seen.updated_at });
    expect(res).toHaveStatus(200);
    expect(ArtifactSchema.parse(res.json()).responses).toEqual({ ...COMPLETE_RESPONSES, learningGoal: 'Goal 1' });
    expect(await restore(owner.token, `${url}/2/restore`, { updated_at: seen.updated_at })).toBeApiError(
      409,
      /may have changed since you opened it/,
    );
    expect(await storedVersions(t, 'artifact', artifact.id)).toHaveLength(4);
    expect(await restore(owner.token, `${url}/9/restore`)).toBeApiError(404, 'Version not found.');
  });

  it('on a shared artifact, without updated_at checks the version its user last saw, as the mobile save does', async () => {
    const lead = await createTeacher(t);
    const member = await createTeacher(t);
    const sp = await createSharedPortfolio(t, lead, { members: [member], questions: [teamQuestion('nextSteps')] });
    const sa = await createSharedArtifact(t, sp, lead);
    const save = await t.api({
      method: 'PUT',
      url: `/shared-artifacts/${sa.id}`,
      token: lead.token,
      payload: { responses: { ...COMPLETE_RESPONSES, nextSteps: 'Later' }, updated_at: sa.updated_at },
    });
    expect(save).toHaveStatus(200);
    const url = `/shared-artifacts/${sa.id}/versions/1/restore`;
    expect(await restore(member.token, url)).toBeApiError(409, /Open it again to see the latest version/);
    expect(await restore(lead.token, url)).toHaveStatus(200);
    expect(await storedVersions(t, 'sharedArtifact', sa.id)).toMatchObject([
      { number: 1 },
      { number: 2, client: 'restore' },
    ]);
  });
});

describe('who may read and restore a history', () => {
  it('a personal artifact: its owner; researchers read only; another teacher is told it does not exist; no session 401', async () => {
    const { owner, url } = await savedArtifact(1);
    const other = await createTeacher(t);
    const researcher = await createResearcher(t);
    expect(await get(other.token, url)).toBeApiError(404, 'Artifact not found.');
    expect(await get(other.token, `${url}/1`)).toBeApiError(404, 'Artifact not found.');
    expect(await restore(other.token, `${url}/1/restore`)).toBeApiError(404, 'Artifact not found.');
    expect((await list(researcher.token, url)).total).toBe(1);
    expect(await get(researcher.token, `${url}/1`)).toHaveStatus(200);
    expect(await restore(researcher.token, `${url}/1/restore`)).toBeApiError(403);
    expect(await get(null, url)).toBeApiError(401);
    expect(await restore(owner.token, `${url}/1/restore`)).toHaveStatus(200);
  });

  it('a shared artifact: current members and researchers; former members and invitees are told it does not exist', async () => {
    const lead = await createTeacher(t);
    const [member, former, invitee, outsider] = [
      await createTeacher(t),
      await createTeacher(t),
      await createTeacher(t),
      await createTeacher(t),
    ];
    const sp = await createSharedPortfolio(t, lead, { members: [member, former] });
    await createInvitation(t, sp, invitee);
    const sa = await createSharedArtifact(t, sp, lead);
    await t.api({
      method: 'PUT',
      url: `/shared-artifacts/${sa.id}`,
      token: lead.token,
      payload: { responses: COMPLETE_RESPONSES, updated_at: sa.updated_at },
    });
    const url = `/shared-artifacts/${sa.id}/versions`;
    expect((await list(former.token, url)).total).toBe(1);
    await removeMember(t, sp, former);
    for (const who of [former, invitee, outsider]) {
      expect(await get(who.token, url)).toBeApiError(404, 'Shared artifact not found.');
      expect(await get(who.token, `${url}/1`)).toBeApiError(404, 'Shared artifact not found.');
      expect(await restore(who.token, `${url}/1/restore`)).toBeApiError(404, 'Shared artifact not found.');
    }
    expect((await list(member.token, url)).items).toHaveLength(1);
    expect((await list((await createResearcher(t)).token, url)).items).toHaveLength(1);
    expect(await get(null, `${url}/1`)).toBeApiError(401);
  });
});

describe('the OpenAPI document', () => {
  it('describes the history routes of both kinds of artifact with their schemas', async () => {
    const doc = (await get(null, '/openapi.json')).json() as {
      paths: Record<
        string,
        Record<string, { responses: Record<string, { content: Record<string, { schema: object }> }> }>
      >;
      components: { schemas: Record<string, unknown> };
    };
    for (const base of ['/api/v1/artifacts/{id}', '/api/v1/shared-artifacts/{id}']) {
      expect(Object.keys(doc.paths[`${base}/versions`] ?? {})).toEqual(['get']);
      expect(Object.keys(doc.paths[`${base}/versions/{n}`] ?? {})).toEqual(['get']);
      expect(Object.keys(doc.paths[`${base}/versions/{n}/restore`] ?? {})).toEqual(['post']);
      expect(doc.paths[`${base}/versions/{n}`]!['get']!.responses['200']!.content['application/json']!.schema).toEqual({
        $ref: '#/components/schemas/VersionDetail',
      });
    }
    expect(doc.components.schemas).toHaveProperty('VersionSummary');
  });
});
