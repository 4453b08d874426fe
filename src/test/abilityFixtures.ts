import type {
  CommentAbilities,
  SharedArtifactAbilities,
  SharedPortfolioAbilities,
  UserAbilities,
} from '../schemas/abilities.ts';
import type { Me } from '../schemas/user.ts';

/** What `GET /users/me` answers as abilities for each kind of account (the server's policies decide them). */
export const USER_ABILITIES = {
  teacher: {
    ownPortfolios: true,
    createSharedPortfolio: false,
    readAllSharedPortfolios: false,
    exportSummaries: false,
    readTeacherPortfolios: false,
    manageUsers: false,
    researchExport: false,
    insights: false,
    installationRubrics: false,
  },
  plcLead: {
    ownPortfolios: true,
    createSharedPortfolio: true,
    readAllSharedPortfolios: false,
    exportSummaries: false,
    readTeacherPortfolios: false,
    manageUsers: false,
    researchExport: false,
    insights: true,
    installationRubrics: false,
  },
  researcher: {
    ownPortfolios: false,
    createSharedPortfolio: true,
    readAllSharedPortfolios: true,
    exportSummaries: true,
    readTeacherPortfolios: true,
    manageUsers: true,
    researchExport: true,
    insights: true,
    installationRubrics: true,
  },
} as const satisfies Record<string, UserAbilities>;

/** A shared portfolio's abilities as the server answers them to its owner, a teacher member, a researcher, an invitee. */
export const SHARED_PORTFOLIO_ABILITIES = {
  owner: { edit: true, delete: true, invite: true, leave: false, contribute: true },
  member: { edit: false, delete: false, invite: false, leave: true, contribute: true },
  researcher: { edit: true, delete: true, invite: true, leave: false, contribute: true },
  invitee: { edit: false, delete: false, invite: false, leave: false, contribute: false },
} as const satisfies Record<string, SharedPortfolioAbilities>;

/** A shared artifact's abilities to someone who works in its shared portfolio, and to an invitee who only reads. */
export const SHARED_ARTIFACT_ABILITIES = {
  worker: { edit: true, delete: true, comment: true, react: true, copy: true },
  reader: { edit: false, delete: false, comment: false, react: false, copy: false },
} as const satisfies Record<string, SharedArtifactAbilities>;

/** A comment's abilities: its author, who works in the shared portfolio, may edit and delete it; no one else may. */
export const COMMENT_ABILITIES = {
  author: { edit: true, delete: true },
  other: { edit: false, delete: false },
} as const satisfies Record<string, CommentAbilities>;

/** A comment as the server answers it to `viewerId` (who may comment there when `works`). */
export const asSeenBy = <C extends { owner: { id: number } }>(
  comment: C,
  viewerId: number,
  works = true,
): C & { abilities: CommentAbilities } => ({
  ...comment,
  abilities: works && comment.owner.id === viewerId ? COMMENT_ABILITIES.author : COMMENT_ABILITIES.other,
});

/** Tess, a teacher, as `GET /users/me` answers for her (the session's user in client tests). */
export const TESS_ME: Me = {
  id: 7,
  username: 'Tess Teacher',
  email: 'tess@example.org',
  provider: 'local',
  confirmed: true,
  blocked: false,
  role: { id: 1, name: 'Teacher', description: 'Teacher', type: 'authenticated' },
  abilities: USER_ABILITIES.teacher,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
};
