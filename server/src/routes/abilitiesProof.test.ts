import type { InjectOptions } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  COMPLETE_RESPONSES,
  createArtifact,
  createComment,
  createLead,
  createPortfolio,
  createResearcher,
  createSharedArtifact,
  createSharedPortfolio,
  createTeacher,
  removeMember,
  type TestUser,
} from '../../test/factories.ts';
import { buildTestApp } from '../../test/helper.ts';

/**
 * What `abilities` says is what the server then allows (decision 029): for every kind of caller
 * and every ability the answers carry, the caller reads the resource's abilities, then calls the
 * route the ability stands for on the same object. A true ability answers 2xx; a false one 403
 * or 404. A caller who may not read the resource has no abilities on it, and every route refuses.
 * Each call acts on objects made for it, so one call's effect never decides another's.
 */

const t = await buildTestApp();

type Person = 'owner' | 'teacher' | 'lead' | 'researcher' | 'spOwner' | 'member' | 'invitee' | 'former';
const PERSONS: Person[] = ['owner', 'teacher', 'lead', 'researcher', 'spOwner', 'member', 'invitee', 'former'];
let people: Record<Person, TestUser>;

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
  };
});

/**
 * A shared portfolio of `spOwner` with a member, a former member, an invitee and (unless empty)
 * a member's artifact with (unless quiet) a member's comment.
 */
async function sharedWorld(options: { empty?: boolean; quiet?: boolean } = {}) {
  const sp = await createSharedPortfolio(t, people.spOwner, {
    members: [people.member, people.former],
    invitees: [people.invitee],
  });
  await removeMember(t, sp, people.former);
  if (options.empty) return { sp, sa: null, commentId: 0 };
  const sa = await createSharedArtifact(t, sp, people.member);
  // A shared artifact with comments or reactions is not deleted (400): `quiet` leaves it without.
  const commentId = options.quiet ? 0 : await createComment(t, sa, people.member);
  return { sp, sa, commentId };
}

/** A teacher's completed artifact, in a portfolio of hers. */
async function personalWorld() {
  const portfolio = await createPortfolio(t, people.owner);
  return { artifact: await createArtifact(t, portfolio, { parkingLot: false }) };
}

type Abilities = Record<string, boolean>;

/** One ability: where the caller reads it (`null`: cannot read the resource) and the route it stands for. */
interface AbilityCase {
  resource: string;
  ability: string;
  /** Makes the objects; answers where the abilities are read and the request the ability stands for. */
  arrange: (caller: Person) => Promise<{ read: (token: string) => Promise<Abilities | null>; request: InjectOptions }>;
}

type Answer = { abilities: Abilities; comments?: { id: number; abilities: Abilities }[] };

/** Reads the abilities of an answer (`null` when the caller may not read it). */
const read =
  (url: string, pick: (body: Answer) => Abilities = (body) => body.abilities) =>
  async (token: string) => {
    const res = await t.api({ method: 'GET', url, token });
    if (res.statusCode === 404) return null;
    expect(res.statusCode).toBe(200);
    return pick(res.json<Answer>());
  };

const sharedPortfolioCase = (
  ability: string,
  request: (w: Awaited<ReturnType<typeof sharedWorld>>, caller: Person) => InjectOptions,
  empty = false,
): AbilityCase => ({
  resource: 'shared portfolio',
  ability,
  arrange: async (caller) => {
    const w = await sharedWorld({ empty });
    return { read: read(`/shared-portfolios/${w.sp.id}`), request: request(w, caller) };
  },
});

const sharedArtifactCase = (
  ability: string,
  request: (w: Awaited<ReturnType<typeof sharedWorld>>) => InjectOptions,
  quiet = false,
): AbilityCase => ({
  resource: 'shared artifact',
  ability,
  arrange: async () => {
    const w = await sharedWorld({ quiet });
    return { read: read(`/shared-artifacts/${w.sa!.id}`), request: request(w) };
  },
});

const commentCase = (ability: string, request: (commentId: number) => InjectOptions): AbilityCase => ({
  resource: "a member's comment",
  ability,
  arrange: async () => {
    const w = await sharedWorld();
    const pick = (body: Answer) => body.comments!.find((c) => c.id === w.commentId)!.abilities;
    return { read: read(`/shared-artifacts/${w.sa!.id}`, pick), request: request(w.commentId) };
  },
});

const artifactCase = (
  ability: string,
  request: (artifact: { id: number }) => Promise<InjectOptions> | InjectOptions,
): AbilityCase => ({
  resource: 'personal artifact',
  ability,
  arrange: async () => {
    const { artifact } = await personalWorld();
    return { read: read(`/artifacts/${artifact.id}`), request: await request(artifact) };
  },
});

const userCase = (ability: string, request: () => InjectOptions): AbilityCase => ({
  resource: 'signed-in user',
  ability,
  arrange: async () => ({ read: read('/users/me'), request: request() }),
});

const CASES: AbilityCase[] = [
  sharedPortfolioCase('edit', ({ sp }) => ({
    method: 'PUT',
    url: `/shared-portfolios/${sp.id}`,
    payload: { name: 'Renamed', structure: [] },
  })),
  sharedPortfolioCase('delete', ({ sp }) => ({ method: 'DELETE', url: `/shared-portfolios/${sp.id}` }), true),
  sharedPortfolioCase('invite', ({ sp }) => ({ method: 'GET', url: `/shared-portfolios/${sp.id}/members` })),
  sharedPortfolioCase('leave', ({ sp }) => ({ method: 'POST', url: `/shared-portfolios/${sp.id}/leave`, payload: {} })),
  sharedPortfolioCase('contribute', ({ sp, sa }) => ({
    method: 'POST',
    url: `/shared-artifacts/${sa!.id}/share`,
    payload: { sharedPortfolioId: sp.id },
  })),
  sharedArtifactCase('edit', ({ sa }) => ({
    method: 'PUT',
    url: `/shared-artifacts/${sa!.id}`,
    payload: { responses: COMPLETE_RESPONSES, updated_at: sa!.updated_at },
  })),
  sharedArtifactCase('delete', ({ sa }) => ({ method: 'DELETE', url: `/shared-artifacts/${sa!.id}` }), true),
  sharedArtifactCase('comment', ({ sa }) => ({
    method: 'POST',
    url: '/comments',
    payload: { sharedArtifact: sa!.id, text: 'Nice.' },
  })),
  sharedArtifactCase('react', ({ sa }) => ({
    method: 'POST',
    url: '/reactions',
    payload: { sharedArtifact: sa!.id, value: '🌉' },
  })),
  sharedArtifactCase('copy', ({ sp, sa }) => ({
    method: 'POST',
    url: `/shared-artifacts/${sa!.id}/share`,
    payload: { sharedPortfolioId: sp.id },
  })),
  commentCase('edit', (id) => ({ method: 'PUT', url: `/comments/${id}`, payload: { text: 'Changed.' } })),
  commentCase('delete', (id) => ({ method: 'DELETE', url: `/comments/${id}` })),
  artifactCase('edit', ({ id }) => ({
    method: 'PUT',
    url: `/artifacts/${id}`,
    payload: { responses: COMPLETE_RESPONSES },
  })),
  artifactCase('delete', ({ id }) => ({ method: 'DELETE', url: `/artifacts/${id}` })),
  artifactCase('share', async ({ id }) => {
    const target = await createSharedPortfolio(t, people.spOwner, {
      members: PERSONS.map((p) => people[p]).filter((p) => p !== people.spOwner),
    });
    return { method: 'POST', url: `/artifacts/${id}/share`, payload: { sharedPortfolioId: target.id } };
  }),
  userCase('ownPortfolios', () => ({ method: 'POST', url: '/portfolios', payload: { name: 'Another' } })),
  userCase('createSharedPortfolio', () => ({
    method: 'POST',
    url: '/shared-portfolios',
    payload: { name: 'Ours', structure: [] },
  })),
  userCase('exportSummaries', () => ({ method: 'GET', url: '/shared-portfolios/export' })),
  {
    resource: 'signed-in user',
    ability: 'readTeacherPortfolios',
    arrange: async () => {
      const portfolio = await createPortfolio(t, await createTeacher(t));
      return { read: read('/users/me'), request: { method: 'GET', url: `/portfolios/${portfolio.id}` } };
    },
  },
  userCase('manageUsers', () => ({ method: 'GET', url: '/users' })),
  userCase('manageUsers', () => ({ method: 'GET', url: '/backups/status' })),
  userCase('researchExport', () => ({ method: 'GET', url: '/research/exports' })),
];

/**
 * Where the portal offers less than the server allows, by design, named here: Leave is offered to
 * teachers only (spec §2), while the server also lets any other member leave, and the owner by
 * naming a new owner (`permissions.md`).
 */
const OFFERED_LESS: Partial<Record<string, Person[]>> = { 'shared portfolio leave': ['spOwner'] };

describe.each(CASES)('$resource: $ability', (c) => {
  it.each(PERSONS)('as %s, the ability and the answer agree', async (caller) => {
    const { read: readAbilities, request } = await c.arrange(caller);
    const { token } = people[caller];
    const abilities = await readAbilities(token);
    const res = await t.api({ ...request, url: String(request.url), token });
    const says = abilities?.[c.ability] ?? false;
    const outcome =
      res.statusCode >= 200 && res.statusCode < 300
        ? '2xx'
        : [403, 404].includes(res.statusCode)
          ? 'refused'
          : `${res.statusCode}`;
    // The owner leaves only by naming a new owner: 400 without one.
    const expected = OFFERED_LESS[`${c.resource} ${c.ability}`]?.includes(caller)
      ? { says: false, outcome: '400' }
      : { says, outcome: says ? '2xx' : 'refused' };
    expect(abilities === null || typeof abilities[c.ability] === 'boolean').toBe(true);
    expect({ says, outcome }, res.body).toEqual(expected);
  });
});
