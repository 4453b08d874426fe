import type { RubricUsage } from '#schemas/rubrics';
import type { User } from '#schemas/user';
import { allow, deny, type Decision } from './decision.ts';
import { canManageShared, canReadShared, canWorkInShared, SHARED_MESSAGES, type SharedFacts } from './sharedPolicy.ts';
import { isResearcher } from './userPolicy.ts';

export const RUBRIC_MESSAGES = {
  notFound: 'Rubric not found.',
  installationOnlyResearchers: 'Only researchers can make or change rubrics for the whole installation.',
  notPortfolios: 'This rubric belongs to another shared portfolio.',
  notChosen: 'This rubric is not the one this shared portfolio scores with.',
  noRubric: 'This shared portfolio has no rubric yet.',
  criterionNotInRubric: 'This criterion is not part of the portfolio’s rubric.',
  levelNotInCriterion: 'This level is not one of the levels of this criterion.',
  scoreNotFound: 'Score not found.',
  notYourScore: 'You can delete only your own scores.',
  scored: ({ scores, portfolios }: RubricUsage) =>
    `${scores === 1 ? 'A score was' : `${scores} scores were`} given with this rubric, and ` +
    `${scores === 1 ? 'it keeps' : 'they keep'} it: it cannot be deleted. ` +
    (portfolios.length > 0
      ? `To stop using it, choose another rubric (or none) in ${namesOf(portfolios)}.`
      : 'No shared portfolio scores with it now, so it gets no new scores.'),
  chosen: ({ portfolios }: RubricUsage) =>
    `${namesOf(portfolios)} ${portfolios.length === 1 ? 'scores' : 'score'} with this rubric. ` +
    'Choose another rubric (or none) there first, then delete it.',
} as const;

/** “A”, “A” and “B”, “A”, “B” and 3 more. */
function namesOf(portfolios: RubricUsage['portfolios']): string {
  const names = portfolios.map((p) => `“${p.name}”`);
  if (names.length <= 2) return names.join(' and ');
  if (names.length === 3) return `${names[0]}, ${names[1]} and ${names[2]}`;
  return `${names[0]}, ${names[1]} and ${names.length - 2} more`;
}

type Actor = Pick<User, 'id' | 'role'>;

/**
 * Make a rubric: for a shared portfolio, its owner (a PLC lead) and researchers; for the whole
 * installation (`sp` null), researchers.
 */
export function canCreateRubric(actor: Actor, sp: SharedFacts | null): Decision {
  if (sp === null) return isResearcher(actor) ? allow : deny(403, RUBRIC_MESSAGES.installationOnlyResearchers);
  return canManageShared(actor, sp);
}

/** Read a rubric: an installation-wide one anyone signed in; a portfolio's whoever reads that portfolio. */
export function canReadRubric(actor: Actor, sp: SharedFacts | null, invitee: boolean): Decision {
  return sp === null ? allow : canReadShared(actor, sp, invitee, RUBRIC_MESSAGES.notFound);
}

/** Change a rubric: as making one (members of its portfolio are told no; others do not learn it exists). */
export function canEditRubric(actor: Actor, sp: SharedFacts | null): Decision {
  return sp === null ? canCreateRubric(actor, null) : canManageShared(actor, sp, RUBRIC_MESSAGES.notFound);
}

/** Choose the rubric a shared portfolio scores with: its owner and researchers. */
export const canChooseRubric = (actor: Actor, sp: SharedFacts): Decision => canManageShared(actor, sp);

/** Score a shared artifact: whoever may comment on it (members, researchers). */
export const canScore = (actor: Actor, sp: SharedFacts): Decision =>
  canWorkInShared(actor, sp, SHARED_MESSAGES.invalidArtifact);

/**
 * Whose scores on a shared artifact the caller sees: all of them for the artifact's owner, the
 * shared portfolio's owner and researchers; only their own for other members (a peer's judgement
 * of a colleague's lesson stays between the scorer, the teacher and the lead).
 */
export function seesAllScores(actor: Actor, artifact: { ownerId: number }, sp: SharedFacts): boolean {
  return isResearcher(actor) || artifact.ownerId === actor.id || sp.ownerId === actor.id;
}

/**
 * Delete a score: its scorer, while still a member (or a researcher). Those who see every score
 * of the artifact are told no; others do not learn that the score exists.
 */
export function canDeleteScore(
  actor: Actor,
  score: { scorerId: number; artifactOwnerId: number },
  sp: SharedFacts,
): Decision {
  if (!canWorkInShared(actor, sp).ok) return deny(404, RUBRIC_MESSAGES.scoreNotFound);
  if (score.scorerId === actor.id) return allow;
  return seesAllScores(actor, { ownerId: score.artifactOwnerId }, sp)
    ? deny(403, RUBRIC_MESSAGES.notYourScore)
    : deny(404, RUBRIC_MESSAGES.scoreNotFound);
}
