import type { InjectOptions } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  attachMedia,
  attachVideo,
  createArtifact,
  createComment,
  createInvitation,
  createLead,
  createPortfolio,
  createReaction,
  createSharedArtifact,
  createSharedPortfolio,
  createTeacher,
  snapshot,
  type TestUser,
} from '../../test/factories.ts';
import { seedRubricAndScore } from '../../test/fixtures/rubrics.ts';
import { buildTestApp } from '../../test/helper.ts';

/**
 * Every route with ids in its path answers ids that are not positive whole numbers in range with
 * a 400 naming the parameter, and every route that takes a body answers odd bodies with a clear
 * 4xx — never a 5xx — changing nothing.
 */

const t = await buildTestApp();

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
/** Routes with their path parameters in braces. */
const ROUTES: [Method, string][] = [
  ['GET', '/portfolios/{id}'],
  ['PUT', '/portfolios/{id}'],
  ['DELETE', '/portfolios/{id}'],
  ['POST', '/portfolios/{id}/artifacts/responses'],
  ['PUT', '/portfolios/{id}/artifacts/{artifactId}/responses'],
  ['POST', '/portfolios/{id}/artifacts/{artifactId}/images'],
  ['DELETE', '/portfolios/{id}/artifacts/{artifactId}/documents/{fileId}'],
  ['GET', '/artifacts/{id}'],
  ['PUT', '/artifacts/{id}'],
  ['DELETE', '/artifacts/{id}'],
  ['POST', '/artifacts/{id}/share'],
  ['GET', '/artifacts/{id}/shares'],
  ['GET', '/shared-portfolios/{id}'],
  ['GET', '/shared-portfolios/{id}/summary'],
  ['PUT', '/shared-portfolios/{id}'],
  ['DELETE', '/shared-portfolios/{id}'],
  ['GET', '/shared-portfolios/{id}/members'],
  ['POST', '/shared-portfolios/{id}/leave'],
  ['POST', '/shared-portfolios/{id}/remove-user/{userId}'],
  ['GET', '/shared-portfolios/{id}/shared-artifacts/{artifactId}/gate-check'],
  ['POST', '/shared-portfolios/{id}/shared-artifacts/{artifactId}/lock'],
  ['POST', '/shared-portfolios/{id}/shared-artifacts/{artifactId}/unlock'],
  ['PUT', '/shared-portfolios/{id}/shared-artifacts/{artifactId}/responses'],
  ['POST', '/shared-portfolios/{id}/shared-artifacts/{artifactId}/videos'],
  ['DELETE', '/shared-portfolios/{id}/shared-artifacts/{artifactId}/images/{fileId}'],
  ['GET', '/shared-artifacts/{id}'],
  ['PUT', '/shared-artifacts/{id}'],
  ['DELETE', '/shared-artifacts/{id}'],
  ['POST', '/shared-artifacts/{id}/share'],
  ['PUT', '/comments/{id}'],
  ['DELETE', '/comments/{id}'],
  ['DELETE', '/reactions/{id}'],
  ['GET', '/invitations/{id}'],
  ['DELETE', '/invitations/{id}'],
  ['POST', '/invitations/{id}/accept'],
  ['GET', '/artifacts/{id}/notes'],
  ['POST', '/artifacts/{id}/notes'],
  ['PATCH', '/artifact-notes/{id}'],
  ['DELETE', '/artifact-notes/{id}'],
  ['GET', '/artifacts/{id}/media/{mediaId}/captions'],
  ['POST', '/artifacts/{id}/media/{mediaId}/captions'],
  ['GET', '/shared-artifacts/{id}/media/{mediaId}/captions'],
  ['POST', '/shared-artifacts/{id}/media/{mediaId}/captions'],
  ['GET', '/captions/{id}'],
  ['PUT', '/captions/{id}'],
  ['DELETE', '/captions/{id}'],
  ['GET', '/captions/{id}/track.vtt'],
  ['PATCH', '/artifacts/{id}/media/{mediaId}'],
  ['PATCH', '/shared-artifacts/{id}/media/{mediaId}'],
  ['GET', '/shared-artifacts/{id}/media/{mediaId}/moments.csv'],
  ['GET', '/shared-artifacts/{id}/media/{mediaId}/moments.vtt'],
  ['GET', '/archives/{id}/download'],
  ['GET', '/rubrics/{id}'],
  ['PUT', '/rubrics/{id}'],
  ['DELETE', '/rubrics/{id}'],
  ['GET', '/shared-portfolios/{id}/rubric'],
  ['PUT', '/shared-portfolios/{id}/rubric'],
  ['GET', '/shared-artifacts/{id}/scores'],
  ['DELETE', '/scores/{id}'],
];

const BAD_IDS: [string, string][] = [
  ['0', 'must be a positive whole number'],
  ['-1', 'must be a positive whole number'],
  ['abc', 'must be a positive whole number'],
  ['1.5', 'must be a positive whole number'],
  ['0x10', 'must be a positive whole number'],
  ['%E2%91%A0', 'must be a positive whole number'],
  ['99999999999', 'must be a positive whole number'],
  ['2147483648', 'is out of range'],
];

let teacher: TestUser;
let lead: TestUser;
/** The real ids of objects the callers own or belong to. */
let ids: Record<string, Record<string, number>>;

beforeAll(async () => {
  teacher = await createTeacher(t);
  lead = await createLead(t);
  const portfolio = await createPortfolio(t, teacher);
  const artifact = await createArtifact(t, portfolio, { parkingLot: false });
  const sp = await createSharedPortfolio(t, lead, { members: [teacher] });
  const sa = await createSharedArtifact(t, sp, teacher);
  const invitee = await createTeacher(t);
  const video = await attachVideo(t, 'artifact', artifact.id, 10);
  const sharedVideo = await attachVideo(t, 'sharedArtifact', sa.id, 10);
  const { rows: notes } = await t.db.query<{ id: number }>(
    `INSERT INTO artifact_notes (artifact_id, media_id, owner_id, moment_start, text) VALUES ($1, $2, $3, 1, 'A note.') RETURNING id`,
    [artifact.id, video, teacher.user.id],
  );
  const { rows: tracks } = await t.db.query<{ id: number }>(
    `INSERT INTO caption_tracks (shared_artifact_id, media_id, language, label, cues) VALUES ($1, $2, 'en', 'English', '[]') RETURNING id`,
    [sa.id, sharedVideo],
  );
  const { rubricId, scoreId } = await seedRubricAndScore(t, sp.id, sa.id, teacher.user.id);
  ids = {
    rubrics: { id: rubricId },
    scores: { id: scoreId },
    portfolios: { id: portfolio.id, artifactId: artifact.id, fileId: await attachMedia(t, 'artifact', artifact.id) },
    artifacts: { id: artifact.id, mediaId: video },
    'shared-portfolios': {
      id: sp.id,
      artifactId: sa.id,
      fileId: await attachMedia(t, 'sharedArtifact', sa.id, 'image'),
      userId: teacher.user.id,
    },
    'shared-artifacts': { id: sa.id, mediaId: sharedVideo },
    'artifact-notes': { id: notes[0]!.id },
    media: { id: sharedVideo },
    captions: { id: tracks[0]!.id },
    comments: { id: await createComment(t, sa, teacher) },
    reactions: { id: (await createReaction(t, sa, teacher)).id },
    invitations: { id: await createInvitation(t, sp, invitee) },
  };
});

/** The path with every parameter filled with the real id, except `bad` which gets `value`. */
function fill(path: string, bad: string | null, value: string): string {
  const table = ids[path.split('/')[1]!] ?? {};
  return path.replace(/\{(\w+)\}/g, (_, name: string) => (name === bad ? value : String(table[name])));
}

describe.each(ROUTES)('%s %s', (method, path) => {
  const params = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);

  it.each(params)('answers a bad {%s} with 400 naming it', async (param) => {
    const before = await snapshot(t);
    for (const [value, problem] of BAD_IDS) {
      const res = await t.api({ method, url: fill(path, param, value), token: teacher.token, payload: {} });
      expect(res, `${param}=${value}`).toBeApiError(400, `${param} ${problem}.`);
    }
    expect(await snapshot(t)).toEqual(before);
  });
});

/** Routes that take an id in their query string, with the parameter in braces. */
const QUERY_ROUTES: [Method, string][] = [
  ['GET', '/rubrics?sharedPortfolio={sharedPortfolio}'],
  ['GET', '/insights?sharedPortfolio={sharedPortfolio}'],
];

describe.each(QUERY_ROUTES)('%s %s', (method, path) => {
  it('answers a bad id in the query with 400 naming it', async () => {
    const before = await snapshot(t);
    for (const [value, problem] of BAD_IDS) {
      const res = await t.api({ method, url: fill(path, 'sharedPortfolio', value), token: lead.token });
      expect(res, `sharedPortfolio=${value}`).toBeApiError(400, `sharedPortfolio ${problem}.`);
    }
    expect(await snapshot(t)).toEqual(before);
  });
});

const ODD_BODIES: [string, string][] = [
  ['a list', '[]'],
  ['a string', '"text"'],
  ['a number', '42'],
  ['true', 'true'],
  ['invalid JSON', '{"a":'],
  ['a prototype key', '{"__proto__":{"admin":true}}'],
  ['a NUL character', '{"text":"a\\u0000"}'],
  ['a lone surrogate', '{"name":"\\udfff","text":"\\ud800","responses":{"x":"\\ud800"}}'],
  ['deep nesting', `{"responses":${'['.repeat(5000)}${']'.repeat(5000)}}`],
  [
    'wrong types everywhere',
    '{"name":1,"text":[],"responses":"x","structure":{},"sharedPortfolioId":{},"to":[],"value":{},"newOwnerId":"x","lock":5}',
  ],
  ['huge text', JSON.stringify({ name: 'x'.repeat(500_000), text: 'y'.repeat(500_000) })],
  ['too large', JSON.stringify({ name: 'x'.repeat(1_100_000) })],
];

/** Every route that reads a body. */
const WRITES: [Method, string][] = [
  ['POST', '/portfolios'],
  ['PUT', '/portfolios/{id}'],
  ['POST', '/portfolios/{id}/artifacts/responses'],
  ['PUT', '/portfolios/{id}/artifacts/{artifactId}/responses'],
  ['PUT', '/artifacts/{id}'],
  ['POST', '/artifacts/{id}/share'],
  ['POST', '/shared-portfolios'],
  ['PUT', '/shared-portfolios/{id}'],
  ['POST', '/shared-portfolios/{id}/leave'],
  ['POST', '/shared-portfolios/{id}/shared-artifacts/{artifactId}/unlock'],
  ['PUT', '/shared-portfolios/{id}/shared-artifacts/{artifactId}/responses'],
  ['PUT', '/shared-artifacts/{id}'],
  ['POST', '/shared-artifacts/{id}/share'],
  ['POST', '/comments'],
  ['PUT', '/comments/{id}'],
  ['POST', '/reactions'],
  ['POST', '/invitations'],
  ['POST', '/messages/register-token'],
  ['POST', '/messages/unregister-token'],
  ['POST', '/messages/mark-as-read'],
  ['POST', '/notifications/read'],
  ['PUT', '/notification-preferences'],
  ['POST', '/unsubscribe'],
  ['POST', '/artifacts/{id}/notes'],
  ['PATCH', '/artifact-notes/{id}'],
  ['POST', '/artifacts/{id}/media/{mediaId}/captions'],
  ['POST', '/shared-artifacts/{id}/media/{mediaId}/captions'],
  ['PUT', '/captions/{id}'],
  ['PATCH', '/artifacts/{id}/media/{mediaId}'],
  ['PATCH', '/shared-artifacts/{id}/media/{mediaId}'],
  ['POST', '/archives'],
  ['POST', '/rubrics'],
  ['PUT', '/rubrics/{id}'],
  ['PUT', '/shared-portfolios/{id}/rubric'],
  ['POST', '/scores'],
];

describe.each(WRITES)('%s %s', (method, path) => {
  it.each(ODD_BODIES)('answers %s with a clear 4xx and changes nothing', async (_what, body) => {
    const request: InjectOptions = {
      method,
      url: fill(path, null, ''),
      payload: body,
      headers: { 'content-type': 'application/json' },
    };
    const before = await snapshot(t);
    for (const who of [teacher, lead]) {
      const res = await t.api({ ...request, url: String(request.url), token: who.token });
      expect(res).toBeHandled();
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
    }
    expect(await snapshot(t)).toEqual(before);
  });
});
