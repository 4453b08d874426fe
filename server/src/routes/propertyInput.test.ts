import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  attachVideo,
  createArtifact,
  createComment,
  createInvitation,
  createLead,
  createPortfolio,
  createReaction,
  createResearcher,
  createSharedArtifact,
  createSharedPortfolio,
  createTeacher,
  snapshot,
  type TestUser,
} from '../../test/factories.ts';
import { multipart, pngImage } from '../../test/files.ts';
import { buildTestApp } from '../../test/helper.ts';
import { jsonBody, uploadBody, type WireBody } from '../../test/fixtures/propertyBodies.ts';
import { UPLOAD_LIMIT, text, missingId } from '../../test/fixtures/propertyInputs.ts';
import { malformed, queryArb, rawSegment, segment, type Param } from '../../test/fixtures/propertyParams.ts';
import type { Caller, RouteSpec } from '../../test/fixtures/propertyRoutes.ts';
import { expectationFor, refusal, type Generated } from '../../test/fixtures/propertyOracle.ts';
import { world, ROUTES } from '../../test/fixtures/propertyRoutes.ts';

/**
 * Generated bad input for every route of the app (property-based, fast-check): wrong types,
 * missing and extra fields, huge strings, Unicode edge cases (lone surrogates, NUL, RTL,
 * zero-width, emoji), odd ids, malformed JSON and multipart bodies, wrong content types — each
 * sent as an anonymous caller, as the teacher who owns the objects and as a researcher. Every
 * request the contract refuses gets a 4xx with the common error body and a human message; no
 * request gets a 5xx; and the database and the uploads folder (with its incoming folder) are
 * exactly as before. The route list comes from the app itself: a route without an entry in the
 * table fails `propertyRouteTable.test.ts`.
 *
 * Which requests count as refused is decided from the contract, not from the server: the Zod
 * schema of each part (the same one the route uses), ids that cannot exist, ids of objects that
 * belong elsewhere, bodies the JSON guard refuses, content types and sizes. A request that may
 * be valid is still sent to the anonymous caller (401) and, for reads, to everyone (any answer
 * below 500), but never as a signed-in write, so that nothing can change — nor as a signed-in
 * read marked `validNotSent` (an event stream that never ends, a download that writes an audit row).
 *
 * `PROPERTY_SEED` and `PROPERTY_RUNS` replay or deepen a run; a failure names the seed and path.
 */

const SEED = Number(process.env['PROPERTY_SEED'] ?? 20_261_121);
const RUNS = Number(process.env['PROPERTY_RUNS'] ?? 30);

/** A built app shell, so that the SPA's routes (its page and static files) exist too. */
const spaDir = mkdtempSync(path.join(os.tmpdir(), 'pf-spa-'));
writeFileSync(
  path.join(spaDir, 'index.html'),
  '<!doctype html><html><head><!--app-config--></head><body></body></html>',
);
mkdirSync(path.join(spaDir, 'assets'));
writeFileSync(path.join(spaDir, 'assets', 'app.js'), 'console.log(1);');
afterAll(() => rmSync(spaDir, { recursive: true, force: true }));

const t = await buildTestApp({ uploadLimitBytes: UPLOAD_LIMIT, staticDir: spaDir });

// ---------------------------------------------------------------------------------------------
// The objects the requests point at.

let owner: TestUser;
/** The owner's completed artifact and the shared artifact, as stored (nothing ever changes them). */
let researcher: TestUser;
/** `/uploads/<capability>/<file>` → its parts. */
const capabilityOf = (url: string): string => url.split('/')[2]!;
const fileNameOf = (url: string): string => url.split('/')[3]!;
/** Real values of each path parameter, by the first segment after the API prefix. */
let real: Record<string, Record<string, string[]>>;
/** Values of objects that exist but belong elsewhere: refused for writes by everyone. */
let foreign: Record<string, Record<string, string[]>>;

beforeAll(async () => {
  owner = await createTeacher(t);
  researcher = await createResearcher(t);
  const lead = await createLead(t);
  const other = await createTeacher(t);
  const portfolio = await createPortfolio(t, owner);
  const artifact = await createArtifact(t, portfolio, { parkingLot: false });
  const sp = await createSharedPortfolio(t, lead, { members: [owner] });
  const sa = await createSharedArtifact(t, sp, owner);
  const upload = async (url: string) => {
    const res = await t.api({
      method: 'POST',
      url,
      token: owner.token,
      ...multipart('file', 'photo.png', await pngImage(40, 30), 'image/png'),
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ id: number; url: string }>();
  };
  const personalFile = await upload(`/portfolios/${portfolio.id}/artifacts/${artifact.id}/images`);
  const sharedFile = await upload(`/shared-portfolios/${sp.id}/shared-artifacts/${sa.id}/images`);
  const elsewhere = await createArtifact(t, await createPortfolio(t, other), { parkingLot: false });
  const otherSp = await createSharedPortfolio(t, lead, { invitees: [owner] });
  const theirSa = await createSharedArtifact(t, await createSharedPortfolio(t, lead), lead);
  const leadsComment = await createComment(t, sa, lead);
  const leadsReaction = await createReaction(t, sa, lead, '🌉');
  await createComment(t, sa, owner);
  await createReaction(t, sa, owner, '⭐');
  await createInvitation(t, otherSp, other);
  const { rows } = await t.db.query<{ id: number }>('SELECT id FROM invitations WHERE to_user_id = $1', [
    owner.user.id,
  ]);
  const ownComment = await createComment(t, sa, owner, 'Mine.');
  const ownReaction = await createReaction(t, sa, owner, '❓');
  const video = await attachVideo(t, 'artifact', artifact.id, 10);
  const { rows: notes } = await t.db.query<{ id: number }>(
    `INSERT INTO artifact_notes (artifact_id, media_id, owner_id, moment_start, text) VALUES ($1, $2, $3, 1, 'Mine.') RETURNING id`,
    [artifact.id, video, owner.user.id],
  );
  const elsewhereVideo = await attachVideo(t, 'artifact', elsewhere.id, 10);
  const { rows: theirNotes } = await t.db.query<{ id: number }>(
    `INSERT INTO artifact_notes (artifact_id, media_id, owner_id, moment_start, text) VALUES ($1, $2, $3, 1, 'Theirs.') RETURNING id`,
    [elsewhere.id, elsewhereVideo, other.user.id],
  );
  const { rows: tracks } = await t.db.query<{ id: number }>(
    `INSERT INTO caption_tracks (artifact_id, media_id, language, label, cues) VALUES ($1, $2, 'en', 'English', '[]') RETURNING id`,
    [artifact.id, video],
  );
  world.personal = { responses: artifact.responses };
  world.shared = { responses: sa.responses, structure: sa.structure, updatedAt: new Date(sa.updated_at) };
  const s = (n: number) => [String(n)];
  real = {
    portfolios: { id: s(portfolio.id), artifactId: s(artifact.id), kind: ['images'], fileId: s(personalFile.id) },
    // Version 1 of each: the upload above.
    artifacts: { id: s(artifact.id), mediaId: [String(personalFile.id), String(video)], n: s(1) },
    'shared-portfolios': {
      id: s(sp.id),
      artifactId: s(sa.id),
      kind: ['images'],
      fileId: s(sharedFile.id),
      userId: s(owner.user.id),
    },
    'shared-artifacts': { id: s(sa.id), mediaId: s(sharedFile.id), n: s(1) },
    'artifact-notes': { id: s(notes[0]!.id) },
    media: { id: [String(video), String(sharedFile.id)] },
    captions: { id: s(tracks[0]!.id) },
    comments: { id: s(ownComment) },
    reactions: { id: s(ownReaction.id) },
    invitations: { id: s(rows[0]!.id) },
    users: { id: s(other.user.id) },
    uploads: {
      capability: [capabilityOf(personalFile.url), capabilityOf(sharedFile.url)],
      name: [fileNameOf(personalFile.url), fileNameOf(sharedFile.url)],
    },
    images: {
      capability: [capabilityOf(personalFile.url), capabilityOf(sharedFile.url)],
      name: [`${fileNameOf(personalFile.url)}.html`, `${fileNameOf(sharedFile.url)}.html`],
    },
  };
  foreign = {
    portfolios: { id: s(elsewhere.portfolio.id), artifactId: s(elsewhere.id), fileId: s(sharedFile.id) },
    artifacts: { id: s(elsewhere.id), mediaId: s(elsewhereVideo) },
    'artifact-notes': { id: s(theirNotes[0]!.id) },
    'shared-portfolios': { artifactId: s(theirSa.id), fileId: s(personalFile.id), userId: s(other.user.id) },
    comments: { id: s(leadsComment) },
    reactions: { id: s(leadsReaction.id) },
  };
});

// ---------------------------------------------------------------------------------------------
// Path parameters: real, foreign and malformed values (the other generators: server/test/fixtures/property*.ts).

function paramArb(section: string, name: string): fc.Arbitrary<Param> {
  if (name === '*') {
    // Static files and documentation assets: made-up paths below the folder.
    return fc
      .array(
        text.filter((s) => s.length > 0 && s.length < 300 && s !== '.' && s !== '..'),
        { minLength: 1, maxLength: 3 },
      )
      .map((parts) => {
        const segments = parts.map(segment);
        return {
          segment: `x-${segments.map((p) => p.segment).join('/')}`,
          decoded: segments.some((p) => p.decoded === null) ? null : `x-${segments.map((p) => p.decoded).join('/')}`,
        };
      });
  }
  const options: fc.WeightedArbitrary<Param>[] = [
    { weight: 2, arbitrary: malformed.filter((s) => s !== '' && s !== '.' && s !== '..').map(segment) },
    { weight: 1, arbitrary: rawSegment },
  ];
  const realValues = real[section]?.[name] ?? [];
  const foreignValues = foreign[section]?.[name] ?? [];
  if (realValues.length > 0) options.push({ weight: 4, arbitrary: fc.constantFrom(...realValues).map(segment) });
  if (foreignValues.length > 0) options.push({ weight: 1, arbitrary: fc.constantFrom(...foreignValues).map(segment) });
  if (name !== 'kind' && name !== 'name')
    options.push({ weight: 1, arbitrary: missingId.map((n) => segment(String(n))) });
  if (name === 'name')
    options.push({
      weight: 2,
      arbitrary: fc.stringMatching(/^(thumbnail_)?[A-Za-z0-9_-]{24}\.(png|jpg|pdf)$/).map(segment),
    });
  return fc.oneof(...options);
}

// ---------------------------------------------------------------------------------------------
// The property.

let address = 0;
/** A new client address for every request, so that the per-address limit of /auth/* never answers instead. */
const nextAddress = () => {
  address += 1;
  return `10.${(address >> 16) & 255}.${(address >> 8) & 255}.${address & 255}`;
};

function describeRequest(g: Generated, caller: Caller): string {
  const body =
    g.body.payload === undefined
      ? 'no body'
      : `${g.body.label} body (${g.body.contentType}, ${g.body.payload.length} bytes): ${String(g.body.payload).slice(0, 300)}`;
  return `${g.method} ${g.url.slice(0, 300)} as ${caller} with ${body}`;
}

async function send(g: Generated, caller: Caller): Promise<LightMyRequestResponse> {
  const token = caller === 'owner' ? owner.token : caller === 'researcher' ? researcher.token : null;
  const headers: Record<string, string> = {};
  if (token) headers['authorization'] = `Bearer ${token}`;
  if (g.body.contentType) headers['content-type'] = g.body.contentType;
  const request: InjectOptions = { method: g.method as 'GET', url: g.url, headers, remoteAddress: nextAddress() };
  if (g.body.payload !== undefined) request.payload = g.body.payload;
  return t.app.inject(request);
}

function generated(route: string, spec: RouteSpec): fc.Arbitrary<Generated> {
  const [method, path] = route.split(' ') as [string, string];
  const section = path.split('/')[3] ?? '';
  const names = [...path.matchAll(/:(\w+)|(\*)/g)].map((m) => m[1] ?? m[2]!);
  const params = fc.record(
    Object.fromEntries(names.map((n) => [n, paramArb(section, n)])) as Record<string, fc.Arbitrary<Param>>,
  );
  const body: fc.Arbitrary<WireBody> =
    method === 'GET' ? fc.constant({ label: 'none' }) : spec.upload ? uploadBody : jsonBody(spec.body);
  const methods = method === 'GET' ? fc.constantFrom('GET', 'GET', 'GET', 'HEAD') : fc.constant(method);
  return fc
    .record({ params, query: queryArb(spec.query), body, method: methods })
    .map(({ params: p, query, body: b, method: m }) => {
      const filled = path.replace(/:(\w+)|\*/g, (_, name: string | undefined) => p[name ?? '*']!.segment);
      const search = new URLSearchParams(query).toString();
      return { method: m, url: `${filled}${search ? `?${search}` : ''}`, query, params: p, body: b };
    });
}

const CALLERS: Caller[] = ['anonymous', 'owner', 'researcher'];

const hasInput = (spec: RouteSpec): boolean => Boolean(spec.params || spec.query || spec.body || spec.upload);

/** The property for one route: generated requests from every caller, then the database unchanged. */
async function checkRoute(route: string, spec: RouteSpec): Promise<void> {
  const withInput = hasInput(spec);
  const seed = SEED + [...route].reduce((h, c) => (h * 31 + c.charCodeAt(0)) | 0, 0);
  const counts = { refused: 0, sent: 0 };
  const reasons = new Map<string, number>();
  // Each route starts from the state it finds, so that one failure does not hide the others.
  const before = await snapshot(t);
  const property = fc.asyncProperty(generated(route, spec), async (g) => {
    for (const caller of CALLERS) {
      const reason = refusal(route, spec, g, caller, { real, foreign });
      const expectation = expectationFor(spec, g, reason, caller);
      if (process.env['PROPERTY_DEBUG']) {
        const key = `${caller} ${expectation} ${(reason ?? '').replace(/:.*/, '')}`;
        reasons.set(key, (reasons.get(key) ?? 0) + 1);
      }
      if (expectation === 'skip') continue;
      const res = await send(g, caller);
      const what = `${describeRequest(g, caller)}${reason ? ` (refused: ${reason})` : ''}\n→ ${res.statusCode} ${res.body.slice(0, 400)}`;
      counts.sent += 1;
      expect(res.statusCode, what).toBeLessThan(500);
      if (expectation === 'refused' && caller !== 'anonymous') counts.refused += 1;
      expect(res.statusCode, what).toBeGreaterThanOrEqual(expectation === 'refused' ? 400 : 0);
      // Every refusal (HEAD has no body to speak of) carries the error vocabulary's clear message.
      // oxlint-disable-next-line vitest/no-conditional-expect -- only refusals carry an error body
      if (res.statusCode >= 400 && g.method !== 'HEAD') expect(res, what).toBeHandled();
    }
    expect(
      await snapshot(t),
      `the database or the uploads folder changed after ${describeRequest(g, 'owner')}`,
    ).toEqual(before);
  });
  const details = await fc.check(property, { seed, numRuns: RUNS, endOnFailure: true });
  if (details.failed) {
    const cause =
      details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
    throw new Error(
      `${route} failed on run ${details.numRuns} (replay: PROPERTY_SEED=${SEED}, seed ${details.seed}, path "${details.counterexamplePath}")\n${cause}`,
    );
  }
  if (process.env['PROPERTY_DEBUG']) console.log(route, Object.fromEntries([...reasons].sort()));
  expect(counts.sent).toBeGreaterThanOrEqual(RUNS);
  // The generators must reach signed-in callers with bad input, not only the anonymous one.
  expect(withInput ? counts.refused : RUNS, 'refused requests from signed-in callers').toBeGreaterThanOrEqual(RUNS / 2);
}

describe.each(Object.entries(ROUTES).filter(([, spec]) => hasInput(spec)))('%s', (route, spec) => {
  it(
    'refuses generated bad input with a 4xx and a clear message, and changes nothing',
    () => checkRoute(route, spec),
    180_000,
  );
});

describe.each(Object.entries(ROUTES).filter(([, spec]) => !hasInput(spec)))('%s', (route, spec) => {
  it('ignores junk it does not read, never failing, and changes nothing', () => checkRoute(route, spec), 180_000);
});
