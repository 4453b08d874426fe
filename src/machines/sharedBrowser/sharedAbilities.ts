/**
 * What a user may do in Shared Portfolios as the portal shows it (spec §2, §6; reference §12.1
 * #23, #25). The server decides again on every call; these only choose what is offered.
 */
import type { SharedPortfolio } from '../../schemas/sharedPortfolio.ts';
import type { User } from '../../schemas/user.ts';

type Viewer = Pick<User, 'id' | 'role'> | null;
type Portfolio = Pick<SharedPortfolio, 'owner' | 'members'>;

const isResearcher = (user: Viewer): boolean => user?.role.type === 'researcher';
const isOwner = (user: Viewer, portfolio: Portfolio): boolean => user !== null && portfolio.owner.id === user.id;

/** 'CREATE NEW SHARED PORTFOLIO': PLC leads and researchers. */
export const canCreateShared = (user: Viewer): boolean => user?.role.type === 'plc_lead' || isResearcher(user);

/** 'Export shared portfolios summary': researchers. */
export const canExportShared = (user: Viewer): boolean => isResearcher(user);

/** Edit of a shared portfolio: its owner and researchers. */
export const canEditShared = (user: Viewer, portfolio: Portfolio): boolean => isOwner(user, portfolio) || isResearcher(user);

/** Leave: teachers (role type `authenticated`) who belong to it and do not own it. */
export function canLeaveShared(user: Viewer, portfolio: Portfolio): boolean {
  if (user?.role.type !== 'authenticated' || isOwner(user, portfolio)) return false;
  return portfolio.members.some((m) => m.id === user.id);
}

/**
 * A mutable view: members (the owner too) and researchers comment, react, and edit, copy or
 * delete the artifacts. An invitee who opens the portfolio only reads it.
 */
export function worksInShared(user: Viewer, portfolio: Portfolio): boolean {
  if (user === null) return false;
  return isResearcher(user) || isOwner(user, portfolio) || portfolio.members.some((m) => m.id === user.id);
}
