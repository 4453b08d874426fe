import type { User } from '#schemas/user';

/** Whether the user is a researcher. */
export const isResearcher = (user: Pick<User, 'role'>): boolean => user.role.type === 'researcher';

/** Whether the user is a teacher (role type `authenticated`). */
export const isTeacher = (user: Pick<User, 'role'>): boolean => user.role.type === 'authenticated';

/** Whether the user is a PLC lead. */
export const isPlcLead = (user: Pick<User, 'role'>): boolean => user.role.type === 'plc_lead';

/** Who may list, create, block and unblock accounts: researchers. */
export const canManageUsers = (actor: Pick<User, 'role'>): boolean => isResearcher(actor);

/** Researchers may block anyone but themselves. */
export const canSetBlocked = (actor: Pick<User, 'id' | 'role'>, targetId: number): boolean =>
  isResearcher(actor) && actor.id !== targetId;

/** Who may create personal portfolios: teachers and PLC leads. */
export const canOwnPortfolios = (actor: Pick<User, 'role'>): boolean => !isResearcher(actor);
