import type { User } from '#schemas/user';
import { allow, deny, type Decision } from './decision.ts';
import { canWorkInShared, SHARED_MESSAGES, type SharedFacts } from './sharedPolicy.ts';
import { isResearcher } from './userPolicy.ts';

export const COVERAGE_MESSAGES = {
  teacherNotFound: 'Teacher not found.',
  installationOnlyResearchers: 'Only researchers can see the coverage of the whole installation.',
} as const;

type Actor = Pick<User, 'id' | 'role'>;

/** A teacher's coverage: her own, and any teacher's for researchers; nobody else learns she exists. */
export const canSeeTeacherCoverage = (actor: Actor, teacherId: number): Decision =>
  actor.id === teacherId || isResearcher(actor) ? allow : deny(404, COVERAGE_MESSAGES.teacherNotFound);

/** A shared portfolio's coverage: its members (its owner among them) and researchers; invitees not yet. */
export const canSeeSharedCoverage = (actor: Actor, sp: SharedFacts): Decision =>
  canWorkInShared(actor, sp, SHARED_MESSAGES.notFound);

/** The whole installation's coverage: researchers. */
export const canSeeInstallationCoverage = (actor: Actor): Decision =>
  isResearcher(actor) ? allow : deny(403, COVERAGE_MESSAGES.installationOnlyResearchers);

/**
 * Whether the caller sees every score of a shared portfolio's map (researchers, its owner), or only
 * those she gave and those on her own work (other members), as on each artifact (decision 055).
 */
export const seesAllPortfolioScores = (actor: Actor, sp: SharedFacts): boolean =>
  isResearcher(actor) || sp.ownerId === actor.id;
