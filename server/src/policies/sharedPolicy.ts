import type { User } from '#schemas/user';
import { allow, deny, type Decision } from './decision.ts';
import { isPlcLead, isResearcher, isTeacher } from './userPolicy.ts';

export const SHARED_MESSAGES = {
  notFound: 'Shared portfolio not found.',
  noPermission: 'You do not have permission to access this page.',
  ownerOnly: 'Only the owner of this shared portfolio can do this.',
  artifactNotFound: 'Shared artifact not found.',
  invalidPortfolio: 'Invalid shared portfolio ID.',
  invalidArtifact: 'Invalid shared artifact ID.',
  notMember: 'You are not a member of this shared portfolio.',
  commentNotFound: 'Comment not found.',
  reactionNotFound: 'Reaction not found.',
  notYours: 'You can change only your own comments and reactions.',
  invitationNotFound: 'Invitation not found.',
} as const;

type Actor = Pick<User, 'id' | 'role'>;
/** What the policies need to know of a shared portfolio. */
export interface SharedFacts {
  ownerId: number;
  memberIds: readonly number[];
}

/** Whether the user belongs to the shared portfolio. */
export const isMember = (actor: Pick<User, 'id'>, sp: SharedFacts): boolean => sp.memberIds.includes(actor.id);

/**
 * Read a shared portfolio or its artifacts: members, invitees, researchers. Others get the
 * message of a missing object (`notFoundMessage`: the shared artifact's, for an artifact).
 */
export function canReadShared(
  actor: Actor,
  sp: SharedFacts,
  invitee: boolean,
  notFoundMessage: string = SHARED_MESSAGES.notFound,
): Decision {
  return isMember(actor, sp) || invitee || isResearcher(actor) ? allow : deny(404, notFoundMessage);
}

/** Create shared portfolios: PLC leads and researchers. */
export function canCreateShared(actor: Actor): Decision {
  return isPlcLead(actor) || isResearcher(actor) ? allow : deny(403, SHARED_MESSAGES.noPermission);
}

/** Edit or delete a shared portfolio, see and manage its members, invite: its owner and researchers. */
export function canManageShared(
  actor: Actor,
  sp: SharedFacts,
  notFoundMessage: string = SHARED_MESSAGES.notFound,
): Decision {
  if (sp.ownerId === actor.id || isResearcher(actor)) return allow;
  if (isMember(actor, sp)) return deny(403, SHARED_MESSAGES.ownerOnly);
  return deny(404, notFoundMessage);
}

/** Work inside a shared portfolio (edit, upload, copy into, comment, react, delete artifacts): members and researchers. */
export function canWorkInShared(
  actor: Actor,
  sp: SharedFacts,
  notFoundMessage: string = SHARED_MESSAGES.notFound,
): Decision {
  return isMember(actor, sp) || isResearcher(actor) ? allow : deny(404, notFoundMessage);
}

/**
 * Leave, as the portal offers it: a teacher who is a member and not the owner (spec §2). The
 * server also lets other members and, naming a new owner, the owner leave (`leave` route).
 */
export function canLeaveShared(actor: Actor, sp: SharedFacts): boolean {
  return isTeacher(actor) && isMember(actor, sp) && sp.ownerId !== actor.id;
}

/** Change or delete a comment or reaction: its owner, while still a member (or a researcher). */
export function canChangeOwn(
  actor: Actor,
  item: { owner: { id: number } },
  sp: SharedFacts,
  notFoundMessage: string,
): Decision {
  const inside = isMember(actor, sp) || isResearcher(actor);
  if (!inside) return deny(404, notFoundMessage);
  return item.owner.id === actor.id ? allow : deny(403, SHARED_MESSAGES.notYours);
}
