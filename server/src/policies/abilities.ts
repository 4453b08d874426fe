import type {
  ArtifactAbilities,
  CommentAbilities,
  SharedArtifactAbilities,
  SharedPortfolioAbilities,
  UserAbilities,
} from '#schemas/abilities';
import type { User } from '#schemas/user';
import { canCreatePortfolio, canWriteArtifact } from './portfolioPolicy.ts';
import {
  canChangeOwn,
  canCreateShared,
  canLeaveShared,
  canManageShared,
  canWorkInShared,
  SHARED_MESSAGES,
  type SharedFacts,
} from './sharedPolicy.ts';
import { offersInsights } from './insightsPolicy.ts';
import { canCreateRubric } from './rubricPolicy.ts';
import { canManageUsers, isResearcher } from './userPolicy.ts';

/**
 * What an actor may do with a resource, for the answers the web reads (decision 029). Each
 * ability is the outcome of the policy the matching route asks, so the two cannot drift.
 */
type Actor = Pick<User, 'id' | 'role'>;

/** The signed-in user's abilities. */
function user(actor: Actor): UserAbilities {
  const researcher = isResearcher(actor);
  return {
    ownPortfolios: canCreatePortfolio(actor).ok,
    createSharedPortfolio: canCreateShared(actor).ok,
    readAllSharedPortfolios: researcher,
    exportSummaries: researcher,
    readTeacherPortfolios: researcher,
    manageUsers: canManageUsers(actor),
    researchExport: researcher,
    insights: offersInsights(actor),
    installationRubrics: canCreateRubric(actor, null).ok,
  };
}

/** On a shared portfolio. */
function sharedPortfolio(actor: Actor, sp: SharedFacts): SharedPortfolioAbilities {
  const manage = canManageShared(actor, sp).ok;
  return {
    edit: manage,
    delete: manage,
    invite: manage,
    leave: canLeaveShared(actor, sp),
    contribute: canWorkInShared(actor, sp).ok,
  };
}

/** On a shared artifact of the shared portfolio `sp`. */
function sharedArtifact(actor: Actor, sp: SharedFacts): SharedArtifactAbilities {
  const work = canWorkInShared(actor, sp).ok;
  return { edit: work, delete: work, comment: work, react: work, copy: work };
}

/** On a comment in the shared portfolio `sp`. */
function comment(actor: Actor, item: { owner: { id: number } }, sp: SharedFacts): CommentAbilities {
  const own = canChangeOwn(actor, item, sp, SHARED_MESSAGES.commentNotFound).ok;
  return { edit: own, delete: own };
}

/** On a personal artifact. */
function artifact(actor: Actor, a: { ownerId: number | null }): ArtifactAbilities {
  const write = canWriteArtifact(actor, a).ok;
  return { edit: write, delete: write, share: write };
}

/** `abilitiesFor.<resource kind>(actor, resource…)`. */
export const abilitiesFor = { user, sharedPortfolio, sharedArtifact, comment, artifact };
