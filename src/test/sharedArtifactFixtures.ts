import type { Comment, Reaction, SharedArtifactDetail } from '../schemas/sharedArtifact.ts';
import type { Person } from '../schemas/sharedPortfolio.ts';
import { BASIC_STRUCTURE } from './artifactFixtures.ts';
import { makeSharedArtifact, people, TEAM_QUESTION } from './sharedFixtures.ts';

/**
 * A shared artifact as `GET /shared-artifacts/{id}` returns it: artifact 70 of shared portfolio 9,
 * the Basic questions plus `TEAM_QUESTION`, completed, without comments or reactions unless told.
 */
export function makeSharedArtifactDetail(overrides: Partial<SharedArtifactDetail> = {}): SharedArtifactDetail {
  const { reactions: _flags, ...artifact } = makeSharedArtifact({
    structure: [...BASIC_STRUCTURE, TEAM_QUESTION],
    responses: { artifactName: 'Ramp race', learningGoal: 'Forces' },
    commentCount: 0,
    updated_at: '2026-03-02T10:00:00.000Z',
  });
  return { ...artifact, comments: [], reactions: [], version: 1, ...overrides };
}

/** The populated `owner` of a comment or reaction, from a fixture person's id. */
export function personRef(id: number): Person {
  const known = Object.values(people).find((p) => p.id === id);
  return known ? { ...known } : { id, username: `User ${id}`, email: `user${id}@example.org` };
}

/** The populated `sharedArtifact` of a comment or reaction (in shared portfolio 9). */
export function discussedRef(id: number, sharedPortfolio = 9): Comment['sharedArtifact'] {
  return {
    id,
    sharedPortfolio,
    owner: people.tess.id,
    created_at: '2026-03-02T10:00:00.000Z',
    updated_at: '2026-03-02T10:00:00.000Z',
  };
}

/** Fixture overrides may name the owner and the artifact by id. */
type DiscussionOverrides<T extends Comment | Reaction> = Partial<Omit<T, 'owner' | 'sharedArtifact'>> & {
  owner?: number | Person;
  sharedArtifact?: number | Comment['sharedArtifact'];
};

function expand<T extends Comment | Reaction>(base: T, overrides: DiscussionOverrides<T>): T {
  const { owner, sharedArtifact, ...rest } = overrides;
  return {
    ...base,
    ...rest,
    ...(owner === undefined ? {} : { owner: typeof owner === 'number' ? personRef(owner) : owner }),
    ...(sharedArtifact === undefined
      ? {}
      : { sharedArtifact: typeof sharedArtifact === 'number' ? discussedRef(sharedArtifact) : sharedArtifact }),
  };
}

/** A comment of Theo's on artifact 70. */
export function makeComment(overrides: DiscussionOverrides<Comment> = {}): Comment {
  const base: Comment = {
    id: 31,
    text: 'Nice ramp.',
    owner: personRef(people.theo.id),
    username: people.theo.username,
    sharedArtifact: discussedRef(70),
    created_at: '2026-03-03T10:00:00.000Z',
    updated_at: '2026-03-03T10:00:00.000Z',
    updated_by: people.theo.id,
    moment: null,
  };
  return expand(base, overrides);
}

/** A '⭐' reaction of Theo's on artifact 70. */
export function makeReaction(overrides: DiscussionOverrides<Reaction> = {}): Reaction {
  const base: Reaction = {
    id: 41,
    value: '⭐',
    owner: personRef(people.theo.id),
    sharedArtifact: discussedRef(70),
    created_by: people.theo.id,
    updated_by: people.theo.id,
    created_at: '2026-03-03T10:00:00.000Z',
    updated_at: '2026-03-03T10:00:00.000Z',
    moment: null,
  };
  return expand(base, overrides);
}
