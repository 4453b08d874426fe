import type { InjectOptions } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  attachMedia,
  attachVideo,
  createArtifact,
  createLead,
  createPortfolio,
  createResearcher,
  createSharedArtifact,
  createSharedPortfolio,
  createTeacher,
  createUser,
  removeMember,
  snapshot,
  teamQuestion,
  type TestUser,
} from './factories.ts';
import { multipart, pdfDocument } from './files.ts';
import { buildTestApp } from './helper.ts';
import { until } from './until.ts';

/**
 * The permission table (`permissions.md`) as a test, shared by the files of
 * `server/src/routes/authorizationMatrix/`: every route, called by every kind of caller,
 * answers exactly as the table says — 401 for anonymous and blocked callers, 404 where the caller
 * may not know the object, 403 where they may but must not do this — and a refused write changes
 * nothing in the database or on disk. Allowed writes act on fresh objects made for each call.
 */

export const t = await buildTestApp();

export type Person = 'owner' | 'teacher' | 'lead' | 'researcher' | 'spOwner' | 'member' | 'invitee' | 'former';
export type Caller = 'anon' | 'blocked' | Person;
export type Expected = number | readonly [status: number, message: string];

export interface Case {
  route: string;
  /** What each caller gets; anonymous and blocked callers always get 401. */
  expect: Partial<Record<Person, Expected>>;
  /** The request for one caller, on objects made for it. */
  request: (caller: Caller) => Promise<InjectOptions>;
}

export const people = {} as Record<Person | 'blocked', TestUser>;

beforeAll(async () => {
  Object.assign(people, {
    owner: await createTeacher(t),
    teacher: await createTeacher(t),
    lead: await createLead(t),
    researcher: await createResearcher(t),
    spOwner: await createLead(t),
    member: await createTeacher(t),
    invitee: await createTeacher(t),
    former: await createTeacher(t),
    blocked: await createUser(t, { blocked: true }),
  });
});

const NEED_LOGIN = 'You need to log in.';
const BLOCKED = 'Your account has been blocked by the administrator.';
export const PORTFOLIO_NOT_FOUND = 'Portfolio not found.';
export const ARTIFACT_NOT_FOUND = 'Artifact not found.';
const RESEARCHER_READ_ONLY = 'Researchers can read teacher portfolios but not change them.';
const TEMPLATE_FIXED = 'The portfolio template cannot be changed.';
export const ONLY_RESEARCHERS = 'Only researchers can export summaries.';
export const ONLY_RESEARCHERS_PACKAGE = 'Only researchers can export research data.';
export const SHARED_NOT_FOUND = 'Shared portfolio not found.';
export const SHARED_ARTIFACT_NOT_FOUND = 'Shared artifact not found.';
const OWNER_ONLY = 'Only the owner of this shared portfolio can do this.';
export const NOT_YOURS = 'You can change only your own comments and reactions.';
export const FILE_NOT_FOUND = 'File not found.';
export const ARCHIVE_RESEARCHER = 'Archives hold a teacher’s own work: researchers cannot build or download one.';
export const ARCHIVE_NOT_FOUND = 'Archive not found.';

export const personal = {
  lead: [404, PORTFOLIO_NOT_FOUND],
  teacher: [404, PORTFOLIO_NOT_FOUND],
  researcher: [403, RESEARCHER_READ_ONLY],
} as const;
export const personalArtifact = {
  teacher: [404, ARTIFACT_NOT_FOUND],
  lead: [404, ARTIFACT_NOT_FOUND],
  researcher: [403, RESEARCHER_READ_ONLY],
} as const;
export const template = {
  owner: [403, TEMPLATE_FIXED],
  teacher: [403, TEMPLATE_FIXED],
  lead: [403, TEMPLATE_FIXED],
  researcher: [403, TEMPLATE_FIXED],
} as const;
export const everyone = (status: number) => ({
  owner: status,
  teacher: status,
  lead: status,
  researcher: status,
  spOwner: status,
  member: status,
  invitee: status,
  former: status,
});
/** Owner and researchers manage; members are told no; nobody else learns it exists. */
export const manage = {
  spOwner: 200,
  researcher: 200,
  member: [403, OWNER_ONLY],
  invitee: [404, SHARED_NOT_FOUND],
  teacher: [404, SHARED_NOT_FOUND],
  lead: [404, SHARED_NOT_FOUND],
  former: [404, SHARED_NOT_FOUND],
} as const;
/** Members and researchers work inside; nobody else (invitees only read). */
export const work = (message = SHARED_ARTIFACT_NOT_FOUND) =>
  ({
    spOwner: 200,
    member: 200,
    researcher: 200,
    invitee: [404, message],
    teacher: [404, message],
    lead: [404, message],
    former: [404, message],
  }) as const;

/** A teacher's portfolio with a completed artifact holding one (file-less) document. */
export async function personalWorld() {
  const portfolio = await createPortfolio(t, people.owner);
  const artifact = await createArtifact(t, portfolio, { parkingLot: false });
  const fileId = await attachMedia(t, 'artifact', artifact.id);
  return { portfolio, artifact, fileId };
}

/**
 * A shared portfolio of `spOwner` with a team question, a member, a former member, a pending
 * invitee and (unless `empty`) one shared artifact by the member holding a (file-less) document.
 */
export async function sharedWorld(options: { empty?: boolean } = {}) {
  const sp = await createSharedPortfolio(t, people.spOwner, {
    questions: [teamQuestion('team1')],
    members: [people.member, people.former],
    invitees: [people.invitee],
  });
  await removeMember(t, sp, people.former);
  if (options.empty) return { sp, sa: null, fileId: 0 };
  const sa = await createSharedArtifact(t, sp, people.member);
  const fileId = await attachMedia(t, 'sharedArtifact', sa.id);
  return { sp, sa, fileId };
}

/** A personal world whose artifact also holds a 10 s (file-less) video with one note of its owner. */
export async function personalVideoWorld() {
  const world = await personalWorld();
  const video = await attachVideo(t, 'artifact', world.artifact.id, 10);
  const { rows } = await t.db.query<{ id: number }>(
    `INSERT INTO artifact_notes (artifact_id, media_id, owner_id, moment_start, text) VALUES ($1, $2, $3, 1, 'A note.') RETURNING id`,
    [world.artifact.id, video, people.owner.user.id],
  );
  return { ...world, video, noteId: rows[0]!.id };
}

/** A shared world whose artifact also holds a 10 s (file-less) video with one caption track. */
export async function sharedVideoWorld() {
  const world = await sharedWorld();
  const video = await attachVideo(t, 'sharedArtifact', world.sa!.id, 10);
  const { rows } = await t.db.query<{ id: number }>(
    `INSERT INTO caption_tracks (shared_artifact_id, media_id, language, label, cues) VALUES ($1, $2, 'en', 'English', '[{"start":0,"end":1,"text":"Hi"}]') RETURNING id`,
    [world.sa!.id, video],
  );
  return { ...world, video, trackId: rows[0]!.id };
}

const NOTE_NOT_FOUND = 'Note not found.';
export const TRACK_NOT_FOUND = 'Caption track not found.';
export const VTT = 'WEBVTT\n\n00:00.000 --> 00:01.000\nHello\n';
/** Whoever may read a shared artifact's files: members, invitees, researchers. */
export const readShared = (message: string) =>
  ({
    spOwner: 200,
    member: 200,
    invitee: 200,
    researcher: 200,
    teacher: [404, message],
    lead: [404, message],
    former: [404, message],
  }) as const;
/** Captions of a shared video: readers read, members and researchers change them. */
export const editSharedCaptions = (readOnly: string, missing: string) =>
  ({
    spOwner: 200,
    member: 200,
    researcher: 200,
    invitee: [403, readOnly],
    teacher: [404, missing],
    lead: [404, missing],
    former: [404, missing],
  }) as const;
export const notesOnly = {
  owner: 200,
  teacher: [404, NOTE_NOT_FOUND],
  lead: [404, NOTE_NOT_FOUND],
  researcher: [404, NOTE_NOT_FOUND],
  member: [404, NOTE_NOT_FOUND],
} as const;

/** Real files for the file-serving routes, uploaded once. */
export let files: Promise<{ personal: string; shared: string }> | undefined;
export function uploadedFiles() {
  files ??= (async () => {
    const { portfolio, artifact } = await personalWorld();
    const mine = await t.api({
      method: 'POST',
      url: `/portfolios/${portfolio.id}/artifacts/${artifact.id}/documents`,
      token: people.owner.token,
      ...multipart('file', 'plan.pdf', pdfDocument()),
    });
    const { sp, sa } = await sharedWorld();
    const theirs = await t.api({
      method: 'POST',
      url: `/shared-portfolios/${sp.id}/shared-artifacts/${sa!.id}/documents`,
      token: people.member.token,
      ...multipart('file', 'notes.pdf', pdfDocument()),
    });
    expect(mine.statusCode, mine.body).toBe(200);
    expect(theirs.statusCode, theirs.body).toBe(200);
    return { personal: mine.json<{ url: string }>().url, shared: theirs.json<{ url: string }>().url };
  })();
  return files;
}

export const get = (url: string): InjectOptions => ({ method: 'GET', url });

/** A ready archive of the owner's work, built once; its id. */
export let archive: Promise<number> | undefined;
export function ownersArchive(): Promise<number> {
  archive ??= (async () => {
    const { id } = await t.app.archives.request(people.owner.user);
    await until(
      async () => (await t.app.archives.list(people.owner.user)).some((j) => j.id === id && j.status === 'ready'),
      { timeout: 20_000, what: `archive ${id} of the owner built` },
    );
    return id;
  })();
  return archive;
}

/** The callee answers `message` with 404 to each of `who`: they may not know the object. */
export function hidden<P extends Person>(message: string, ...who: P[]): Record<P, readonly [404, string]> {
  return Object.fromEntries(who.map((person) => [person, [404, message] as const])) as Record<
    P,
    readonly [404, string]
  >;
}

/** The one invitation to a shared portfolio made by `sharedWorld` (its invitee's). */
export async function invitationOf(sharedPortfolioId: number): Promise<number> {
  const { rows } = await t.db.query<{ id: number }>('SELECT id FROM invitations WHERE shared_portfolio_id = $1', [
    sharedPortfolioId,
  ]);
  return rows[0]!.id;
}

/** Adds `person` to the members of a shared portfolio directly in the database. */
export async function addMember(sharedPortfolioId: number, person: TestUser): Promise<void> {
  await t.db.query('INSERT INTO shared_portfolio_members (shared_portfolio_id, user_id) VALUES ($1, $2)', [
    sharedPortfolioId,
    person.user.id,
  ]);
}

const refused = (expected: Expected) => typeof expected !== 'number';

/**
 * One group of tests per case: every caller's answer as the case expects; a refused call also
 * changes nothing.
 */
export function checkRoutes(cases: readonly Case[]): void {
  describe.each(cases)('$route', (c) => {
    const callers: [Caller, Expected][] = [
      ['anon', [401, NEED_LOGIN]],
      ['blocked', [401, BLOCKED]],
      ...(Object.entries(c.expect) as [Person, Expected][]),
    ];
    const tokenOf = (caller: Caller) => (caller === 'anon' ? null : people[caller].token);

    it.each(callers.filter(([, e]) => !refused(e)))('as %s: %j', async (caller, expected) => {
      const request = await c.request(caller);
      expect(await t.api({ ...request, url: String(request.url), token: tokenOf(caller) })).toHaveStatus(
        expected as number,
      );
    });

    it.each(callers.filter(([, e]) => refused(e)))('as %s: %j, changing nothing', async (caller, expected) => {
      const [status, message] = expected as readonly [number, string];
      const request = await c.request(caller);
      const before = await snapshot(t);
      expect(await t.api({ ...request, url: String(request.url), token: tokenOf(caller) })).toBeApiError(
        status,
        message,
      );
      expect(await snapshot(t)).toEqual(before);
    });
  });
}
