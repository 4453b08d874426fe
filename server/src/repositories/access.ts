import { ROLE_IDS } from '#schemas/user';

/**
 * Who may read what, in SQL: the shared-portfolio policy's rules (`policies/sharedPolicy.ts`)
 * for queries that filter many rows at once. Built from the role constants, so no query spells
 * a role id. Arguments are SQL expressions (column references), never user input.
 */
const isResearcher = (user: string): string => `${user}.role_id = ${ROLE_IDS.researcher}`;

/** Whether the person with id `userId` is a member of the shared portfolio with id `sharedPortfolioId`. */
const isMember = (sharedPortfolioId: string, userId: string): string =>
  `EXISTS (SELECT 1 FROM shared_portfolio_members access_m WHERE access_m.shared_portfolio_id = ${sharedPortfolioId} AND access_m.user_id = ${userId})`;

export const access = {
  /** Whether the `users` row `user` (a table alias) is a researcher. */
  isResearcher,
  /** Whether the `users` row `user` is not a researcher: a teacher or a PLC lead, who keep personal portfolios. */
  ownsPortfolios: (user: string): string => `${user}.role_id <> ${ROLE_IDS.researcher}`,
  /** Whether the account with id `userId` is a researcher. */
  isResearcherId: (userId: string): string =>
    `EXISTS (SELECT 1 FROM users access_u WHERE access_u.id = ${userId} AND ${isResearcher('access_u')})`,
  isMember,
  /** Whether the `users` row `user` works in shared portfolio `sharedPortfolioId`: a member, or a researcher. */
  worksInShared: (user: string, sharedPortfolioId: string): string =>
    `(${isResearcher(user)} OR ${isMember(sharedPortfolioId, `${user}.id`)})`,
  /**
   * With a nullable member-id parameter (`$n::int`): the rows of the shared portfolios that
   * person belongs to, or every row when the parameter is null (researchers).
   */
  memberFilter: (sharedPortfolioId: string, param: string): string =>
    `(${param}::int IS NULL OR ${isMember(sharedPortfolioId, param)})`,
};
