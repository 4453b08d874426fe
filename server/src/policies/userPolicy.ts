import type { User } from '#schemas/user';

/** Whether the user is a researcher. */
export const isResearcher = (user: Pick<User, 'role'>): boolean => user.role.type === 'researcher';

/** Who may list, create, block and unblock accounts: researchers. */
export const canManageUsers = (actor: Pick<User, 'role'>): boolean => isResearcher(actor);

/** Researchers may block anyone but themselves. */
export const canSetBlocked = (actor: Pick<User, 'id' | 'role'>, targetId: number): boolean =>
  isResearcher(actor) && actor.id !== targetId;

/** Who may create personal portfolios: teachers and PLC leads. */
export const canOwnPortfolios = (actor: Pick<User, 'role'>): boolean => !isResearcher(actor);
