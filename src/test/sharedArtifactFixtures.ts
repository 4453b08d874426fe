import type { Comment, Reaction, SharedArtifactDetail } from '../schemas/sharedArtifact.ts';
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
  return { ...artifact, comments: [], reactions: [], ...overrides };
}

/** A comment of Theo's on artifact 70. */
export function makeComment(overrides: Partial<Comment> = {}): Comment {
  return {
    id: 31,
    text: 'Nice ramp.',
    owner: people.theo.id,
    username: people.theo.username,
    sharedArtifact: 70,
    created_at: '2026-03-03T10:00:00.000Z',
    updated_at: '2026-03-03T10:00:00.000Z',
    updated_by: people.theo.id,
    ...overrides,
  };
}

/** A '⭐' reaction of Theo's on artifact 70. */
export function makeReaction(overrides: Partial<Reaction> = {}): Reaction {
  return {
    id: 41,
    value: '⭐',
    owner: people.theo.id,
    sharedArtifact: 70,
    created_by: people.theo.id,
    updated_by: people.theo.id,
    created_at: '2026-03-03T10:00:00.000Z',
    updated_at: '2026-03-03T10:00:00.000Z',
    ...overrides,
  };
}
