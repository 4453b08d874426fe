import type { Invitation } from '../schemas/invitation.ts';
import type { Portfolio } from '../schemas/portfolio.ts';
import type { MembersResponse, Person, SharedArtifact, SharedPortfolio } from '../schemas/sharedPortfolio.ts';
import type { Question } from '../schemas/structure.ts';
import { SHARED_PORTFOLIO_ABILITIES } from './abilityFixtures.ts';
import { BASIC_STRUCTURE } from './artifactFixtures.ts';

/** People as membership lists show them. */
export const people = {
  lee: { id: 3, username: 'Lee Lead', email: 'lead@example.org' },
  tess: { id: 4, username: 'Tess Teacher', email: 'teacher@example.org' },
  theo: { id: 5, username: 'Theo Teacher', email: 'teacher2@example.org' },
  pat: { id: 6, username: 'Pat Pending', email: 'pat@example.org' },
  rita: { id: 2, username: 'Rita Researcher', email: 'researcher@example.org' },
} satisfies Record<string, Person>;

/** The template portfolio (id 1) as `GET /portfolios/1` returns it. */
export function makeTemplatePortfolio(overrides: Partial<Portfolio> = {}): Portfolio {
  return {
    id: 1,
    name: 'Basic template',
    created_at: '2026-01-01T10:00:00.000Z',
    updated_at: '2026-01-01T10:00:00.000Z',
    grades: [],
    subject: null,
    topic: null,
    template: 'Basic',
    owner: null,
    structure: BASIC_STRUCTURE,
    artifacts: [],
    ...overrides,
  };
}

/** A team question whose one choice holds a comma. */
export const TEAM_QUESTION: Question = {
  key: '7d9f3c52-0b1e-4c8a-9e57-2f3b8a1c6d40',
  text: 'Where could this idea travel?',
  type: 'singleSelection',
  bonus: true,
  choices: ['Another grade, same school', 'Another school'],
};

/** A shared artifact as it appears inside its shared portfolio. */
export function makeSharedArtifact(overrides: Partial<SharedArtifact> = {}): SharedArtifact {
  return {
    id: 70,
    sharedPortfolio: { id: 9 },
    parkingLot: false,
    owner: people.tess,
    ownerUsername: people.tess.username,
    structure: BASIC_STRUCTURE,
    responses: { artifactName: 'Ramp race', learningGoal: 'Forces' },
    nextCaption: 'B',
    portfolioTopic: 'Forces',
    portfolioSubject: 'Science',
    portfolioGrades: ['6th'],
    created_at: '2026-03-02T10:00:00.000Z',
    updated_at: '2026-03-02T10:00:00.000Z',
    images: [],
    videos: [],
    documents: [],
    commentCount: 2,
    commentTexts: [],
    reactions: {},
    ...overrides,
  };
}

/**
 * A shared portfolio owned by Lee with Tess as a member: its structure keeps the core questions,
 * unitTiming and the standards question, and adds `TEAM_QUESTION`.
 */
export function makeSharedPortfolio(overrides: Partial<SharedPortfolio> = {}): SharedPortfolio {
  const kept = new Set(['artifactName', 'unitTiming', 'learningGoal', 'standardFrameworkTags']);
  return {
    id: 9,
    name: 'Grades 5–7 Science PLC',
    created_at: '2026-02-03T15:00:00.000Z',
    updated_at: '2026-02-03T15:00:00.000Z',
    grades: ['5th', '6th'],
    subject: 'Science',
    topic: 'Forces and motion',
    plcName: 'Middle school science',
    plcGoals: 'Notice student reasoning.',
    owner: people.lee,
    members: [people.lee, people.tess],
    structure: [...BASIC_STRUCTURE.filter((q) => kept.has(q.key)), TEAM_QUESTION],
    templateStructure: BASIC_STRUCTURE,
    commentCount: 0,
    abilities: SHARED_PORTFOLIO_ABILITIES.owner,
    sharedArtifacts: [],
    ...overrides,
  };
}

/** The members response: members and pending without the owner. */
export function makeMembers(overrides: Partial<MembersResponse> = {}): MembersResponse {
  return {
    members: [people.tess],
    pending: [{ ...people.pat, invitationId: 51 }],
    nonMembers: [],
    ...overrides,
  };
}

/** An invitation of Tess to Lee's shared portfolio. */
export function makeInvitation(overrides: Partial<Invitation> = {}): Invitation {
  const { sharedArtifacts, ...sp } = makeSharedPortfolio();
  return {
    id: 21,
    to: people.tess,
    from: people.lee,
    sharedPortfolio: {
      ...sp,
      sharedArtifacts: sharedArtifacts.map(({ id, owner, created_at, updated_at }) => ({
        id,
        owner: { id: owner.id },
        created_at,
        updated_at,
      })),
    },
    created_at: '2026-03-05T09:00:00.000Z',
    ...overrides,
  };
}
