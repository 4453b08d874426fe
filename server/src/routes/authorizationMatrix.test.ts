import type { InjectOptions } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  attachMedia,
  attachVideo,
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
  removeMember,
  snapshot,
  teamQuestion,
  type TestUser,
} from '../../test/factories.ts';
import { multipart, pdfDocument } from '../../test/files.ts';
import { buildTestApp } from '../../test/helper.ts';

/**
 * The permission table (`permissions.md`) as a test: every route, called by every kind of caller,
 * answers exactly as the table says — 401 for anonymous and blocked callers, 404 where the caller
 * may not know the object, 403 where they may but must not do this — and a refused write changes
 * nothing in the database or on disk. Allowed writes act on fresh objects made for each call.
 */

const t = await buildTestApp();

type Person = 'owner' | 'teacher' | 'lead' | 'researcher' | 'spOwner' | 'member' | 'invitee' | 'former';
type Caller = 'anon' | 'blocked' | Person;
type Expected = number | readonly [status: number, message: string];

interface Case {
  route: string;
  /** What each caller gets; anonymous and blocked callers always get 401. */
  expect: Partial<Record<Person, Expected>>;
  /** The request for one caller, on objects made for it. */
  request: (caller: Caller) => Promise<InjectOptions>;
}

let people: Record<Person | 'blocked', TestUser>;

beforeAll(async () => {
  people = {
    owner: await createTeacher(t),
    teacher: await createTeacher(t),
    lead: await createLead(t),
    researcher: await createResearcher(t),
    spOwner: await createLead(t),
    member: await createTeacher(t),
    invitee: await createTeacher(t),
    former: await createTeacher(t),
    blocked: await createUser(t, { blocked: true }),
  };
});

const NEED_LOGIN = 'You need to log in.';
const BLOCKED = 'Your account has been blocked by the administrator.';
const PORTFOLIO_NOT_FOUND = 'Portfolio not found.';
const ARTIFACT_NOT_FOUND = 'Artifact not found.';
const RESEARCHER_READ_ONLY = 'Researchers can read teacher portfolios but not change them.';
const TEMPLATE_FIXED = 'The portfolio template cannot be changed.';
const ONLY_RESEARCHERS = 'Only researchers can export summaries.';
const ONLY_RESEARCHERS_PACKAGE = 'Only researchers can export research data.';
const SHARED_NOT_FOUND = 'Shared portfolio not found.';
const SHARED_ARTIFACT_NOT_FOUND = 'Shared artifact not found.';
const OWNER_ONLY = 'Only the owner of this shared portfolio can do this.';
const NOT_YOURS = 'You can change only your own comments and reactions.';
const FILE_NOT_FOUND = 'File not found.';
const ARCHIVE_RESEARCHER = 'Archives hold a teacher’s own work: researchers cannot build or download one.';
const ARCHIVE_NOT_FOUND = 'Archive not found.';

const personal = {
  lead: [404, PORTFOLIO_NOT_FOUND],
  teacher: [404, PORTFOLIO_NOT_FOUND],
  researcher: [403, RESEARCHER_READ_ONLY],
} as const;
const personalArtifact = {
  teacher: [404, ARTIFACT_NOT_FOUND],
  lead: [404, ARTIFACT_NOT_FOUND],
  researcher: [403, RESEARCHER_READ_ONLY],
} as const;
const template = {
  owner: [403, TEMPLATE_FIXED],
  teacher: [403, TEMPLATE_FIXED],
  lead: [403, TEMPLATE_FIXED],
  researcher: [403, TEMPLATE_FIXED],
} as const;
const everyone = (status: number) => ({
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
const manage = {
  spOwner: 200,
  researcher: 200,
  member: [403, OWNER_ONLY],
  invitee: [404, SHARED_NOT_FOUND],
  teacher: [404, SHARED_NOT_FOUND],
  lead: [404, SHARED_NOT_FOUND],
  former: [404, SHARED_NOT_FOUND],
} as const;
/** Members and researchers work inside; nobody else (invitees only read). */
const work = (message = SHARED_ARTIFACT_NOT_FOUND) =>
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
async function personalWorld() {
  const portfolio = await createPortfolio(t, people.owner);
  const artifact = await createArtifact(t, portfolio, { parkingLot: false });
  const fileId = await attachMedia(t, 'artifact', artifact.id);
  return { portfolio, artifact, fileId };
}

/**
 * A shared portfolio of `spOwner` with a team question, a member, a former member, a pending
 * invitee and (unless `empty`) one shared artifact by the member holding a (file-less) document.
 */
async function sharedWorld(options: { empty?: boolean } = {}) {
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
async function personalVideoWorld() {
  const world = await personalWorld();
  const video = await attachVideo(t, 'artifact', world.artifact.id, 10);
  const { rows } = await t.db.query<{ id: number }>(
    `INSERT INTO artifact_notes (artifact_id, media_id, owner_id, moment_start, text) VALUES ($1, $2, $3, 1, 'A note.') RETURNING id`,
    [world.artifact.id, video, people.owner.user.id],
  );
  return { ...world, video, noteId: rows[0]!.id };
}

/** A shared world whose artifact also holds a 10 s (file-less) video with one caption track. */
async function sharedVideoWorld() {
  const world = await sharedWorld();
  const video = await attachVideo(t, 'sharedArtifact', world.sa!.id, 10);
  const { rows } = await t.db.query<{ id: number }>(
    `INSERT INTO caption_tracks (shared_artifact_id, media_id, language, label, cues) VALUES ($1, $2, 'en', 'English', '[{"start":0,"end":1,"text":"Hi"}]') RETURNING id`,
    [world.sa!.id, video],
  );
  return { ...world, video, trackId: rows[0]!.id };
}

const NOTE_NOT_FOUND = 'Note not found.';
const TRACK_NOT_FOUND = 'Caption track not found.';
const VTT = 'WEBVTT\n\n00:00.000 --> 00:01.000\nHello\n';
/** Whoever may read a shared artifact's files: members, invitees, researchers. */
const readShared = (message: string) =>
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
const editSharedCaptions = (readOnly: string, missing: string) =>
  ({
    spOwner: 200,
    member: 200,
    researcher: 200,
    invitee: [403, readOnly],
    teacher: [404, missing],
    lead: [404, missing],
    former: [404, missing],
  }) as const;
const notesOnly = {
  owner: 200,
  teacher: [404, NOTE_NOT_FOUND],
  lead: [404, NOTE_NOT_FOUND],
  researcher: [404, NOTE_NOT_FOUND],
  member: [404, NOTE_NOT_FOUND],
} as const;

/** Real files for the file-serving routes, uploaded once. */
let files: Promise<{ personal: string; shared: string }> | undefined;
function uploadedFiles() {
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

const get = (url: string): InjectOptions => ({ method: 'GET', url });

/** A ready archive of the owner's work, built once; its id. */
let archive: Promise<number> | undefined;
function ownersArchive(): Promise<number> {
  archive ??= (async () => {
    const { id } = await t.app.archives.request(people.owner.user);
    for (
      const deadline = Date.now() + 20_000;
      Date.now() < deadline;
      await new Promise((resolve) => setTimeout(resolve, 25))
    ) {
      const job = (await t.app.archives.list(people.owner.user)).find((j) => j.id === id);
      if (job?.status === 'ready') return id;
    }
    throw new Error(`archive ${id} of the owner was not built in time`);
  })();
  return archive;
}

const CASES: Case[] = [
  // Personal portfolios
  {
    route: 'GET /portfolios',
    expect: { owner: 200, teacher: 200, lead: 200, researcher: 200 },
    request: async () => get('/portfolios'),
  },
  { route: 'GET /portfolios/1 (template)', expect: everyone(200), request: async () => get('/portfolios/1') },
  {
    route: 'GET /portfolios/{id}',
    expect: { owner: 200, researcher: 200, teacher: [404, PORTFOLIO_NOT_FOUND], lead: [404, PORTFOLIO_NOT_FOUND] },
    request: async () => get(`/portfolios/${(await createPortfolio(t, people.owner)).id}`),
  },
  // The web's compact view of the same portfolio: allowed exactly as the full route.
  {
    route: 'GET /portfolios/1/summary (template)',
    expect: everyone(200),
    request: async () => get('/portfolios/1/summary'),
  },
  {
    route: 'GET /portfolios/{id}/summary',
    expect: { owner: 200, researcher: 200, teacher: [404, PORTFOLIO_NOT_FOUND], lead: [404, PORTFOLIO_NOT_FOUND] },
    request: async () => get(`/portfolios/${(await createPortfolio(t, people.owner)).id}/summary`),
  },
  {
    route: 'POST /portfolios',
    expect: { owner: 200, teacher: 200, lead: 200, researcher: [403, 'Researchers do not keep personal portfolios.'] },
    request: async () => ({ method: 'POST', url: '/portfolios', payload: { name: 'New' } }),
  },
  {
    route: 'PUT /portfolios/{id}',
    expect: { owner: 200, ...personal },
    request: async () => ({
      method: 'PUT',
      url: `/portfolios/${(await createPortfolio(t, people.owner)).id}`,
      payload: { name: 'Renamed' },
    }),
  },
  {
    route: 'PUT /portfolios/1 (template)',
    expect: template,
    request: async () => ({ method: 'PUT', url: '/portfolios/1', payload: { name: 'Mine now' } }),
  },
  {
    route: 'DELETE /portfolios/{id}',
    expect: { owner: 200, ...personal },
    request: async () => ({ method: 'DELETE', url: `/portfolios/${(await createPortfolio(t, people.owner)).id}` }),
  },
  {
    route: 'DELETE /portfolios/1 (template)',
    expect: template,
    request: async () => ({ method: 'DELETE', url: '/portfolios/1' }),
  },
  {
    route: 'GET /portfolios/export',
    expect: {
      researcher: 200,
      owner: [403, ONLY_RESEARCHERS],
      teacher: [403, ONLY_RESEARCHERS],
      lead: [403, ONLY_RESEARCHERS],
    },
    request: async () => get('/portfolios/export'),
  },
  {
    route: 'POST /portfolios/{id}/artifacts/responses',
    expect: { owner: 200, ...personal },
    request: async () => ({
      method: 'POST',
      url: `/portfolios/${(await createPortfolio(t, people.owner)).id}/artifacts/responses`,
      payload: {},
    }),
  },
  {
    route: 'POST /portfolios/1/artifacts/responses (template)',
    expect: template,
    request: async () => ({ method: 'POST', url: '/portfolios/1/artifacts/responses', payload: {} }),
  },
  {
    route: 'GET /artifacts',
    expect: { owner: 200, teacher: 200, lead: 200, researcher: 200 },
    request: async () => get('/artifacts'),
  },
  {
    route: 'GET /artifacts/{id}',
    expect: { owner: 200, researcher: 200, teacher: [404, ARTIFACT_NOT_FOUND], lead: [404, ARTIFACT_NOT_FOUND] },
    request: async () => get(`/artifacts/${(await personalWorld()).artifact.id}`),
  },
  {
    route: 'GET /artifacts/{id}/shares',
    expect: { owner: 200, researcher: 200, teacher: [404, ARTIFACT_NOT_FOUND], lead: [404, ARTIFACT_NOT_FOUND] },
    request: async () => get(`/artifacts/${(await personalWorld()).artifact.id}/shares`),
  },
  {
    route: 'PUT /artifacts/{id}',
    expect: { owner: 200, ...personalArtifact },
    request: async () => ({
      method: 'PUT',
      url: `/artifacts/${(await personalWorld()).artifact.id}`,
      payload: { responses: COMPLETE_RESPONSES },
    }),
  },
  {
    route: 'DELETE /artifacts/{id}',
    expect: { owner: 200, ...personalArtifact },
    request: async () => ({ method: 'DELETE', url: `/artifacts/${(await personalWorld()).artifact.id}` }),
  },
  {
    route: 'PUT /portfolios/{id}/artifacts/{artifactId}/responses',
    expect: { owner: 200, ...personalArtifact },
    request: async () => {
      const { portfolio, artifact } = await personalWorld();
      return {
        method: 'PUT',
        url: `/portfolios/${portfolio.id}/artifacts/${artifact.id}/responses`,
        payload: { responses: { nextSteps: 'More ramps.' } },
      };
    },
  },
  {
    route: 'POST /portfolios/{id}/artifacts/{artifactId}/documents',
    expect: { owner: 200, ...personalArtifact },
    request: async () => {
      const { portfolio, artifact } = await personalWorld();
      return {
        method: 'POST',
        url: `/portfolios/${portfolio.id}/artifacts/${artifact.id}/documents`,
        ...multipart('file', 'plan.pdf', pdfDocument()),
      };
    },
  },
  {
    route: 'DELETE /portfolios/{id}/artifacts/{artifactId}/documents/{fileId}',
    expect: { owner: 200, ...personalArtifact },
    request: async () => {
      const { portfolio, artifact, fileId } = await personalWorld();
      return { method: 'DELETE', url: `/portfolios/${portfolio.id}/artifacts/${artifact.id}/documents/${fileId}` };
    },
  },
  {
    route: 'POST /artifacts/{id}/share',
    expect: { owner: 200, ...personalArtifact },
    request: async () => {
      const { artifact } = await personalWorld();
      const target = await createSharedPortfolio(t, people.spOwner, {
        members: [people.owner, people.teacher, people.lead, people.researcher],
      });
      return { method: 'POST', url: `/artifacts/${artifact.id}/share`, payload: { sharedPortfolioId: target.id } };
    },
  },
  {
    route: 'POST /artifacts/{id}/share into a shared portfolio the owner is not in',
    expect: { owner: [404, 'Invalid shared portfolio ID.'] },
    request: async () => {
      const { artifact } = await personalWorld();
      const { sp } = await sharedWorld({ empty: true });
      return { method: 'POST', url: `/artifacts/${artifact.id}/share`, payload: { sharedPortfolioId: sp.id } };
    },
  },
  {
    route: 'POST /artifacts/{id}/share into a shared portfolio the owner is invited to',
    expect: { owner: [403, 'You are not a member of this shared portfolio.'] },
    request: async () => {
      const { artifact } = await personalWorld();
      const sp = await createSharedPortfolio(t, people.spOwner, { invitees: [people.owner] });
      return { method: 'POST', url: `/artifacts/${artifact.id}/share`, payload: { sharedPortfolioId: sp.id } };
    },
  },

  // Shared portfolios
  { route: 'GET /shared-portfolios', expect: everyone(200), request: async () => get('/shared-portfolios') },
  {
    route: 'GET /shared-portfolios/{id}',
    expect: {
      spOwner: 200,
      member: 200,
      invitee: 200,
      researcher: 200,
      teacher: [404, SHARED_NOT_FOUND],
      lead: [404, SHARED_NOT_FOUND],
      former: [404, SHARED_NOT_FOUND],
    },
    request: async () => get(`/shared-portfolios/${(await sharedWorld()).sp.id}`),
  },
  {
    route: 'POST /shared-portfolios',
    expect: {
      spOwner: 200,
      lead: 200,
      researcher: 200,
      teacher: [403, 'You do not have permission to access this page.'],
      member: [403, 'You do not have permission to access this page.'],
    },
    request: async () => ({ method: 'POST', url: '/shared-portfolios', payload: { name: 'Team', structure: [] } }),
  },
  {
    route: 'PUT /shared-portfolios/{id}',
    expect: manage,
    request: async () => ({
      method: 'PUT',
      url: `/shared-portfolios/${(await sharedWorld()).sp.id}`,
      payload: { name: 'Renamed', structure: [] },
    }),
  },
  {
    route: 'DELETE /shared-portfolios/{id}',
    expect: manage,
    request: async () => ({
      method: 'DELETE',
      url: `/shared-portfolios/${(await sharedWorld({ empty: true })).sp.id}`,
    }),
  },
  {
    route: 'GET /shared-portfolios/{id}/members',
    expect: manage,
    request: async () => get(`/shared-portfolios/${(await sharedWorld()).sp.id}/members`),
  },
  {
    route: 'POST /shared-portfolios/{id}/leave',
    expect: {
      member: 200,
      spOwner: 200,
      invitee: [404, SHARED_NOT_FOUND],
      teacher: [404, SHARED_NOT_FOUND],
      lead: [404, SHARED_NOT_FOUND],
      former: [404, SHARED_NOT_FOUND],
      researcher: [404, SHARED_NOT_FOUND],
    },
    request: async (caller) => {
      const { sp } = await sharedWorld();
      // The owner can leave only by naming a member as the new owner.
      const payload = caller === 'spOwner' ? { newOwnerId: people.member.user.id } : {};
      return { method: 'POST', url: `/shared-portfolios/${sp.id}/leave`, payload };
    },
  },
  {
    route: 'POST /shared-portfolios/{id}/remove-user/{userId}',
    expect: manage,
    request: async () => {
      const { sp } = await sharedWorld();
      const other = await createTeacher(t);
      await t.db.query('INSERT INTO shared_portfolio_members (shared_portfolio_id, user_id) VALUES ($1, $2)', [
        sp.id,
        other.user.id,
      ]);
      return { method: 'POST', url: `/shared-portfolios/${sp.id}/remove-user/${other.user.id}` };
    },
  },
  {
    route: 'GET /shared-portfolios/export',
    expect: {
      researcher: 200,
      spOwner: [403, ONLY_RESEARCHERS],
      member: [403, ONLY_RESEARCHERS],
      teacher: [403, ONLY_RESEARCHERS],
    },
    request: async () => get('/shared-portfolios/export'),
  },
  {
    route: 'GET /research/export',
    expect: {
      researcher: 200,
      owner: [403, ONLY_RESEARCHERS_PACKAGE],
      spOwner: [403, ONLY_RESEARCHERS_PACKAGE],
      member: [403, ONLY_RESEARCHERS_PACKAGE],
    },
    request: async () => get('/research/export'),
  },
  {
    route: 'GET /research/exports',
    expect: { researcher: 200, teacher: [403, ONLY_RESEARCHERS_PACKAGE], lead: [403, ONLY_RESEARCHERS_PACKAGE] },
    request: async () => get('/research/exports'),
  },

  // A teacher's archive of her own work (decision 022): nobody else's, and no researcher's.
  {
    route: 'GET /archives',
    expect: { owner: 200, teacher: 200, lead: 200, researcher: [403, ARCHIVE_RESEARCHER] },
    request: async () => get('/archives'),
  },
  {
    route: 'POST /archives',
    expect: { teacher: 200, lead: 200, researcher: [403, ARCHIVE_RESEARCHER] },
    request: async () => ({ method: 'POST', url: '/archives' }),
  },
  {
    route: 'GET /archives/{id}/download',
    expect: {
      owner: 200,
      teacher: [404, ARCHIVE_NOT_FOUND],
      lead: [404, ARCHIVE_NOT_FOUND],
      researcher: [404, ARCHIVE_NOT_FOUND],
      member: [404, ARCHIVE_NOT_FOUND],
    },
    request: async () => get(`/archives/${await ownersArchive()}/download`),
  },

  // Shared artifacts
  {
    route: 'GET /shared-artifacts/{id}',
    expect: {
      spOwner: 200,
      member: 200,
      invitee: 200,
      researcher: 200,
      teacher: [404, SHARED_ARTIFACT_NOT_FOUND],
      lead: [404, SHARED_ARTIFACT_NOT_FOUND],
      former: [404, SHARED_ARTIFACT_NOT_FOUND],
    },
    request: async () => get(`/shared-artifacts/${(await sharedWorld()).sa!.id}`),
  },
  {
    route: 'PUT /shared-artifacts/{id}',
    expect: work(),
    request: async () => {
      const { sa } = await sharedWorld();
      return {
        method: 'PUT',
        url: `/shared-artifacts/${sa!.id}`,
        payload: { responses: { ...COMPLETE_RESPONSES, team1: 'Ours' }, updated_at: sa!.updated_at },
      };
    },
  },
  {
    route: 'DELETE /shared-artifacts/{id}',
    expect: work(),
    request: async () => ({ method: 'DELETE', url: `/shared-artifacts/${(await sharedWorld()).sa!.id}` }),
  },
  {
    route: 'PUT /shared-portfolios/{id}/shared-artifacts/{artifactId}/responses',
    expect: work(),
    request: async () => {
      const { sp, sa } = await sharedWorld();
      return {
        method: 'PUT',
        url: `/shared-portfolios/${sp.id}/shared-artifacts/${sa!.id}/responses`,
        payload: { responses: { team1: 'Ours' }, updated_at: sa!.updated_at },
      };
    },
  },
  {
    route: 'POST /shared-portfolios/{id}/shared-artifacts/{artifactId}/documents',
    expect: work(),
    request: async () => {
      const { sp, sa } = await sharedWorld();
      return {
        method: 'POST',
        url: `/shared-portfolios/${sp.id}/shared-artifacts/${sa!.id}/documents`,
        ...multipart('myFile', 'notes.pdf', pdfDocument()),
      };
    },
  },
  {
    route: 'DELETE /shared-portfolios/{id}/shared-artifacts/{artifactId}/documents/{fileId}',
    expect: work(),
    request: async () => {
      const { sp, sa, fileId } = await sharedWorld();
      return { method: 'DELETE', url: `/shared-portfolios/${sp.id}/shared-artifacts/${sa!.id}/documents/${fileId}` };
    },
  },
  {
    route: 'GET /shared-portfolios/{id}/shared-artifacts/{artifactId}/gate-check',
    expect: work(),
    request: async () => {
      const { sp, sa } = await sharedWorld();
      return get(
        `/shared-portfolios/${sp.id}/shared-artifacts/${sa!.id}/gate-check?updated_at=${encodeURIComponent(sa!.updated_at)}`,
      );
    },
  },
  {
    route: 'POST /shared-portfolios/{id}/shared-artifacts/{artifactId}/lock',
    expect: work(),
    request: async () => {
      const { sp, sa } = await sharedWorld();
      return { method: 'POST', url: `/shared-portfolios/${sp.id}/shared-artifacts/${sa!.id}/lock` };
    },
  },
  {
    route: 'POST /shared-portfolios/{id}/shared-artifacts/{artifactId}/unlock',
    expect: work(),
    request: async () => {
      const { sp, sa } = await sharedWorld();
      return { method: 'POST', url: `/shared-portfolios/${sp.id}/shared-artifacts/${sa!.id}/unlock`, payload: {} };
    },
  },
  {
    route: 'POST /shared-artifacts/{id}/share',
    expect: work(),
    request: async () => {
      const { sp, sa } = await sharedWorld();
      return { method: 'POST', url: `/shared-artifacts/${sa!.id}/share`, payload: { sharedPortfolioId: sp.id } };
    },
  },
  {
    route: 'POST /shared-artifacts/{id}/share into a shared portfolio the caller is not in (invited: 403)',
    expect: {
      member: [403, 'You are not a member of this shared portfolio.'],
      spOwner: [404, 'Invalid shared portfolio ID.'],
    },
    request: async () => {
      const { sa } = await sharedWorld();
      const elsewhere = await createSharedPortfolio(t, people.lead, { invitees: [people.member] });
      return { method: 'POST', url: `/shared-artifacts/${sa!.id}/share`, payload: { sharedPortfolioId: elsewhere.id } };
    },
  },
  { route: 'GET /shared-artifacts', expect: everyone(200), request: async () => get('/shared-artifacts') },

  // Comments and reactions
  { route: 'GET /comments', expect: everyone(200), request: async () => get('/comments') },
  { route: 'GET /reactions', expect: everyone(200), request: async () => get('/reactions') },
  { route: 'GET /reactions/available', expect: everyone(200), request: async () => get('/reactions/available') },
  {
    route: 'POST /comments',
    expect: work('Invalid shared artifact ID.'),
    request: async () => ({
      method: 'POST',
      url: '/comments',
      payload: { sharedArtifact: (await sharedWorld()).sa!.id, text: 'Nice.' },
    }),
  },
  {
    route: 'POST /reactions',
    expect: work('Invalid shared artifact ID.'),
    request: async () => ({
      method: 'POST',
      url: '/reactions',
      payload: { sharedArtifact: (await sharedWorld()).sa!.id, value: '🌉' },
    }),
  },
  {
    route: "PUT /comments/{id} (a member's comment)",
    expect: {
      member: 200,
      spOwner: [403, NOT_YOURS],
      researcher: [403, NOT_YOURS],
      invitee: [404, 'Comment not found.'],
      teacher: [404, 'Comment not found.'],
      lead: [404, 'Comment not found.'],
      former: [404, 'Comment not found.'],
    },
    request: async () => {
      const { sa } = await sharedWorld();
      return {
        method: 'PUT',
        url: `/comments/${await createComment(t, sa!, people.member)}`,
        payload: { text: 'Edited.' },
      };
    },
  },
  {
    route: "DELETE /comments/{id} (a member's comment)",
    expect: {
      member: 200,
      spOwner: [403, NOT_YOURS],
      researcher: [403, NOT_YOURS],
      invitee: [404, 'Comment not found.'],
      teacher: [404, 'Comment not found.'],
      lead: [404, 'Comment not found.'],
      former: [404, 'Comment not found.'],
    },
    request: async () => {
      const { sa } = await sharedWorld();
      return { method: 'DELETE', url: `/comments/${await createComment(t, sa!, people.member)}` };
    },
  },
  {
    route: 'PUT /comments/{id} by its author after leaving',
    expect: { former: [404, 'Comment not found.'] },
    request: async () => {
      const { sp, sa } = await sharedWorld();
      await t.db.query('INSERT INTO shared_portfolio_members (shared_portfolio_id, user_id) VALUES ($1, $2)', [
        sp.id,
        people.former.user.id,
      ]);
      const id = await createComment(t, sa!, people.former);
      await removeMember(t, sp, people.former);
      return { method: 'PUT', url: `/comments/${id}`, payload: { text: 'Still mine?' } };
    },
  },
  {
    route: "DELETE /reactions/{id} (a member's reaction)",
    expect: {
      member: 200,
      spOwner: [403, NOT_YOURS],
      researcher: [403, NOT_YOURS],
      invitee: [404, 'Reaction not found.'],
      teacher: [404, 'Reaction not found.'],
      lead: [404, 'Reaction not found.'],
      former: [404, 'Reaction not found.'],
    },
    request: async () => {
      const { sa } = await sharedWorld();
      return { method: 'DELETE', url: `/reactions/${(await createReaction(t, sa!, people.member, '❓')).id}` };
    },
  },

  // Video moments: comments at a moment, private notes, captions, alt text, exports
  {
    route: 'POST /comments at a moment',
    expect: work('Invalid shared artifact ID.'),
    request: async () => {
      const { sa, video } = await sharedVideoWorld();
      return {
        method: 'POST',
        url: '/comments',
        payload: { sharedArtifact: sa!.id, text: 'Here.', moment: { media: video, start: 1, end: 2 } },
      };
    },
  },
  {
    route: 'POST /reactions at a moment',
    expect: work('Invalid shared artifact ID.'),
    request: async () => {
      const { sa, video } = await sharedVideoWorld();
      return {
        method: 'POST',
        url: '/reactions',
        payload: { sharedArtifact: sa!.id, value: '⭐', moment: { media: video, start: 1 } },
      };
    },
  },
  {
    route: 'GET /artifacts/{id}/notes',
    expect: {
      owner: 200,
      researcher: [404, ARTIFACT_NOT_FOUND],
      teacher: [404, ARTIFACT_NOT_FOUND],
      lead: [404, ARTIFACT_NOT_FOUND],
    },
    request: async () => get(`/artifacts/${(await personalVideoWorld()).artifact.id}/notes`),
  },
  {
    route: 'POST /artifacts/{id}/notes',
    expect: { owner: 200, ...personalArtifact },
    request: async () => {
      const { artifact, video } = await personalVideoWorld();
      return {
        method: 'POST',
        url: `/artifacts/${artifact.id}/notes`,
        payload: { media: video, start: 2, text: 'Second look.' },
      };
    },
  },
  {
    route: 'PATCH /artifact-notes/{id}',
    expect: notesOnly,
    request: async () => ({
      method: 'PATCH',
      url: `/artifact-notes/${(await personalVideoWorld()).noteId}`,
      payload: { text: 'Changed.' },
    }),
  },
  {
    route: 'DELETE /artifact-notes/{id}',
    expect: notesOnly,
    request: async () => ({ method: 'DELETE', url: `/artifact-notes/${(await personalVideoWorld()).noteId}` }),
  },
  {
    route: 'GET /shared-artifacts/{id}/media/{mediaId}/captions',
    expect: readShared(SHARED_ARTIFACT_NOT_FOUND),
    request: async () => {
      const world = await sharedVideoWorld();
      return get(`/shared-artifacts/${world.sa!.id}/media/${world.video}/captions`);
    },
  },
  {
    route: 'GET /artifacts/{id}/media/{mediaId}/captions',
    expect: {
      owner: 200,
      researcher: 200,
      teacher: [404, ARTIFACT_NOT_FOUND],
      lead: [404, ARTIFACT_NOT_FOUND],
      member: [404, ARTIFACT_NOT_FOUND],
    },
    request: async () => {
      const world = await personalVideoWorld();
      return get(`/artifacts/${world.artifact.id}/media/${world.video}/captions`);
    },
  },
  {
    route: 'POST /shared-artifacts/{id}/media/{mediaId}/captions',
    expect: editSharedCaptions(
      'You can read the captions of this video but not change them.',
      SHARED_ARTIFACT_NOT_FOUND,
    ),
    request: async () => {
      const world = await sharedVideoWorld();
      return {
        method: 'POST',
        url: `/shared-artifacts/${world.sa!.id}/media/${world.video}/captions`,
        payload: { language: 'en', label: 'English', format: 'vtt', source: VTT },
      };
    },
  },
  {
    route: 'POST /artifacts/{id}/media/{mediaId}/captions',
    expect: {
      owner: 200,
      researcher: [403, 'You can read the captions of this video but not change them.'],
      teacher: [404, ARTIFACT_NOT_FOUND],
      lead: [404, ARTIFACT_NOT_FOUND],
      member: [404, ARTIFACT_NOT_FOUND],
    },
    request: async () => {
      const world = await personalVideoWorld();
      return {
        method: 'POST',
        url: `/artifacts/${world.artifact.id}/media/${world.video}/captions`,
        payload: { language: 'en', label: 'English', format: 'vtt', source: VTT },
      };
    },
  },
  {
    route: 'PUT /captions/{id}',
    expect: editSharedCaptions('You can read these captions but not change them.', TRACK_NOT_FOUND),
    request: async () => ({
      method: 'PUT',
      url: `/captions/${(await sharedVideoWorld()).trackId}`,
      payload: { language: 'en', label: 'English', cues: [{ start: 0, end: 2, text: 'Hello' }] },
    }),
  },
  {
    route: 'DELETE /captions/{id}',
    expect: editSharedCaptions('You can read these captions but not change them.', TRACK_NOT_FOUND),
    request: async () => ({ method: 'DELETE', url: `/captions/${(await sharedVideoWorld()).trackId}` }),
  },
  {
    route: 'GET /captions/{id}',
    expect: readShared(TRACK_NOT_FOUND),
    request: async () => get(`/captions/${(await sharedVideoWorld()).trackId}`),
  },
  {
    route: 'GET /captions/{id}/track.vtt',
    expect: readShared(TRACK_NOT_FOUND),
    request: async () => get(`/captions/${(await sharedVideoWorld()).trackId}/track.vtt?download=1`),
  },
  {
    route: 'PATCH /artifacts/{id}/media/{mediaId}',
    expect: { owner: 200, ...personalArtifact },
    request: async () => {
      const { artifact, fileId } = await personalWorld();
      return {
        method: 'PATCH',
        url: `/artifacts/${artifact.id}/media/${fileId}`,
        payload: { alt: 'A lesson plan', description: 'Day 1' },
      };
    },
  },
  {
    route: 'PATCH /shared-artifacts/{id}/media/{mediaId}',
    expect: work(),
    request: async () => {
      const { sa, fileId } = await sharedWorld();
      return {
        method: 'PATCH',
        url: `/shared-artifacts/${sa!.id}/media/${fileId}`,
        payload: { description: 'Our plan' },
      };
    },
  },
  {
    route: 'GET /shared-artifacts/{id}/media/{mediaId}/moments.csv',
    expect: readShared(SHARED_ARTIFACT_NOT_FOUND),
    request: async () => {
      const { sa, video } = await sharedVideoWorld();
      return get(`/shared-artifacts/${sa!.id}/media/${video}/moments.csv`);
    },
  },
  {
    route: 'GET /shared-artifacts/{id}/media/{mediaId}/moments.vtt',
    expect: readShared(SHARED_ARTIFACT_NOT_FOUND),
    request: async () => {
      const { sa, video } = await sharedVideoWorld();
      return get(`/shared-artifacts/${sa!.id}/media/${video}/moments.vtt`);
    },
  },
  // Invitations
  { route: 'GET /invitations', expect: everyone(200), request: async () => get('/invitations') },
  {
    route: 'GET /invitations/{id}',
    expect: {
      invitee: 200,
      spOwner: 200,
      researcher: 200,
      member: [404, 'Invitation not found.'],
      teacher: [404, 'Invitation not found.'],
      lead: [404, 'Invitation not found.'],
      former: [404, 'Invitation not found.'],
    },
    request: async () => {
      const { sp } = await sharedWorld({ empty: true });
      const { rows } = await t.db.query<{ id: number }>('SELECT id FROM invitations WHERE shared_portfolio_id = $1', [
        sp.id,
      ]);
      return get(`/invitations/${rows[0]!.id}`);
    },
  },
  {
    route: 'POST /invitations',
    expect: {
      ...manage,
      invitee: [404, 'Invalid shared portfolio ID.'],
      teacher: [404, 'Invalid shared portfolio ID.'],
      lead: [404, 'Invalid shared portfolio ID.'],
      former: [404, 'Invalid shared portfolio ID.'],
    },
    request: async () => {
      const { sp } = await sharedWorld({ empty: true });
      const someone = await createTeacher(t);
      return { method: 'POST', url: '/invitations', payload: { to: someone.user.id, sharedPortfolio: sp.id } };
    },
  },
  {
    route: 'POST /invitations/{id}/accept',
    expect: {
      invitee: 200,
      spOwner: [404, 'Invitation not found.'],
      researcher: [404, 'Invitation not found.'],
      member: [404, 'Invitation not found.'],
      teacher: [404, 'Invitation not found.'],
      lead: [404, 'Invitation not found.'],
      former: [404, 'Invitation not found.'],
    },
    request: async () => {
      const { sp } = await sharedWorld({ empty: true });
      const { rows } = await t.db.query<{ id: number }>('SELECT id FROM invitations WHERE shared_portfolio_id = $1', [
        sp.id,
      ]);
      return { method: 'POST', url: `/invitations/${rows[0]!.id}/accept` };
    },
  },
  {
    route: 'DELETE /invitations/{id}',
    expect: {
      invitee: 200,
      spOwner: 200,
      researcher: 200,
      member: [404, 'Invitation not found.'],
      teacher: [404, 'Invitation not found.'],
      lead: [404, 'Invitation not found.'],
      former: [404, 'Invitation not found.'],
    },
    request: async () => {
      const { sp } = await sharedWorld({ empty: true });
      const { rows } = await t.db.query<{ id: number }>('SELECT id FROM invitations WHERE shared_portfolio_id = $1', [
        sp.id,
      ]);
      return { method: 'DELETE', url: `/invitations/${rows[0]!.id}` };
    },
  },

  // Routes of the mobile apps
  ...(
    [
      ['GET', '/messages/list', undefined],
      ['POST', '/messages/register-token', { platform: 'ios', osVersion: '17', fcmToken: 'token', devMode: false }],
      ['POST', '/messages/unregister-token', { fcmToken: 'token' }],
      ['POST', '/messages/mark-as-read', { messageId: '1' }],
      ['GET', '/contact', undefined],
      ['GET', '/grades', undefined],
      ['GET', '/subjects', undefined],
      ['POST', '/token/refresh', undefined],
      // Each person's own notifications (the event stream is checked in notificationDelivery.test.ts).
      ['GET', '/notifications', undefined],
      ['GET', '/notifications/unread', undefined],
      ['POST', '/notifications/read', { all: true }],
      ['GET', '/notification-preferences', undefined],
      ['PUT', '/notification-preferences', { email: { reaction: 'off' } }],
    ] as const
  ).map(([method, url, payload]): Case => ({
    route: `${method} ${url}`,
    expect: { owner: 200, researcher: 200, member: 200 },
    request: async () => ({ method, url, ...(payload ? { payload } : {}) }),
  })),
];

const refused = (expected: Expected) => typeof expected !== 'number';

describe.each(CASES)('$route', (c) => {
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
    expect(await t.api({ ...request, url: String(request.url), token: tokenOf(caller) })).toBeApiError(status, message);
    expect(await snapshot(t)).toEqual(before);
  });
});

/**
 * Files answer to capability addresses alone (no session): the address the API gave a caller is
 * signed for that caller, and works while that caller may read the file. Sent without any
 * credentials. Anonymous means the bare address of the file, without a capability.
 */
const FILE_CASES: {
  route: string;
  expect: Partial<Record<Person, Expected>>;
  url: () => Promise<string>;
  viewer?: true;
}[] = [
  {
    route: 'GET /uploads/{capability}/{name} of a personal artifact',
    expect: {
      owner: 200,
      researcher: 200,
      teacher: [404, FILE_NOT_FOUND],
      lead: [404, FILE_NOT_FOUND],
      member: [404, FILE_NOT_FOUND],
    },
    url: async () => (await uploadedFiles()).personal,
  },
  {
    route: 'GET /uploads/{capability}/{name} of a shared artifact',
    expect: {
      spOwner: 200,
      member: 200,
      invitee: 200,
      researcher: 200,
      teacher: [404, FILE_NOT_FOUND],
      lead: [404, FILE_NOT_FOUND],
      former: [404, FILE_NOT_FOUND],
    },
    url: async () => (await uploadedFiles()).shared,
  },
  // What the portal's viewer learns of a file opened from a bare link: the same rule as the file.
  {
    route: 'GET /viewer-files/{capability}/{name} of a personal artifact',
    expect: {
      owner: 200,
      researcher: 200,
      teacher: [404, FILE_NOT_FOUND],
      lead: [404, FILE_NOT_FOUND],
      member: [404, FILE_NOT_FOUND],
    },
    url: async () => (await uploadedFiles()).personal,
    viewer: true,
  },
  {
    route: 'GET /viewer-files/{capability}/{name} of a shared artifact',
    expect: {
      spOwner: 200,
      member: 200,
      invitee: 200,
      researcher: 200,
      teacher: [404, FILE_NOT_FOUND],
      lead: [404, FILE_NOT_FOUND],
      former: [404, FILE_NOT_FOUND],
    },
    url: async () => (await uploadedFiles()).shared,
    viewer: true,
  },
];

describe.each(FILE_CASES)('$route', (c) => {
  // The bare address is no route at all (404).
  const callers: [Caller, Expected][] = [
    ['anon', 404],
    ['blocked', [404, FILE_NOT_FOUND]],
    ...(Object.entries(c.expect) as [Person, Expected][]),
  ];
  const addressFor = async (caller: Caller) => {
    const url = await c.url();
    const bare = `/uploads/${url.split('/').pop()}`;
    const address = caller === 'anon' ? bare : t.app.services.media.signFor(people[caller].user.id)(url);
    return c.viewer ? address.replace(/^\/uploads\//, '/viewer-files/') : address;
  };

  const fetched = async (caller: Caller) => {
    const address = await addressFor(caller);
    const before = await snapshot(t);
    const res = await t.app.inject({ method: 'GET', url: `/api/v1${address}` });
    return { res, before };
  };

  it.each(callers.filter(([, e]) => typeof e === 'number'))('as %s: %j, changing nothing', async (caller, expected) => {
    const { res, before } = await fetched(caller);
    expect(res).toHaveStatus(expected as number);
    expect(await snapshot(t)).toEqual(before);
  });

  it.each(callers.filter(([, e]) => typeof e !== 'number'))('as %s: %j, changing nothing', async (caller, expected) => {
    const { res, before } = await fetched(caller);
    const [status, message] = expected as readonly [number, string];
    expect(res).toBeApiError(status, message);
    expect(await snapshot(t)).toEqual(before);
  });
});
